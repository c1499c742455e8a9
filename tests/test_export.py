"""lib/export.py: flat task rows and SFT transcripts that datasets reads with fixed features, reference replay,
rollout conversion, and importing a tau-bench-like nested JSON database as an environment."""
import argparse
import json
import os
import sqlite3
import subprocess
import sys

import pytest

from lib import example_env, export, runfolder, tables
from lib.envs import Env, read_db_bytes
from lib.state import state_hash

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(ROOT, "tests", "fixtures_export", "retail_db.json")
ENV_PATH = "03_filter/envs/example-bookshop"


def task(n, kind="graph", calls=None, answer=None, **kw):
    """A task row in 05's contract format."""
    row = {"id": f"example-bookshop/{kind}/{n:03d}", "env_id": "example-bookshop", "env_path": ENV_PATH,
           "kind": kind, "query": f"query {n}", "answer_format": {"total": "number"} if answer is not None else None,
           "reference": {"calls": calls} if kind == "graph" else {"program": "def solve(tools):\n    return 1\n"},
           "expected_answer": answer, "expected_state_hash": "",
           "rubric": [{"check": "x"}] if kind == "graph" else None,
           "verifier": None if kind == "graph" else "def verify(a, f, i):\n    return 1.0, {}\n",
           "difficulty": {"tier": "easy", "calls": len(calls or []), "distinct_tools": 1, "writes": 0, "branches": 0,
                          "edges": {"strong": 1, "weak": 0, "independent": 0}},
           "taxonomy": None, "seed": 7, "round": 0, "targets": []}
    row.update(kw)
    return row


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    """A run with the bookshop under 03_filter, a finished 05_tasks, and 06 rollouts."""
    run = str(tmp_path_factory.mktemp("export_run"))
    env = Env(example_env.build(os.path.join(run, ENV_PATH)))
    calls = [{"name": "get_book", "arguments": {"book_id": "b0001"}},
             {"name": "place_order", "arguments": {"customer_id": "c001", "book_id": "b0001", "quantity": 2}}]
    ep = env.episode(7)
    for c in calls:
        ep.call(c["name"], c["arguments"])
    good = state_hash(ep.final_db())  # the state 05 would record after the reference
    price = env.episode().call("get_book", {"book_id": "b0001"})["price"]
    tasks = [task(1, calls=calls, answer={"total": round(2 * price, 2)}, expected_state_hash=good,
                  taxonomy={"l1": "commerce", "l2": "retail", "l3": "books"}, targets=["place_order"]),
             task(2, calls=calls, answer=None, expected_state_hash="0" * 64),   # replay disagrees: skipped
             task(3, calls=[calls[0]], answer={"total": price}, expected_state_hash=state_hash(env.initial_db())),
             task(4, kind="program", answer={"total": 1})]
    args = argparse.Namespace(run_dir=run, seed=0, force=False)
    stage = runfolder.begin(args, "05_tasks")
    stage.write_jsonl("tasks.jsonl", tasks, "task")
    stage.finish({"tasks": len(tasks)})
    hermes = [{"role": "system", "content": "sys"}, {"role": "user", "content": "query 3"},
              {"role": "assistant", "content": 'Let me look.\n<tool_call>{"name": "get_book", "arguments": '
                                               '{"book_id": "b0001"}}</tool_call>'},
              {"role": "tool", "content": json.dumps({"id": "b0001"})},
              {"role": "assistant", "content": '{"total": 1}'}]
    rollouts = [{"id": "r1", "task_id": tasks[2]["id"], "messages": hermes, "reward": 1.0, "success": True},
                {"id": "r2", "task_id": tasks[2]["id"], "messages": hermes[:2], "reward": 0.0, "success": False}]
    runfolder.write_jsonl(os.path.join(run, "06_grpo", "rollouts.jsonl"), rollouts)
    return run, price


def test_export_tasks_and_sft(run_dir, tmp_path):
    run, price = run_dir
    counts = export.export_run(run, str(tmp_path))
    assert counts == {"tasks": 4, "sft": 3, "sft_reference": 2, "sft_rollout": 1,
                      "skipped": {"no_call_list": 1,
                                  "reference replay reaches another state than expected_state_hash": 1}}
    flat = runfolder.read_jsonl(str(tmp_path / "tasks.jsonl"))
    assert [r["id"] for r in flat] == sorted(r["id"] for r in flat)
    assert all(isinstance(v, (str, int)) and not isinstance(v, bool) for r in flat for v in r.values())
    first = flat[0]
    assert json.loads(first["expected_answer"]) == {"total": round(2 * price, 2)}
    assert json.loads(first["reference"])["calls"][1]["arguments"]["quantity"] == 2
    assert (first["taxonomy_l3"], first["edges_strong"], first["targets"]) == ("books", 1, '["place_order"]')
    assert flat[1]["expected_answer"] == "null" and flat[1]["taxonomy_l1"] == ""
    assert flat[3]["verifier"].startswith("def verify") and flat[3]["rubric"] == "null"

    sft = {r["id"]: r for r in runfolder.read_jsonl(str(tmp_path / "sft.jsonl"))}
    assert sorted(sft) == ["reference/example-bookshop/graph/001", "reference/example-bookshop/graph/003",
                           "rollout/r1"]
    msgs = sft["reference/example-bookshop/graph/001"]["messages"]
    assert [m["role"] for m in msgs] == ["system", "user", "assistant", "tool", "assistant", "tool", "assistant"]
    call = msgs[4]["tool_calls"][0]
    assert call == {"id": "call_2", "type": "function", "function": {
        "name": "place_order", "arguments": '{"book_id": "b0001", "customer_id": "c001", "quantity": 2}'}}
    assert msgs[5]["tool_call_id"] == "call_2"
    order = json.loads(msgs[5]["content"])
    assert (order["total"], order["status"], order["created_at"]) == (round(2 * price, 2), "placed",
                                                                      "2025-06-02T09:00:02Z")
    assert json.loads(msgs[3]["content"])["price"] == price
    assert msgs[-1] == {"role": "assistant", "content": json.dumps({"total": round(2 * price, 2)})}
    roll = sft["rollout/r1"]["messages"]
    assert roll[2] == {"role": "assistant", "content": "Let me look.", "tool_calls": [{
        "id": "call_1", "type": "function", "function": {"name": "get_book", "arguments": '{"book_id": "b0001"}'}}]}
    assert roll[3]["tool_call_id"] == "call_1"
    assert [s["function"]["name"] for s in json.loads(sft["rollout/r1"]["tools"])][:2] == ["get_book", "search_books"]

    # determinism, and the command line writes the same bytes
    out2 = tmp_path / "cli"
    subprocess.run([sys.executable, "-m", "lib.export", "--run-dir", run, "--out", str(out2)], cwd=ROOT,
                   check=True, capture_output=True)
    for name in ("tasks.jsonl", "sft.jsonl"):
        assert (tmp_path / name).read_bytes() == (out2 / name).read_bytes()


