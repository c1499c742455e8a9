"""Episode reset time and tool-call throughput (inline and sandboxed) against raw sqlite3, side by side.

    python bench/bench_env.py            # about 30 s; prints a markdown table for bench/RESULTS.md

"Raw" runs the tool's own SQL on an in-memory connection in this process, with the same
dict row factory: the floor any runtime can reach. Targets: reset < 1 ms for a 1 MB database,
inline <= 2x raw, sandboxed <= 10x raw.
"""
import os
import sqlite3
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from lib import envs, example_env  # noqa: E402


def per_call(fn, n):
    """Median of 5 timings of n calls, in microseconds per call."""
    times = []
    for _ in range(5):
        t = time.perf_counter()
        for i in range(n):
            fn(i)
        times.append((time.perf_counter() - t) / n * 1e6)
    return sorted(times)[2]


if __name__ == "__main__":
    tmp = tempfile.mkdtemp()
    env_dir = example_env.build(os.path.join(tmp, "env"), n_books=11_000, n_customers=500)
    size_mb = os.path.getsize(os.path.join(env_dir, "db.sqlite")) / 2**20
    inline, sandboxed = envs.Env(env_dir), envs.Env(env_dir, sandbox=True)

    # Episode reset: a private copy of the initial state (deserialize into memory).
    reset_us = per_call(lambda i: inline.episode(seed=i).db.close(), 200)
    raw_copy = sqlite3.connect(":memory:")
    raw_copy.deserialize(inline.db_bytes)
    raw_copy.row_factory = envs._dict_row
    ep, sb = inline.episode(), sandboxed.episode()
    ids = [f"b{1 + (i * 7919) % 11_000:04d}" for i in range(2000)]
    search_sql = "SELECT * FROM books WHERE 1=1 AND price <= ? ORDER BY price, id LIMIT ?"  # search_books' own SQL

    rows = []
    cases = {
        "get_book (point read)": (
            lambda i: raw_copy.execute("SELECT * FROM books WHERE id = ?", (ids[i % 2000],)).fetchone(),
            lambda e: (lambda i: e.call("get_book", {"book_id": ids[i % 2000]}))),
        "search_books (10 rows)": (
            lambda i: raw_copy.execute(search_sql, (10.0 + i % 40, 10)).fetchall(),
            lambda e: (lambda i: e.call("search_books", {"max_price": 10.0 + i % 40, "limit": 10}))),
    }
    for name, (raw_fn, tool_fn) in cases.items():
        raw = per_call(raw_fn, 2000)
        inl = per_call(tool_fn(ep), 2000)
        sand = per_call(tool_fn(sb), 500)
        rows.append((name, raw, inl, sand))
    sb.close()

    print(f"database: {size_mb:.2f} MB ({11_000} books, 500 customers)")
    print("| measure | value | target |\n|---|---|---|")
    print(f"| episode reset (1 MB db) | {reset_us:.0f} us | < 1000 us |")
    for name, raw, inl, sand in rows:
        print(f"| {name}: raw sqlite3 | {raw:.1f} us/call | (the floor) |")
        print(f"| {name}: inline | {inl:.1f} us/call = **{inl / raw:.2f}x raw** | <= 2x |")
        print(f"| {name}: sandboxed | {sand:.1f} us/call = **{sand / raw:.2f}x raw** | <= 10x |")
