"""A small hand-written environment (a bookshop) for tests, benchmarks and the README's format example."""
import json
import os
import random
import shutil
import sqlite3

from lib.envs import FORMAT_VERSION, write_meta_table

SOURCE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "example_env")
AUTHORS = ["Ada Byron", "Alan Turing", "Grace Hopper", "Edsger Dijkstra", "Barbara Liskov", "Donald Knuth"]


def build(out_dir, n_books=60, n_customers=20, seed=0):
    """Write the bookshop environment folder; n_books scales the database (about 90 bytes a book)."""
    rng = random.Random(seed)
    os.makedirs(out_dir, exist_ok=True)
    db_path = os.path.join(out_dir, "db.sqlite")
    if os.path.exists(db_path):
        os.remove(db_path)
    con = sqlite3.connect(db_path)
    con.executescript("""
        CREATE TABLE customers (id TEXT PRIMARY KEY, name TEXT NOT NULL, balance REAL NOT NULL);
        CREATE TABLE books (id TEXT PRIMARY KEY, title TEXT NOT NULL, author TEXT NOT NULL,
                            price REAL NOT NULL, stock INTEGER NOT NULL);
        CREATE TABLE orders (id TEXT PRIMARY KEY, customer_id TEXT NOT NULL REFERENCES customers(id),
                             book_id TEXT NOT NULL REFERENCES books(id), quantity INTEGER NOT NULL,
                             total REAL NOT NULL, status TEXT NOT NULL, created_at TEXT NOT NULL);
    """)
    con.executemany("INSERT INTO customers VALUES (?, ?, ?)",
                    [(f"c{i:03d}", f"Customer {i}", round(rng.uniform(20, 400), 2)) for i in range(1, n_customers + 1)])
    con.executemany("INSERT INTO books VALUES (?, ?, ?, ?, ?)",
                    [(f"b{i:04d}", f"Volume {i} of the collected notes", rng.choice(AUTHORS),
                      round(rng.uniform(5, 60), 2), rng.randint(0, 12) + 1) for i in range(1, n_books + 1)])
    write_meta_table(con, "example-bookshop", "lib/example_env.py")
    con.execute("VACUUM")
    con.close()
    for name in ("tools.py", "tool_tests.py"):
        shutil.copy(os.path.join(SOURCE, name), os.path.join(out_dir, name))
    meta = {"id": "example-bookshop", "format": FORMAT_VERSION, "theme": {"name": "Bookshop", "domain": "commerce"},
            "description": "A small bookshop: customers with balances order books from stock.",
            "provenance": {"db": "lib/example_env.py (seeded synthetic rows)", "tools": "hand-written"},
            "counts": {"tables": 3, "books": n_books, "customers": n_customers}}
    with open(os.path.join(out_dir, "env.json"), "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
    return out_dir
