"""02_build_tools: schema-derived tools and tests on hand-made 01-like environments, the LLM repair loop against the
scripted endpoint, resume and byte-identical reruns. make_run() is the fixture run folder shared with test_filter.py."""
import argparse
import importlib
import json
import os
import random
import sqlite3
import subprocess
import sys

import pytest

from lib import envs, runfolder, toolgen, tooltests

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHOP = """
CREATE TABLE customers (id TEXT PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL UNIQUE,
                        balance REAL NOT NULL DEFAULT 0, created_at TEXT);
CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT NOT NULL, category TEXT NOT NULL, price REAL NOT NULL,
                       stock INTEGER NOT NULL);
CREATE TABLE orders (id TEXT PRIMARY KEY, customer_id TEXT NOT NULL REFERENCES customers(id), status TEXT NOT NULL,
                     total REAL NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE order_items (id INTEGER PRIMARY KEY, order_id TEXT NOT NULL REFERENCES orders(id),
                          product_id INTEGER NOT NULL REFERENCES products(id), quantity INTEGER NOT NULL);
"""
CLINIC = """
CREATE TABLE doctors (doctor_code TEXT PRIMARY KEY, full_name TEXT NOT NULL, specialty TEXT NOT NULL);
CREATE TABLE patients (id INTEGER PRIMARY KEY, full_name TEXT NOT NULL, birth_year INTEGER NOT NULL, phone TEXT);
CREATE TABLE appointments (id TEXT PRIMARY KEY, patient_id INTEGER NOT NULL REFERENCES patients(id),
                           doctor_code TEXT NOT NULL REFERENCES doctors(doctor_code), day TEXT NOT NULL,
                           status TEXT NOT NULL, fee REAL NOT NULL);
"""


def fill(con, kind, rng):
    """Seeded rows for one of the two fixture schemas."""
    if kind == "shop":
        con.executescript(SHOP)
        con.executemany("INSERT INTO customers VALUES (?,?,?,?,?)", [(f"c{i:03d}", f"Customer {i}", f"c{i}@mail.org",
                        round(rng.uniform(0, 300), 2), "2025-01-01T00:00:00Z") for i in range(1, 9)])
        con.executemany("INSERT INTO products VALUES (?,?,?,?,?)", [(i, f"Product {i}", rng.choice(["toys", "books", "food"]),
                        round(rng.uniform(1, 50), 2), rng.randint(0, 20)) for i in range(1, 13)])
        st = ["placed", "paid", "shipped", "delivered", "cancelled"]
        con.executemany("INSERT INTO orders VALUES (?,?,?,?,?)", [(f"o{i:03d}", f"c{rng.randint(1, 6):03d}", st[i % 5],
                        round(rng.uniform(5, 100), 2), "2025-05-01T10:00:00Z") for i in range(1, 16)])
        con.executemany("INSERT INTO order_items VALUES (?,?,?,?)", [(i, f"o{rng.randint(1, 15):03d}", rng.randint(1, 10),
                        rng.randint(1, 4)) for i in range(1, 25)])
    else:
        con.executescript(CLINIC)
        con.executemany("INSERT INTO doctors VALUES (?,?,?)", [(f"D{i}", f"Dr. Number {i}", rng.choice(["cardio", "skin"]))
                                                               for i in range(1, 6)])
        con.executemany("INSERT INTO patients VALUES (?,?,?,?)", [(i, f"Patient {i}", rng.randint(1940, 2010),
                        None if i % 3 else f"555-{i:04d}") for i in range(1, 11)])
        st = ["scheduled", "confirmed", "completed", "cancelled", "no_show"]
        con.executemany("INSERT INTO appointments VALUES (?,?,?,?,?,?)", [(f"a{i:02d}", rng.randint(1, 8), f"D{rng.randint(1, 4)}",
                        f"2025-06-{i:02d}", st[i % 5], float(rng.choice([40, 60, 80]))) for i in range(1, 13)])


