"""07_diagnose and lib/arena.py, lib/report.py: Wilson intervals on hand values, each error kind from a hand-made
trajectory, stratified and reproducible arena sampling, the LLM diagnosis (valid accepted, invalid falls back), and a
subprocess run with a scripted policy that fails only on chosen envs/tools: those envs rank first, the guidelines
name the tools and error kinds, the next round's tasks concentrate on them, the report shows it. Plus a subprocess
smoke run with a tiny random checkpoint (the HF rollout path)."""
import argparse
import importlib
import json
import os
import random
import sqlite3
import subprocess
import sys
from collections import Counter
from html.parser import HTMLParser

import pytest
from test_tasks import make_env

from lib import arena, envs, report, rewards, runfolder, taskgen, toolgen
from lib.chat import parse_tool_calls
from lib.llm import OpenAIClient
from lib.rollout import run_calls

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
d07 = importlib.import_module("07_diagnose")
CATS = {"shop-a": "Commerce", "shop-b": "Commerce", "shop-c": "Retail", "shop-d": "Retail"}
ARENA = dict(seed=0, tasks_per_env=3, programs_per_env=1)  # the flags the subprocess run gets


# ---------------------------------------------------------------------------- fixtures

def make_run(run):
    """A run folder: four generated shops (two categories), kept.jsonl, labels, two training tasks per shop."""
    kept, labels, tasks = [], [], []
    for i, (e, cat) in enumerate(sorted(CATS.items())):
        folder = make_env(os.path.join(run, "03_filter", "envs", e), env_id=e, seed=i)
        con = sqlite3.connect(os.path.join(folder, "db.sqlite"))
        kinds = [{"name": g["name"], "kind": g["kind"]} for g in toolgen.generate(con, "Test shop")[2]]
        con.close()
        kept.append({"id": e, "source": "schema", "tools": kinds})
        labels.append({"id": e, "l1": cat, "l2": cat, "l3": e, "path": f"{cat}/{cat}/{e}"})
        tasks += [{**t, "taxonomy": None} for t in taskgen.graph_tasks(envs.Env(folder), 2, random.Random(i))]
    for name, rows, kind, file in (("03_filter", kept, "env_kept", "kept.jsonl"), ("04_taxonomy", labels, "label", "labels.jsonl"),
                                   ("05_tasks", tasks, "task", "tasks.jsonl")):
        stage = runfolder.Stage(run, name, argparse.Namespace())
        os.makedirs(stage.dir, exist_ok=True)
        stage.write_jsonl(file, rows, kind)
        stage.finish({})
    return tasks


def reference_calls(env, task):
    """The calls of a task's reference solution (a program's traced calls)."""
    if task["kind"] == "graph":
        return task["reference"]["calls"]
    return taskgen.run_solution(env, task["reference"]["program"], task["seed"])[0]["calls"]


class ScriptedPolicy:
    """Message-level policy: all reference calls in one turn, then the expected answer; on chosen (env, tool) it
    fails: "invalid" sends the tool wrong-typed arguments and stops there (it cannot go on without the result),
    "skip_write" leaves the call out and answers as if it had made it."""

    def __init__(self, tasks, envs_, faults):
        self.by_query = {t["query"]: (t, reference_calls(envs_[t["env_id"]], t)) for t in tasks}
        self.faults = faults  # {(env_id, tool): "invalid" | "skip_write"}

    def __call__(self, messages, tools):
        task, calls = self.by_query[next(m["content"] for m in messages if m["role"] == "user")]
        if any(m["role"] == "tool" for m in messages):
            if any('"invalid_arguments"' in m["content"] for m in messages if m["role"] == "tool"):
                return "I could not complete this request."
            return json.dumps(task["expected_answer"]) if task["answer_format"] else "Done."
        out = []
        for c in calls:
            fault = self.faults.get((task["env_id"], c["name"]))
            if fault == "skip_write":
                continue
            args = {k: [v] for k, v in c["arguments"].items()} if fault == "invalid" else c["arguments"]
            out.append(f"<tool_call>{json.dumps({'name': c['name'], 'arguments': args})}</tool_call>")
            if fault == "invalid":
                break
        return "".join(out) or (json.dumps(task["expected_answer"]) if task["answer_format"] else "Done.")


