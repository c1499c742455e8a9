"""05_tasks and lib/taskgen.py: tool-graph labels, walks into graph tasks, program templates with sandboxed verifiers,
the baseline agents, the LLM paths against the scripted server, and a subprocess run with a byte-identical rerun."""
import argparse
import importlib
import json
import os
import random
import sqlite3

import pytest
from test_build_tools import folder_bytes, run_stage

from lib import envs, rewards, runfolder, taskgen, toolgen
from lib.llm import OpenAIClient

tasks05 = importlib.import_module("05_tasks")


def make_env(folder, env_id="shop-001", seed=0):
    """A 7-table shop whose tools lib.toolgen generates from a hand-made schema and seeded rows."""
    rng = random.Random(seed)
    os.makedirs(folder, exist_ok=True)
    con = sqlite3.connect(os.path.join(folder, "db.sqlite"))
    con.executescript("""
        CREATE TABLE categories (id TEXT PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE products (id TEXT PRIMARY KEY, name TEXT NOT NULL, category_id TEXT REFERENCES categories(id),
                               price REAL NOT NULL, stock INTEGER NOT NULL);
        CREATE TABLE customers (id TEXT PRIMARY KEY, name TEXT NOT NULL, city TEXT);
        CREATE TABLE orders (id TEXT PRIMARY KEY, customer_id TEXT REFERENCES customers(id),
                             product_id TEXT REFERENCES products(id), quantity INTEGER NOT NULL, total REAL NOT NULL,
                             status TEXT NOT NULL, created_at TEXT);
        CREATE TABLE payments (id TEXT PRIMARY KEY, order_id TEXT REFERENCES orders(id), amount REAL, method TEXT);
        CREATE TABLE reviews (id TEXT PRIMARY KEY, product_id TEXT REFERENCES products(id),
                              customer_id TEXT REFERENCES customers(id), rating INTEGER, title TEXT);
        CREATE TABLE tickets (id TEXT PRIMARY KEY, customer_id TEXT REFERENCES customers(id),
                              order_id TEXT REFERENCES orders(id), subject TEXT, priority TEXT, status TEXT);
    """)
    last = ["Lopez", "Meyer", "Okafor", "Park", "Quinn", "Rossi"]
    cats = [("cat1", "Lighting"), ("cat2", "Kitchen"), ("cat3", "Garden")]
    goods = ["Desk Lamp", "Floor Lamp", "Kettle", "Toaster", "Rake", "Hose", "Pan", "Lantern"]
    con.executemany("INSERT INTO categories VALUES (?, ?)", cats)
    con.executemany("INSERT INTO products VALUES (?, ?, ?, ?, ?)", [(f"p{i}", g, cats[i % 3][0], round(rng.uniform(5, 90), 2),
                                                                     rng.randint(1, 30)) for i, g in enumerate(goods)])
    con.executemany("INSERT INTO customers VALUES (?, ?, ?)", [(f"c{i}", f"{f} {rng.choice(last)}", rng.choice(["Lyon", "Oslo"]))
                                                               for i, f in enumerate(["Ana", "Ben", "Chen", "Dara", "Eli", "Fay"])])
    orders = []
    for i in range(30):
        q, p = rng.randint(1, 4), rng.randrange(len(goods))
        orders.append((f"o{i:03d}", f"c{i % 6}", f"p{p}", q, round(q * (5 + 3 * p), 2),
                       ["pending", "paid", "shipped", "delivered", "cancelled"][i % 5], f"2025-0{1 + i % 5}-{10 + i}T10:00:00Z"))
    con.executemany("INSERT INTO orders VALUES (?, ?, ?, ?, ?, ?, ?)", orders)
    con.executemany("INSERT INTO payments VALUES (?, ?, ?, ?)", [(f"pay{i}", o[0], o[4], rng.choice(["card", "cash"]))
                                                                 for i, o in enumerate(orders[:20])])
    con.executemany("INSERT INTO reviews VALUES (?, ?, ?, ?, ?)", [(f"r{i}", f"p{i % 8}", f"c{i % 6}", rng.randint(1, 5),
                                                                    f"Review number {i}") for i in range(16)])
    con.executemany("INSERT INTO tickets VALUES (?, ?, ?, ?, ?, ?)",
                    [(f"t{i}", o[1], o[0], f"Question about order {o[0]}", ["low", "high"][i % 2],
                      ["open", "in_progress", "resolved", "closed"][i % 4]) for i, o in enumerate(orders[::2])])
    con.commit()
    source, _, _ = toolgen.generate(con, "Test shop")
    envs.write_meta_table(con, env_id, "tests/test_tasks.py")
    con.close()
    with open(os.path.join(folder, "tools.py"), "w") as f:
        f.write(source)
    with open(os.path.join(folder, "env.json"), "w") as f:
        json.dump({"id": env_id, "format": envs.FORMAT_VERSION, "theme": {"name": "Shop", "domain": "commerce"},
                   "description": "A small test shop.", "provenance": {"db": "tests/test_tasks.py"}}, f)
    return folder


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    return envs.Env(make_env(str(tmp_path_factory.mktemp("shop"))))