def make_run(root, kinds=("shop", "clinic")):
    """A run folder with a finished 01_mine: envs.jsonl (kind env) and envs/<id>/{env.json, db.sqlite}."""
    run = os.path.join(str(root), "run")
    stage = runfolder.Stage(run, "01_mine", argparse.Namespace(run_dir=run, seed=0))
    rows = []
    for kind in kinds:
        env_id = f"{kind}-001"
        folder = stage.path("envs", env_id)
        os.makedirs(folder)
        con = sqlite3.connect(os.path.join(folder, "db.sqlite"))
        fill(con, kind, random.Random(kind))
        envs.write_meta_table(con, env_id, "tests/test_build_tools.py")
        con.close()
        meta = {"id": env_id, "format": envs.FORMAT_VERSION, "theme": {"name": kind.title(), "domain": kind},
                "description": f"A small {kind}.", "provenance": {"db": "hand-made fixture"}}
        with open(os.path.join(folder, "env.json"), "w") as f:
            json.dump(meta, f)
        rows.append({"id": env_id, "theme": meta["theme"], "tables": []})
    stage.write_jsonl("envs.jsonl", rows, "env")
    stage.finish({"envs": len(rows)})
    return run


def run_stage(script, run, *extra, env=None):
    """Run a numbered stage as a subprocess; returns the CompletedProcess (check=True)."""
    return subprocess.run([sys.executable, os.path.join(ROOT, script), "--run-dir", run, *extra], check=True,
                          capture_output=True, text=True, cwd=ROOT, env={**os.environ, **(env or {})}, timeout=120)


def folder_bytes(path):
    """{relative path: bytes} of every file under a folder except meta.json (which holds timings)."""
    out = {}
    for dirpath, _, files in os.walk(path):
        for f in files:
            if f != "meta.json":
                p = os.path.join(dirpath, f)
                out[os.path.relpath(p, path)] = open(p, "rb").read()
    return out


@pytest.fixture(scope="module")
def offline_run(tmp_path_factory):
    run = make_run(tmp_path_factory.mktemp("b"))
    run_stage("02_build_tools.py", run)
    return run


# ---------------------------------------------------------------------------- schema-derived tools

def test_schema_tools_are_realistic_and_all_pass(offline_run):
    rows = runfolder.read_jsonl(os.path.join(offline_run, "02_build_tools", "tools.jsonl"), "env_tools")
    assert [r["id"] for r in rows] == ["clinic-001", "shop-001"]
    for r in rows:
        names = {t["name"]: t for t in r["tools"]}
        assert r["source"] == "schema" and r["load_error"] is None and r["schema_errors"] == {}
        assert len(names) >= 10 and sum(t["kind"] == "write" for t in r["tools"]) >= 2
        assert all(t["total"] >= 1 and t["passed"] == t["total"] for t in r["tools"]), r["tools"]
    shop = {t["name"]: t for t in rows[1]["tools"]}
    for name in ("get_order", "search_orders", "list_orders_of_customer", "summarize_orders", "create_order",
                 "update_order", "delete_order", "cancel_order", "ship_order", "list_order_items_of_product"):
        assert name in shop, name
    assert shop["cancel_order"]["kind"] == "write" and shop["cancel_order"]["tables"] == ["orders"]
    assert shop["get_order"]["kind"] == "read" and shop["get_order"]["total"] == 2  # a happy and an error test


def test_schema_tools_behave(offline_run):
    env = envs.Env(os.path.join(offline_run, "02_build_tools", "envs", "shop-001"))
    ep = env.episode(seed=1)
    props = env.by_name["search_orders"]["function"]["parameters"]["properties"]
    assert props["sort_by"]["enum"][:2] == ["id", "customer_id"] and props["limit"]["type"] == "integer"
    assert all(p.get("description") for s in env.schemas for p in s["function"]["parameters"]["properties"].values())
    delivered = ep.call("search_orders", {"status": "delivered", "limit": 1})[0]["id"]
    assert ep.call("cancel_order", {"order_id": delivered})["error"] == "tool_error"  # no cancel after fulfilment
    placed = ep.call("search_orders", {"status": "placed", "limit": 1})[0]["id"]
    assert ep.call("cancel_order", {"order_id": placed})["status"] == "cancelled"
    made = ep.call("create_order", {"customer_id": "c002", "total": 12.5})
    assert made["status"] == "placed" and made["created_at"] == "2025-06-02T09:00:05Z" and made["id"].startswith("o")
    assert ep.call("create_order", {"customer_id": "nobody", "total": 1.0})["error"] == "tool_error"
    assert ep.call("delete_customer", {"customer_id": "c002"})["error"] == "tool_error"  # still has orders
    assert ep.call("get_order", {"order_id": made["id"]}) == made
    assert envs.Env(env.path).episode(seed=1).call("create_order", {"customer_id": "c002", "total": 1.0})["id"] \
        == envs.Env(env.path).episode(seed=1).call("create_order", {"customer_id": "c002", "total": 1.0})["id"]


