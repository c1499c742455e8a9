"""lib/rewards.py on hand-computed cases: answer checks, state-change matching, the reward rule, sandboxed verifiers
and the LLM judge, on the example bookshop (lib/example_env)."""
import json

import pytest

from lib import example_env, rewards
from lib.envs import Env
from lib.llm import OpenAIClient
from lib.state import diff

V = rewards.VOLATILE


@pytest.mark.parametrize("got, want, kind, ok", [
    (12.5, 12.5, "number", True), (12.504, 12.5, "number", True), (12.51, 12.5, "number", False),
    ("12.5", 12.5, "number", True), ([12.5, 3.0], 12.5, "number", False), ({"v": 12.5}, 12.5, "number", False),
    (True, 1, "number", False), (10012.0, 10013.0, "number", True), (10011.0, 10013.0, "number", False),
    (3, 3, "integer", True), (3.0, 3, "integer", True), (4, 3, "integer", False), ("3", 3, "integer", True),
    (True, True, "boolean", True), (1, True, "boolean", False), ("true", True, "boolean", True),
    ("  Ana   LOPEZ ", "Ana Lopez", "string", True), ("Ana Lopez, Ben Park", "Ana Lopez", "string", False),
    (["Ana Lopez", "x"], "Ana Lopez", "string", False), (None, "Ana", "string", False),
    (["b", "a"], ["a", "b"], "list", True), (["a", "b", "c"], ["a", "b"], "list", False), (["a", "a"], ["a", "b"], "list", False),
])
def test_value_ok(got, want, kind, ok):
    assert rewards.value_ok(got, want, kind) is ok


def test_answer_parts_combine_and_match_changes():
    fmt, want = {"total": "number", "name": "string"}, {"total": 10.0, "name": "Ana"}
    assert rewards.answer_parts({"total": 10, "name": "ana"}, want, fmt) == {"answer:name": 1.0, "answer:total": 1.0}
    assert rewards.answer_parts([10, "Ana"], want, fmt) == {"answer:name": 0.0, "answer:total": 0.0}
    assert rewards.combine({"answer:a": 1.0, "answer:b": 0.0, "state:0": 1.0, "unchanged": 1.0}) == 0.5
    assert rewards.combine({"answer:a": 1.0, "state:0": 1.0, "unchanged": 0.0}) == 0.0
    assert rewards.combine({"state:0": 1.0, "unchanged": 1.0}) == 1.0
    d = {"t": {"added": [{"id": "x1", "n": 1}, {"id": "x2", "n": 2}], "removed": [],
               "changed": [{"key": [5], "before": {"id": 5, "s": "a"}, "after": {"id": 5, "s": "b"}}]}}
    items = [{"table": "t", "change": "changed", "key": [5], "row": {"id": 5, "s": "b"}},
             {"table": "t", "change": "added", "row": {"id": V, "n": 2}}]
    assert rewards.match_changes(d, items) == ([True, True], 1)  # the second added row is an extra change
    assert rewards.match_changes(d, items[:1] + [{"table": "t", "change": "added", "row": {"id": V, "n": 3}}]) == ([True, False], 2)
    assert rewards.match_changes({}, items) == ([False, False], 0)


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    return Env(example_env.build(str(tmp_path_factory.mktemp("bookshop"))))


def read_task(env):
    price = env.initial_db().execute("SELECT price FROM books WHERE id = 'b0003'").fetchone()["price"]
    return {"id": "shop/graph/000", "kind": "graph", "query": "What does book b0003 cost?", "answer_format": {"price": "number"},
            "expected_answer": {"price": price}, "verifier": None, "seed": 3,
            "rubric": [{"type": "answer", "key": "price", "kind": "number", "expected": price, "text": "price"},
                       {"type": "unchanged", "text": "nothing changes"}]}, price


def test_read_task_rewards(shop):
    task, price = read_task(shop)
    fresh = lambda: shop.episode(3).final_db()
    assert rewards.score(task, json.dumps({"price": price}), fresh(), shop.initial_db()) == \
        (1.0, {"answer:price": 1.0, "unchanged": 1.0, "format": 1.0})
    assert rewards.score(task, f'It costs: {{"price": {price + 0.004}}}', fresh(), shop.initial_db())[0] == 1.0
    assert rewards.score(task, json.dumps({"price": price + 0.01}), fresh(), shop.initial_db())[0] == 0.0
    stuffed = json.dumps({"price": [1.0, price, 99.0]})
    assert rewards.score(task, stuffed, fresh(), shop.initial_db())[0] == 0.0
    assert rewards.score(task, f"The price is {price}.", fresh(), shop.initial_db()) == \
        (0.0, {"answer:price": 0.0, "unchanged": 1.0, "format": 0.0})
    ep = shop.episode(3)  # the right answer with a side effect: the state gate fails
    ep.call("place_order", {"customer_id": "c001", "book_id": "b0001"})
    r, parts = rewards.score(task, json.dumps({"price": price}), ep.final_db(), shop.initial_db())
    assert (r, parts["unchanged"], parts["answer:price"]) == (0.0, 0.0, 1.0)