@pytest.fixture(scope="module")
def graph_set(shop):
    return taskgen.graph_tasks(shop, 6, random.Random(0))


@pytest.fixture(scope="module")
def program_set(shop):
    return taskgen.program_tasks(shop, 3, random.Random(0))


def test_tool_graph_labels(shop):
    tables, prof, edges = taskgen.env_model(shop)
    assert (prof["cancel_order"]["op"], prof["cancel_order"]["table"], prof["list_orders_of_customer"]["op"]) == \
        ("transition", "orders", "list")
    assert edges[("get_order", "get_customer")] == "strong"       # get_customer's id only comes from an order's output
    assert edges[("search_customers", "list_orders_of_customer")] == "strong"
    assert edges[("get_customer", "search_orders")] == "weak"     # an optional filter could take it
    assert edges[("get_order", "search_orders")] == "weak"        # status, customer_id ... as filters
    assert ("summarize_products", "get_customer") not in edges    # independent
    assert ("get_category", "get_customer") not in edges


def test_graph_tasks(shop, graph_set):
    calls = [t["difficulty"]["calls"] for t in graph_set]
    assert len(graph_set) == 6 and max(calls) >= 7 and sum(calls) / 6 >= 4
    assert {t["difficulty"]["tier"] for t in graph_set} == {"easy", "medium", "hard"}
    assert any(t["difficulty"]["writes"] for t in graph_set) and any(not t["difficulty"]["writes"] for t in graph_set)
    for t in graph_set:
        assert t["kind"] == "graph" and t["id"].startswith("shop-001/graph/") and t["round"] == 0
        assert not any(n in t["query"] for n in shop.by_name)                  # no tool names
        assert t["query"].endswith(taskgen.format_sentence(t["answer_format"]))
        assert not any(taskgen.leaks(t["query"], v) for v in (t["expected_answer"] or {}).values())
        obs1, db1 = taskgen.replay(shop, t["reference"]["calls"], t["seed"])
        obs2, db2 = taskgen.replay(shop, t["reference"]["calls"], t["seed"])
        assert json.dumps(obs1) == json.dumps(obs2) and rewards.statelib.state_hash(db1) == t["expected_state_hash"]
        text = json.dumps(t["expected_answer"]) if t["answer_format"] else "done"
        assert rewards.score(t, text, db1, shop.initial_db())[0] == 1.0
        assert all(it["type"] in ("answer", "state", "unchanged") for it in t["rubric"])   # machine-checkable offline
    again = taskgen.graph_tasks(shop, 6, random.Random(0))
    assert json.dumps(again, sort_keys=True) == json.dumps(graph_set, sort_keys=True)
    assert json.dumps(taskgen.graph_tasks(shop, 6, random.Random(1))) != json.dumps(graph_set)


def test_targets_and_min_calls(shop):
    got = taskgen.graph_tasks(shop, 2, random.Random(5), targets=["cancel_order"], id_prefix="shop-001/r1-graph", round_=1)
    assert len(got) == 2 and all("cancel_order" in [c["name"] for c in t["reference"]["calls"]] for t in got)
    assert all(t["targets"] == ["cancel_order"] and t["round"] == 1 and "/r1-graph/" in t["id"] for t in got)
    assert all(t["difficulty"]["calls"] >= 6 for t in taskgen.graph_tasks(shop, 2, random.Random(5), min_calls=6))
    assert all("tools.pay_for_order(" in t["reference"]["program"]
               for t in taskgen.program_tasks(shop, 1, random.Random(2), targets=["pay_for_order"]))