def test_identifiers_never_come_from_arguments(offline_run):
    env = envs.Env(os.path.join(offline_run, "02_build_tools", "envs", "shop-001"))
    ep = env.episode()
    r = ep.call("search_orders", {"sort_by": 'id; DROP TABLE orders; --'})
    assert r["error"] == "invalid_arguments"  # the schema's enum refuses it; the tool itself refuses it too:
    src = open(os.path.join(env.path, "tools.py")).read()
    results, err = tooltests.run_tests(src, "def test_x(db, tools):\n    assert tools.search_orders(sort_by='x\"')['error']\n",
                                       env.db_bytes, trusted=True)
    assert err is None and results["test_x"]["ok"]
    assert len(ep.call("search_orders", {"customer_id": "c001' OR '1'='1"})) == 0


def test_transitions_follow_the_lifecycle():
    flow = toolgen.transitions(["cancelled", "delivered", "paid", "placed", "refunded", "shipped"])
    assert flow["cancelled"] == ["placed", "paid"]
    assert flow["refunded"] == ["paid", "shipped", "delivered"]
    assert flow["shipped"] == ["placed", "paid"] and "placed" not in flow
    assert toolgen.singular("categories") == "category" and toolgen.param_name("limit") == "limit_value"


def test_rerun_is_byte_identical_and_resumes(offline_run, tmp_path):
    out = os.path.join(offline_run, "02_build_tools")
    first = folder_bytes(out)
    assert "already done" in run_stage("02_build_tools.py", offline_run).stdout
    os.remove(os.path.join(out, "meta.json"))
    os.remove(os.path.join(out, "work", "shop-001.json"))  # as if interrupted after the first environment
    run_stage("02_build_tools.py", offline_run)
    assert folder_bytes(out) == first
    other = make_run(tmp_path)
    run_stage("02_build_tools.py", other, "--workers", "1")
    assert folder_bytes(os.path.join(other, "02_build_tools")) == first


# ---------------------------------------------------------------------------- LLM path (scripted endpoint)

LLM_TOOLS = '''import sqlite3


def get_patient(db: sqlite3.Connection, patient_id: int) -> dict:
    """Get a patient.

    Args:
        patient_id: The patient's id.

    Returns:
        The patient.
    """
    row = db.execute("SELECT * FROM patients WHERE id = ?", (patient_id,)).fetchone()
    if row is None:
        raise ValueError("no such patient")
    return row


def book_appointment(db: sqlite3.Connection, patient_id: int, doctor_code: str, day: str) -> dict:
    """Book an appointment if the doctor is free that day.

    Args:
        patient_id: The patient's id.
        doctor_code: The doctor's code.
        day: The day, YYYY-MM-DD.

    Returns:
        The new appointment.
    """
    get_patient(db, patient_id)
    busy = db.execute("SELECT 1 FROM appointments WHERE doctor_code = ? AND day = ? AND status != 'cancelled'",
                      (doctor_code, day)).fetchone()
    if busy:
        raise ValueError("the doctor is busy that day")
    new = db.new_id("a")
    db.execute("INSERT INTO appointments VALUES (?, ?, ?, ?, 'scheduled', 60.0)", (new, patient_id, doctor_code, day))
    return db.execute("SELECT * FROM appointments WHERE id = ?", (new,)).fetchone()


def count_doctor_days(db: sqlite3.Connection, doctor_code: str) -> dict:
    """Count a doctor's appointments.

    Args:
        doctor_code: The doctor's code.

    Returns:
        {count}.
    """
    return db.execute("SELECT COUNT(*) AS count FROM appointments WHERE doctor_code = ?", (doctor_code,)).fetchone()
'''
LLM_TESTS = '''def test_get_patient_ok(db, tools):
    assert tools.get_patient(patient_id=1)["id"] == 1


def test_get_patient_missing(db, tools):
    assert tools.get_patient(patient_id=999)["error"] == "tool_error"


def test_book_appointment_ok(db, tools):
    row = tools.book_appointment(patient_id=1, doctor_code="D1", day="2030-01-01")
    assert row["status"] == "scheduled"


def test_book_appointment_busy(db, tools):
    tools.book_appointment(patient_id=1, doctor_code="D1", day="2030-01-01")
    assert tools.book_appointment(patient_id=2, doctor_code="D1", day="2030-01-01")["error"] == "tool_error"


def test_count_doctor_days_ok(db, tools):
    assert tools.count_doctor_days(doctor_code="D9")["count"] == 0
'''