def html_parse(text):
    """(tags counter, svg <title> texts, all text) of an HTML document."""
    class P(HTMLParser):
        def __init__(self):
            super().__init__()
            self.tags, self.titles, self.text, self.stack = Counter(), [], [], []

        def handle_starttag(self, tag, attrs):
            self.tags[tag] += 1
            self.stack.append(tag)

        def handle_endtag(self, tag):
            while self.stack and self.stack.pop() != tag:
                pass

        def handle_data(self, data):
            self.text.append(data)
            if self.stack and self.stack[-1] == "title" and "svg" in self.stack:
                self.titles.append(data)
    p = P()
    p.feed(text)
    return p.tags, p.titles, " ".join(p.text)


# ---------------------------------------------------------------------------- units

def test_wilson_hand_values():
    lo, hi = arena.wilson(0, 10)  # z^2/(n+z^2) = 3.8416/13.8416
    assert lo == 0 and hi == pytest.approx(0.27753, abs=1e-4)
    lo, hi = arena.wilson(5, 10)
    assert (lo, hi) == (pytest.approx(0.23659, abs=1e-4), pytest.approx(0.76341, abs=1e-4))
    assert arena.wilson(10, 10)[1] == 1.0 and arena.wilson(0, 0) == (0.0, 1.0)


def test_stratified_sampling_is_stratified_and_reproducible():
    cats = {f"e{i:02d}": ("A", "B", "C")[i % 3] for i in range(30)}
    a = arena.stratified(cats, 3, seed=0, round_=1)
    assert a == arena.stratified(cats, 3, seed=0, round_=1)
    assert sorted(a) == ["A", "B", "C"] and all(len(v) == 3 and all(cats[e] == c for e in v) for c, v in a.items())
    assert a != arena.stratified(cats, 3, seed=1, round_=1) or a != arena.stratified(cats, 3, seed=0, round_=2)
    b = arena.stratified(cats, 1, seed=0, round_=1, always=["e00"])  # the previous round's weak envs stay in
    assert "e00" in b["A"] and len(b["B"]) == 1


def test_classify_each_error_kind(tmp_path):
    env = envs.Env(make_env(str(tmp_path / "shop")))
    task = taskgen.graph_tasks(env, 2, random.Random(0))[1]  # the odd task ends with a write
    writes = arena.write_tools({}, env)
    ref = task["reference"]["calls"]
    call = lambda c, args=None: f"<tool_call>{json.dumps({'name': c['name'], 'arguments': args or c['arguments']})}</tool_call>"
    answer = json.dumps(task["expected_answer"]) if task["answer_format"] else "Done."

    def kinds(turns, **traj):
        msgs, ep = [], env.episode(task["seed"])
        for t in turns:
            msgs.append({"role": "assistant", "content": t})
            calls, errors = parse_tool_calls(t)
            msgs += [{"role": "tool", "content": r} for r in run_calls(ep, calls, errors, None, 2000)[0]]
        final = traj.get("final_text", answer)
        reward, parts = rewards.score(task, final, ep.final_db(), env.initial_db())
        t = {"stop": "answer", "final_text": final, "messages": msgs, **traj}
        return arena.classify(task, t, reward, parts, env.initial_db(), ep.final_db(), writes)

    all_calls = "".join(call(c) for c in ref)
    assert kinds([all_calls]) == (None, {})  # the reference: success
    assert ref[0]["name"] not in writes and ref[-1]["name"] in writes
    bad = {k: [v] for k, v in ref[0]["arguments"].items()}
    skip = "".join(call(c) for c in ref if c["name"] not in writes)  # every read, no write: the episode fails
    primary, found = kinds(["<tool_call>{oops</tool_call>" + call(ref[0], bad) + skip])
    assert primary == "malformed_call" and found["malformed_call"] == [""]
    assert "invalid_arguments" not in found  # ref[0] succeeded later in the same turn: recovered
    primary, found = kinds([call(ref[0], bad) + "".join(call(c) for c in ref[1:] if c["name"] not in writes)])
    assert primary == "invalid_arguments" and found["invalid_arguments"] == [ref[0]["name"]]
    assert "missing_state_change" in found  # every error is counted, the primary by precedence
    assert kinds([call(ref[0], bad), all_calls]) == (None, {})  # a mistake the agent recovered from, then success
    primary, _ = kinds([call({"name": "no_such_tool", "arguments": {}}) + skip])
    assert primary == "unknown_tool"
    assert kinds([skip])[0] == "missing_state_change" and set(kinds([skip])[1]["missing_state_change"]) <= writes
    assert kinds([all_calls], stop="max_turns")[0] == "ran_out_of_turns"
    assert kinds([], final_text="I cannot do this.")[0] == "gave_up"
    if task["answer_format"]:
        wrong = json.dumps({k: "zzz" for k in task["answer_format"]})
        assert kinds([all_calls], final_text=wrong)[0] == "wrong_answer"
    assert list(arena.ERRORS).index("malformed_call") == 0
    # thin state: a read of a missing row and an empty search
    msgs = [{"role": "assistant", "content": call({"name": "get_product", "arguments": {"product_id": "nope"}})
             + call({"name": "search_products", "arguments": {"name_contains": "nothing like this"}})}]
    ep = env.episode(0)
    msgs += [{"role": "tool", "content": r} for r in run_calls(ep, *parse_tool_calls(msgs[0]["content"]), None, 2000)[0]]
    assert arena.thin_evidence(msgs, writes) == (2, 2)