def test_program_tasks_and_sandboxed_verifier(shop, program_set):
    assert len(program_set) == 3 and all(t["kind"] == "program" and "def verify(" in t["verifier"] for t in program_set)
    assert [t["difficulty"]["branches"] > 0 for t in program_set] == [True] * 3
    writer = next(t for t in program_set if t["difficulty"]["writes"])
    result, db = taskgen.run_solution(shop, writer["reference"]["program"], writer["seed"])
    right = json.dumps(result["answer"])
    assert result["answer"] == writer["expected_answer"]
    assert rewards.score(writer, right, db, shop.initial_db())[0] == 1.0
    assert rewards.score(writer, right, shop.episode(writer["seed"]).final_db(), shop.initial_db())[0] == 0.0
    db.execute("UPDATE customers SET city = 'Nowhere' WHERE id = 'c1'")                # one row too many changed
    r, parts = rewards.score(writer, right, db, shop.initial_db())
    assert r == 0.0 and parts["unchanged"] == 0.0


def test_baseline_agents(shop, graph_set, program_set):
    model = taskgen.env_model(shop)
    rows = [tasks05.integrity(shop, t, model, seed=i) for i, t in enumerate(graph_set + program_set)]
    assert all(r["reference"] == 1.0 and r["stuffer"] == 0.0 for r in rows)
    assert sum(r["state"] for r in rows) >= 4
    assert all(r["do_nothing"] == 0.0 and r["random_calls"] == 0.0 for r in rows if r["state"])
    s = tasks05.summary({str(i): r for i, r in enumerate(rows)})
    assert s["all"]["reference"] == {"mean": 1.0, "success": 1.0} and s["state"]["stuffer"]["mean"] == 0.0


def client_for(server):
    return OpenAIClient(base_url=server.base_url, model="scripted", retries=0)


def test_llm_query_rewrite(shop, graph_set, scripted_llm):
    t = next(t for t in graph_set if t["expected_answer"])
    leak = json.dumps({"query": f"Use {t['reference']['calls'][0]['name']} please.", "rubric": ["x"]})
    good = json.dumps({"query": "Please look into it for me.", "rubric": ["The agent reports the value asked for."]})
    server = scripted_llm([leak, good])
    model = taskgen.env_model(shop)
    same, why = tasks05.llm_query(client_for(server), shop, t, model)
    assert (same, why) == (t, "leaks")
    new, why = tasks05.llm_query(client_for(server), shop, t, model)
    assert why == "ok" and new["query"] == "Please look into it for me. " + taskgen.format_sentence(t["answer_format"])
    assert new["rubric"][-1] == {"type": "llm", "text": "The agent reports the value asked for."}
    assert rewards.score(new, json.dumps(t["expected_answer"]), taskgen.replay(shop, t["reference"]["calls"], t["seed"])[1],
                         shop.initial_db())[0] == 1.0   # without a judge the llm item is not graded


HEAD = '{"query": "Cancel every pending order of Ana and tell me how many you cancelled. Answer with JSON only: ' \
       '{\\"cancelled\\": integer}.", "answer_format": {"cancelled": "integer"}}\n'
PROGRAM = '''```python
def solve(tools):
    ana = [c for c in tools.search_customers(name_contains="Ana", limit=50) if c["name"].startswith("Ana ")][0]
    n = 0
    for o in tools.list_orders_of_customer(customer_id=ana["id"], limit=50):
        if o["status"] == "pending":
            tools.cancel_order(order_id=o["id"])
            n += 1
    return {"cancelled": n}
```'''
VERIFIER = '''```python
# llm verifier
def verify(answer, final_db, initial_db):
    want = sorted(r["id"] for r in initial_db.execute("SELECT o.id FROM orders o JOIN customers c ON c.id = o.customer_id "
                                                       "WHERE c.name LIKE 'Ana %' AND o.status = 'pending'").fetchall())
    changes = diff(initial_db, final_db)
    got = sorted(c["key"][0] for c in changes.get("orders", {}).get("changed", []) if c["after"]["status"] == "cancelled")
    state = got == want and set(changes) <= {"orders"} and len(changes.get("orders", {}).get("changed", [])) == len(want)
    ok = isinstance(answer, dict) and value_ok(answer.get("cancelled"), len(want), "integer")
    return float(state and ok), {"state": float(state), "answer": float(ok)}
```'''