def write_task(env, verifier=False):
    """Order b0002 for c001 and report the total and the book: 3 required changes, the order row's id/clock volatile."""
    ep = env.episode(7)
    order = ep.call("place_order", {"customer_id": "c001", "book_id": "b0002"})
    items = rewards.changes_from_diff(diff(env.initial_db(), ep.final_db()), {"orders": ["created_at", "id"]})
    assert [(i["table"], i["change"]) for i in items] == [("books", "changed"), ("customers", "changed"), ("orders", "added")]
    assert items[2]["row"]["id"] == V and items[2]["row"]["total"] == order["total"]
    fmt, answer = {"total": "number", "book": "string"}, {"total": order["total"], "book": "b0002"}
    task = {"id": "shop/graph/001", "kind": "program" if verifier else "graph", "query": "...", "answer_format": fmt,
            "expected_answer": answer, "seed": 7, "rubric": None if verifier else
            [{"type": "answer", "key": k, "kind": fmt[k], "expected": answer[k], "text": k} for k in fmt]
            + [{"type": "state", **it, "text": "change"} for it in items] + [{"type": "unchanged", "text": "no other"}],
            "verifier": rewards.template_verifier(answer, fmt, items) if verifier else None}
    return task, answer


def episode(env, seed, calls):
    ep = env.episode(seed)
    for name, args in calls:
        ep.call(name, args)
    return ep.final_db()


ORDER = ("place_order", {"customer_id": "c001", "book_id": "b0002"})
CASES = [  # (agent calls, episode seed, answer given?, expected reward)
    ([ORDER], 7, "right", 1.0),
    ([("get_book", {"book_id": "b0002"}), ("search_books", {}), ORDER], 99, "right", 1.0),  # later clock, other ids
    ([], 7, "right", 0.0),
    ([ORDER], 7, "half", 0.5),
    ([ORDER], 7, "stuffed", 0.0),
    ([("place_order", {"customer_id": "c001", "book_id": "b0002", "quantity": 2})], 7, "right", 0.0),
    ([ORDER, ("place_order", {"customer_id": "c002", "book_id": "b0005"})], 7, "right", 0.0),
]


def answer_text(kind, answer):
    return json.dumps({"right": answer, "half": {**answer, "book": "b0003"},
                       "stuffed": {k: [v, "b0003", 1.0] for k, v in answer.items()}}[kind])


@pytest.mark.parametrize("calls, seed, kind, want", CASES)
def test_write_task_rubric(shop, calls, seed, kind, want):
    task, answer = write_task(shop)
    r, parts = rewards.score(task, answer_text(kind, answer), episode(shop, seed, calls), shop.initial_db())
    assert r == want
    if not calls:
        assert parts == {"answer:book": 1.0, "answer:total": 1.0, "state:0": 0.0, "state:1": 0.0, "state:2": 0.0,
                         "unchanged": 1.0, "format": 1.0}


def test_template_verifier_in_sandbox_matches_rubric(shop):
    task, answer = write_task(shop, verifier=True)
    for calls, seed, kind, want in CASES[:4] + CASES[6:]:
        assert rewards.score(task, answer_text(kind, answer), episode(shop, seed, calls), shop.initial_db())[0] == want
    broken = {**task, "verifier": "def verify(answer, final_db, initial_db):\n    return 1 / 0\n"}
    r, parts = rewards.score(broken, answer_text("right", answer), episode(shop, 7, [ORDER]), shop.initial_db())
    assert r is None and "ZeroDivisionError" in parts["error"]


def test_judge_rubric_items_and_sql_mode(shop, scripted_llm):
    task, price = read_task(shop)
    task = {**task, "rubric": task["rubric"] + [{"type": "llm", "text": "The answer is polite."}]}
    right = json.dumps({"price": price})
    # without a judge the llm item is not graded; with one it joins the answer parts
    assert rewards.score(task, right, shop.episode(3).final_db(), shop.initial_db())[0] == 1.0
    server = scripted_llm(['{"items": [{"id": 0, "pass": false}]}', "no json here", '{"items": [{"id": 0, "pass": true}]}'])
    judge = rewards.Judge(OpenAIClient(base_url=server.base_url, model="judge", retries=0))
    r, parts = rewards.score(task, right, shop.episode(3).final_db(), shop.initial_db(), judge=judge)
    assert (r, parts["judge:0"]) == (0.5, 0.0)
    assert rewards.score(task, right, shop.episode(3).final_db(), shop.initial_db(), judge=judge)[0] == 0.5
    assert len(server.requests) == 1  # cached by task, final-state hash and answer
    assert server.requests[0]["temperature"] == 0.0 and server.requests[0]["messages"][0]["content"] == rewards.JUDGE_PROMPT
    assert rewards.score(task, right + " ", shop.episode(3).final_db(), shop.initial_db(), judge=judge)[0] is None
    r, parts = rewards.score(task, right, shop.episode(3).final_db(), shop.initial_db(), judge=judge, mode="sql")
    assert (r, parts) == (1.0, {"judge:0": 1.0})
    evidence = json.loads(server.requests[2]["messages"][1]["content"])
    assert evidence["agent_changes"] == {} and evidence["reference_answer"] == {"price": price}
    with pytest.raises(ValueError):
        rewards.score(task, right, shop.episode(3).final_db(), shop.initial_db(), mode="sql")