def test_llm_diagnosis_valid_accepted_invalid_falls_back(scripted_llm):
    env_scores = {"a": arena.rate([{"success": 0, "reward": 0}] * 4), "b": arena.rate([{"success": 1, "reward": 1}] * 4)}
    rows = [{"env_id": "a", "success": False, "primary": "invalid_arguments", "errors": {"invalid_arguments": ["get_x"]},
             "thin": [0, 1]}] * 4 + [{"env_id": "b", "success": True, "thin": [0, 1]}] * 4
    errs, tools = arena.env_errors(rows), {"a": {"get_x", "set_x"}, "b": {"get_y"}}
    good = {"ranking": [{"env_id": "a", "reason": "bad args", "failing_tools": ["set_x"], "error_kinds": ["wrong_answer"],
                         "skills": ["typed ids"], "complexify": True}]}
    bad = {"ranking": [{"env_id": "zzz", "reason": "", "failing_tools": ["nope"], "error_kinds": ["x"], "skills": [],
                        "complexify": "yes"}]}
    server = scripted_llm([json.dumps(good), "not json at all", json.dumps(bad)])
    client = OpenAIClient(base_url=server.base_url, model="m", retries=0)
    got, problems = arena.llm_diagnosis(client, {}, env_scores, errs, tools, 2, 0.25)
    assert problems == [] and got[0]["env_id"] == "a" and got[0]["failing_tools"] == ["set_x"] and got[0]["complexify"]
    assert got[0]["source"] == "llm" and got[0]["min_calls"] == 4
    assert "You diagnose" in server.requests[0]["messages"][0]["content"]
    for _ in range(2):  # unparseable, then schema-invalid: problems name why
        got, problems = arena.llm_diagnosis(client, {}, env_scores, errs, tools, 2, 0.25)
        assert got == [] and problems
    assert any("zzz" in p for p in problems)
    order, weak = arena.statistical(env_scores, errs, tools, 2, 0.25)  # the fallback
    assert order == ["a", "b"] and [g["env_id"] for g in weak] == ["a"] and weak[0]["failing_tools"] == ["get_x"]
    assert weak[0]["error_kinds"] == ["invalid_arguments"] and weak[0]["min_calls"] is None


# ---------------------------------------------------------------------------- subprocess runs