def test_llm_program_and_verifier_repaired(shop, scripted_llm):
    buggy_program = HEAD + PROGRAM.replace("n = 0", "n = count_start()")
    buggy_verifier = VERIFIER.replace("return float(state and ok)", "return 0.0 * float(state and ok)")
    server = scripted_llm([buggy_program, HEAD + PROGRAM, buggy_verifier, VERIFIER])
    task = tasks05.llm_program(client_for(server), shop, taskgen.env_model(shop), "shop-001/program/000", 11, repairs=1)
    assert task is not None and "# llm verifier" in task["verifier"] and task["expected_answer"] == {"cancelled": 1}
    assert "NameError" in server.requests[1]["messages"][-1]["content"]
    assert "the verifier gives the reference solution 0.0" in server.requests[3]["messages"][-1]["content"]
    row = tasks05.integrity(shop, task, taskgen.env_model(shop), seed=0)
    assert (row["state"], row["reference"], row["do_nothing"], row["stuffer"]) == (True, 1.0, 0.0, 0.0)


def test_solvability_agent(shop, graph_set, scripted_llm):
    t = next(t for t in graph_set if t["difficulty"]["writes"])
    calls = t["reference"]["calls"]
    answer = json.dumps(t["expected_answer"]) if t["answer_format"] else "done"

    def script(request):  # an agent that makes the reference calls one per turn, then answers
        n = sum(m["role"] == "tool" for m in request["messages"])
        return {"tool_calls": [calls[n]]} if n < len(calls) else answer
    server = scripted_llm(script)
    text, db = tasks05.llm_agent(client_for(server), shop, t, run=0, temperature=0.7)
    assert rewards.score(t, text, db, shop.initial_db())[0] == 1.0
    # the history goes out in the OpenAI format: the call carries an id that the tool reply answers
    sent = server.requests[1]["messages"]
    assert sent[2]["tool_calls"][0]["id"] == "call_1" and sent[3]["tool_call_id"] == "call_1"
    assert server.requests[0]["seed"] == 0


def make_run(root):
    """A run folder with a finished 03_filter (one kept shop) and a finished 04_taxonomy."""
    run = os.path.join(str(root), "run")
    make_env(os.path.join(run, "03_filter", "envs", "shop-001"))
    stage = runfolder.Stage(run, "03_filter", argparse.Namespace(run_dir=run, seed=0))
    stage.write_jsonl("kept.jsonl", [{"id": "shop-001", "source": "schema", "tools": [], "tests": 0}], "env_kept")
    stage.finish({})
    tax = runfolder.Stage(run, "04_taxonomy", argparse.Namespace(run_dir=run, seed=0))
    tax.write_jsonl("labels.jsonl", [{"id": "shop-001", "l1": "commerce", "l2": "retail", "l3": "shop",
                                      "path": "commerce/retail/shop"}], "label")
    tax.finish({})
    return run


def test_stage_smoke_and_byte_identical_rerun(tmp_path):
    run = make_run(tmp_path)
    flags = ["--tasks-per-env", "3", "--programs-per-env", "2", "--workers", "1"]
    out = run_stage("05_tasks.py", run, *flags).stdout
    assert "integrity PASS" in out and "reference" in out
    first = folder_bytes(os.path.join(run, "05_tasks"))
    rows = runfolder.read_jsonl(os.path.join(run, "05_tasks", "tasks.jsonl"), "task")
    assert [r["id"] for r in rows] == sorted(r["id"] for r in rows) and {r["kind"] for r in rows} == {"graph", "program"}
    assert all(r["taxonomy"] == {"l1": "commerce", "l2": "retail", "l3": "shop"} for r in rows)
    assert all(r["env_path"] == "03_filter/envs/shop-001" for r in rows)
    meta = json.load(open(os.path.join(run, "05_tasks", "meta.json")))
    assert meta["counts"]["integrity"]["pass"] and meta["counts"]["tasks"] == len(rows) == 5
    assert "already done" in run_stage("05_tasks.py", run, *flags).stdout
    run_stage("05_tasks.py", run, *flags, "--force")
    again = folder_bytes(os.path.join(run, "05_tasks"))
    assert {k: v for k, v in again.items() if not k.startswith("work")} == \
        {k: v for k, v in first.items() if not k.startswith("work")}