def test_datasets_reads_fixed_features(run_dir, tmp_path):
    datasets = pytest.importorskip("datasets")
    export.export_run(run_dir[0], str(tmp_path))
    tasks = datasets.load_dataset("json", data_files=str(tmp_path / "tasks.jsonl"), split="train")
    ints = {"calls", "distinct_tools", "writes", "branches", "edges_strong", "edges_weak", "edges_independent",
            "seed", "round"}
    columns = json.loads((tmp_path / "tasks.jsonl").read_text().splitlines()[0])
    assert {k: v.dtype for k, v in tasks.features.items()} == {k: "int64" if k in ints else "string" for k in columns}
    assert len(columns) == 26
    assert len(tasks) == 4
    sft = datasets.load_dataset("json", data_files=str(tmp_path / "sft.jsonl"), split="train")
    assert set(sft.features) == {"id", "task_id", "env_id", "source", "reward", "messages", "tools"}
    row = sft[0]
    assert row["messages"][2]["tool_calls"][0]["function"]["name"] == "get_book"
    assert row["messages"][3]["tool_call_id"] == "call_1"


# ---------------------------------------------------------------------------- import-db

EXPECTED = {  # table: (rows, primary key, foreign keys), worked out by hand from the fixture
    "order_items": (5, ["id"], ["item_id->variants.id", "order_id->orders.order_id",
                                "product_id->products.product_id"]),
    "orders": (3, ["order_id"], ["user_id->users.user_id"]),
    "payment_history": (4, ["id"], ["order_id->orders.order_id", "payment_method_id->payment_methods.id"]),
    "payment_methods": (5, ["id"], ["user_id->users.user_id"]),
    "products": (2, ["product_id"], []),
    "users": (3, ["user_id"], []),
    "variants": (5, ["id"], ["product_id->products.product_id"]),
}


def test_import_nested_json_database(tmp_path):
    out = tmp_path / "retail"
    subprocess.run([sys.executable, "-m", "lib.export", "import-db", FIXTURE, "--out", str(out), "--id", "retail"],
                   cwd=ROOT, check=True, capture_output=True)
    read_db_bytes(str(out / "db.sqlite"), "retail")  # the environment format's _meta check
    con = sqlite3.connect(str(out / "db.sqlite"))
    con.execute("PRAGMA foreign_keys = ON")
    assert con.execute("PRAGMA foreign_key_check").fetchall() == []
    got = {t["name"]: (t["rows"], t["primary_key"], t["foreign_keys"]) for t in tables.describe_db(con)}
    assert got == EXPECTED
    # the user with ONE payment method still gets a payment_methods row, not columns named after the card
    assert con.execute("SELECT user_id, source, brand, last_four FROM payment_methods WHERE id = "
                       "'credit_card_3095586'").fetchone() == ("yara_muller_8652", "credit_card", "visa", "7285")
    assert not [c for c in got["users"] if "credit_card" in str(c)]
    assert con.execute("SELECT COUNT(*), SUM(price) FROM order_items WHERE order_id = '#W2611340'").fetchone() == \
        (2, 269.16 + 53.27)
    assert con.execute("SELECT available, options_color FROM variants WHERE id = '3799046073'").fetchone() == \
        (0, "black")
    meta = json.loads((out / "env.json").read_text())
    assert (meta["id"], meta["format"], meta["counts"]["rows"], meta["counts"]["foreign_keys"]) == ("retail", 1, 27, 8)


def test_import_into_a_run_feeds_02_build_tools(tmp_path):
    run = str(tmp_path / "run")
    subprocess.run([sys.executable, "-m", "lib.export", "import-db", FIXTURE, "--run-dir", run], cwd=ROOT,
                   check=True, capture_output=True)
    assert [r["id"] for r in runfolder.read_jsonl(os.path.join(run, "01_mine", "envs.jsonl"), "env")] == ["retail_db"]
    subprocess.run([sys.executable, "02_build_tools.py", "--run-dir", run, "--workers", "1"], cwd=ROOT, check=True,
                   capture_output=True)
    row = runfolder.read_jsonl(os.path.join(run, "02_build_tools", "tools.jsonl"), "env_tools")[0]
    assert row["load_error"] is None and len(row["tools"]) >= 20
    assert sum(t["passed"] for t in row["tools"]) == sum(t["total"] for t in row["tools"]) > 0