@pytest.fixture(scope="module")
def diagnosed(tmp_path_factory):
    """07 run by subprocess on the fixture with the scripted policy behind the scripted LLM server."""
    from scripted_llm_server import ScriptedLLMServer
    run = str(tmp_path_factory.mktemp("run"))
    train = make_run(run)
    kept = {e: {"source": "schema"} for e in CATS}
    env_of = {e: d07.open_env(run, e, kept) for e in CATS}
    seen = {x for t in train for x in arena.task_key(t)}
    ns = argparse.Namespace(**ARENA)
    tasks = {e: d07.arena_tasks(env_of[e], 1, ns, seen, {}) for e in CATS}  # the arena 07 will draw (same seeds)
    pick = lambda e, ok: Counter(c["name"] for t in tasks[e] for c in reference_calls(env_of[e], t) if ok(c["name"])).most_common(1)[0][0]
    writes = arena.write_tools({}, env_of["shop-c"])
    faults = {("shop-a", pick("shop-a", lambda n: n not in writes)): "invalid",
              ("shop-c", pick("shop-c", lambda n: n in writes)): "skip_write"}
    policy = ScriptedPolicy([t for ts in tasks.values() for t in ts], env_of, faults)
    def answer(req):  # the agent's turns carry tools; the diagnosis request gets an unusable reply (-> fallback)
        return {"content": policy(req["messages"], req["tools"]) if req.get("tools") else "no JSON here, sorry"}
    with ScriptedLLMServer(answer) as server:
        proc = subprocess.run([sys.executable, os.path.join(ROOT, "07_diagnose.py"), "--run-dir", run, "--llm", "openai",
                               "--llm-base-url", server.base_url, "--llm-model", "scripted",
                               "--per-category", "2", "--samples", "2", "--tasks-per-env", str(ARENA["tasks_per_env"]),
                               "--programs-per-env", str(ARENA["programs_per_env"]), "--weak", "2", "--thin", "0",
                               "--targeted", "4", "--next-run-dir", os.path.join(run, "round2")],
                              capture_output=True, text=True, cwd=ROOT, timeout=180)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return run, faults, tasks, proc.stdout


def test_diagnosis_ranks_the_faulty_envs_first(diagnosed):
    run, faults, tasks, out = diagnosed
    diag = json.load(open(os.path.join(run, "07_diagnose", "diagnosis.json")))
    assert diag["method"] == "statistical" and "ranking" in diag["fallback_reason"]  # the LLM's reply was rejected
    weak = {g["env_id"]: g for g in diag["weak"]}
    assert set(weak) == {"shop-a", "shop-c"} and {r["env_id"] for r in diag["ranking"][:2]} == {"shop-a", "shop-c"}
    assert all(r["rate"] == 1.0 for r in diag["ranking"][2:])  # the scripted policy is perfect elsewhere
    (_, tool_a), = [k for k in faults if k[0] == "shop-a"]
    (_, tool_c), = [k for k in faults if k[0] == "shop-c"]
    assert weak["shop-a"]["error_kinds"][0] == "invalid_arguments" and weak["shop-a"]["failing_tools"][0] == tool_a
    assert weak["shop-c"]["error_kinds"][0] == "missing_state_change" and tool_c in weak["shop-c"]["failing_tools"]
    errors = json.load(open(os.path.join(run, "07_diagnose", "errors.json")))
    assert set(k for k, v in errors["primary"].items() if v) == {"invalid_arguments", "missing_state_change"}
    rows = runfolder.read_jsonl(os.path.join(run, "07_diagnose", "eval.jsonl"), "eval")
    assert len(rows) == 2 * sum(len(t) for t in tasks.values()) and {r["category"] for r in rows} == {"Commerce", "Retail"}
    assert [t["id"] for t in runfolder.read_jsonl(os.path.join(run, "07_diagnose", "arena.jsonl"), "task")] == \
        sorted(t["id"] for ts in tasks.values() for t in ts)  # the arena is the one drawn here: reproducible
    assert all("/arena-r1/" in r["task_id"] for r in rows)