def answer(tools, tests):
    return f"Here you go.\n```python\n{tools}```\n\n```python\n{tests}```\n"


def test_llm_repair_loop_fixes_a_bug(tmp_path, scripted_llm):
    buggy = LLM_TOOLS.replace("status != 'cancelled'", "status = 'nothing'")  # never sees the doctor is busy
    spec = json.dumps({"operations": [{"name": "get_patient", "kind": "read", "parameters": []}]})
    server = scripted_llm([spec, answer(buggy, LLM_TESTS), answer(LLM_TOOLS, LLM_TESTS)])
    run = make_run(tmp_path, kinds=("clinic",))
    flags = ["--llm", "openai", "--llm-base-url", server.base_url, "--llm-model", "m", "--api-spec", "--repair-rounds", "2"]
    run_stage("02_build_tools.py", run, *flags)
    row = runfolder.read_jsonl(os.path.join(run, "02_build_tools", "tools.jsonl"), "env_tools")[0]
    assert row["source"] == "llm" and row["repair_attempts"] == 1 and row["fallback"] is None
    assert [(t["name"], t["kind"], t["passed"], t["total"]) for t in row["tools"]] == [
        ("get_patient", "read", 2, 2), ("book_appointment", "write", 2, 2), ("count_doctor_days", "read", 1, 1)]
    assert len(server.requests) == 3
    assert "Implement exactly this API" in server.requests[1]["messages"][1]["content"]
    repair = server.requests[2]["messages"][-1]["content"]
    assert "test_book_appointment_busy" in repair and "assert tools.book_appointment" in repair
    folder = os.path.join(run, "02_build_tools", "envs", "clinic-001")
    assert open(os.path.join(folder, "tools.py")).read() == LLM_TOOLS
    assert [s["function"]["name"] for s in json.load(open(os.path.join(folder, "tools.json")))["tools"]] == \
        ["get_patient", "book_appointment", "count_doctor_days"]


def test_llm_garbage_falls_back_to_schema_tools(tmp_path, scripted_llm):
    server = scripted_llm(["no code here", answer("def broken(:\n", LLM_TESTS)])
    run = make_run(tmp_path, kinds=("clinic",))
    run_stage("02_build_tools.py", run, "--llm", "openai", "--llm-base-url", server.base_url, "--repair-rounds", "1")
    row = runfolder.read_jsonl(os.path.join(run, "02_build_tools", "tools.jsonl"), "env_tools")[0]
    assert row["source"] == "schema" and row["fallback"] == "after 2 attempts: 0 tools pass their tests"
    assert "two fenced python blocks" in server.requests[1]["messages"][-1]["content"]
    assert len(row["tools"]) >= 10


def test_code_blocks_and_feedback():
    stage = importlib.import_module("02_build_tools")
    assert stage.code_blocks(answer("def a(db):\n    pass\n", "def test_a(db, tools):\n    pass\n")) == \
        ("def a(db):\n    pass\n", "def test_a(db, tools):\n    pass\n")
    assert stage.code_blocks("```python\nx = 1\n```") == (None, None)
    scored = {"a": {"passed": 2, "total": 3, "violation": False}, "b": {"passed": 1, "total": 2, "violation": False},
              "c": {"passed": 1, "total": 1, "violation": True}}
    assert stage.passing(scored) == ["a"]


def test_key_named_id_beside_a_singular_id_column_compiles():
    # A table keyed by `id` that also has an `order_id` column once gave create/update two `order_id` parameters.
    import ast
    import sqlite3
    from lib import toolgen
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE orders (id TEXT PRIMARY KEY, order_id TEXT NOT NULL, total REAL NOT NULL)")
    con.executemany("INSERT INTO orders VALUES (?, ?, ?)", [("o1", "A-1", 3.5), ("o2", "A-2", 4.0)])
    source, tests, tools = toolgen.generate(con, "orders")
    ast.parse(source)
    names = {t["name"] for t in tools}
    assert {"get_order", "create_order", "update_order"} <= names
    assert "def update_order(db: sqlite3.Connection, id_value: str" in source or \
           "def update_order(db: sqlite3.Connection, id: str" in source