def test_next_round_concentrates_on_weak_envs(diagnosed):
    run, faults, _, _ = diagnosed
    nxt = os.path.join(run, "round2")
    tasks = runfolder.read_jsonl(os.path.join(nxt, "05_tasks", "tasks.jsonl"), "task")
    kept = runfolder.read_jsonl(os.path.join(nxt, "03_filter", "kept.jsonl"), "env_kept")
    runfolder.read_jsonl(os.path.join(nxt, "04_taxonomy", "labels.jsonl"), "label")
    new = [t for t in tasks if t["round"] == 2]
    assert new and {t["env_id"] for t in new} == {"shop-a", "shop-c"}
    assert sum(t["round"] == 2 for t in tasks) >= len(tasks) / 2  # replay share 0.5 at most
    for (e, tool) in faults:  # targeted walks go through the failing tool
        assert all(t["targets"] and t["targets"][0] == tool or tool in t["targets"] for t in new if t["env_id"] == e)
        assert sum(tool in arena.reference_tools(t) for t in new if t["env_id"] == e) >= 2
    arena_keys = {x for t in runfolder.read_jsonl(os.path.join(run, "07_diagnose", "arena.jsonl"), "task")
                  for x in arena.task_key(t)}
    assert not any({*arena.task_key(t)} & arena_keys for t in tasks)  # never train on the arena
    meta = json.load(open(os.path.join(nxt, "05_tasks", "meta.json")))
    assert sorted(meta["diagnosis"]["complexified"]) == ["shop-a", "shop-c"]  # --thin 0: every weak env grows
    by_id = {r["id"]: r for r in kept}
    for t in tasks:  # every task resolves inside NEXT, and its reference still scores 1 there
        env = envs.Env(os.path.join(nxt, t["env_path"]))
        assert d07.still_solved(env, t), t["id"]
    grown = envs.Env(os.path.join(nxt, "03_filter", "envs", "shop-a"))
    orig = envs.Env(os.path.join(run, "03_filter", "envs", "shop-a"))
    assert len(grown.by_name) > len(orig.by_name) and len(by_id["shop-a"]["tools"]) == len(grown.by_name)


def test_report_renders_figures(diagnosed):
    run, faults, _, out = diagnosed
    text = open(os.path.join(run, "report.html")).read()
    tags, titles, body = html_parse(text)
    assert tags["svg"] == 3 and "<script" not in text and "http://" not in text.replace("http://www.w3.org/2000/svg", "")
    assert "Round 1: success per category" in titles and "Round 1: primary error of failed rollouts" in titles
    assert "Round 1: success per environment (weak in red)" in titles
    assert "shop-a" in body and "shop-c" in body and "invalid_arguments" in body and "missing_state_change" in body
    assert tags["details"] >= 2 and "report:" in out
    assert report.rounds(run) == [(1, run), (2, os.path.join(run, "round2"))]
    os.makedirs(os.path.join(run, "06_grpo"), exist_ok=True)  # training curves appear once 06 has logged steps
    with open(os.path.join(run, "06_grpo", "metrics.jsonl"), "w") as f:
        f.writelines(json.dumps({"step": i, "reward": i / 4, "success": i / 8}) + "\n" for i in range(1, 5))
    subprocess.run([sys.executable, os.path.join(ROOT, "07_diagnose.py"), "--report", run], check=True, cwd=ROOT,
                   capture_output=True, timeout=60)
    tags, titles, _ = html_parse(open(os.path.join(run, "report.html")).read())
    assert tags["svg"] == 5 and tags["polyline"] == 2 and "Reward per GRPO step" in titles


def test_tiny_checkpoint_smoke(tmp_path):
    """The HF path: a random tiny model rolled out in 06's prompt format, diagnosis only."""
    run = str(tmp_path)
    make_run(run)
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "07_diagnose.py"), "--run-dir", run, "--model", "tiny",
                           "--per-category", "1", "--tasks-per-env", "1", "--programs-per-env", "0", "--samples", "2",
                           "--max-turns", "2", "--max-new-tokens", "16", "--weak", "1"],
                          capture_output=True, text=True, cwd=ROOT, timeout=180)
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = runfolder.read_jsonl(os.path.join(run, "07_diagnose", "eval.jsonl"), "eval")
    assert len(rows) == 2 * 2 and all(r["primary"] in arena.ERRORS for r in rows if not r["success"])
    assert all(r["messages"] and r["messages"][0]["role"] == "assistant" for r in rows)
    assert os.path.exists(os.path.join(run, "report.html"))
