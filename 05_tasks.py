"""05_tasks: verifiable tasks per kept environment: tool-graph random walks (graph tasks) and solution programs with
verifiers (program tasks), each kept only when its reference scores full reward and two replays agree.

Reads  <run>/03_filter/kept.jsonl (kind env_kept: id, source) and 03_filter/envs/<id>/; <run>/04_taxonomy/labels.jsonl
       (kind label: id, l1, l2, l3) when 04 has finished, else taxonomy is null.
Writes <run>/05_tasks/tasks.jsonl (kind task: id "<env>/<graph|program>/<nnn>", env_id, env_path, kind, query,
       answer_format, reference, expected_answer, expected_state_hash, rubric, verifier, difficulty, taxonomy, seed,
       round, targets; see lib/taskgen.py and lib/rewards.py), graphs.jsonl (kind tool_graph: id env, edges
       [[from, to, strong|weak]]), integrity.json (reference, do-nothing, random-call and answer-stuffing agents'
       rewards per task and overall). Rewards: lib.rewards.score; 06 must seed episodes with task["seed"].
Departures: offline (the default) queries and rubrics come from templates and programs from three templates; an LLM
  (--llm) writes queries/rubrics and solution programs + verifiers, debugged in the sandbox; the tool graph's labels
  come from names and keys only (no LLM refinement); the solvability filter (--solvability N) is off by default.
  tiny: python 05_tasks.py --run-dir runs/tiny
  full: python 05_tasks.py --run-dir runs/full --llm openai --workers 16 --tasks-per-env 12 --solvability 5
"""
import argparse
import json
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import rewards, runfolder, taskgen  # noqa: E402
from lib.chat import extract_json, to_openai  # noqa: E402
from lib.envs import Env  # noqa: E402
from lib.llm import LLMError, add_llm_args, llm_from_args  # noqa: E402

AGENTS = ("reference", "do_nothing", "random_calls", "stuffer")
QUERY_PROMPT = """You write the user request for a task in a tool-using environment. You get the environment, a
template request, the tool calls of a reference solution with their results, and the expected answer. Write a
natural request a real user would send: it must not name tools, database tables or columns in snake_case, must not
reveal any expected answer value, must keep every detail needed to find the right records, and must end with the
answer-format sentence given. Also write 2-4 rubric items a grader can check. Reply with JSON only:
{"query": "...", "rubric": ["...", "..."]}"""
PROGRAM_PROMPT = """You design a task for a tool-using agent in the environment below. Write (1) a user request that
needs several tool calls with a loop, a condition or an aggregation (and, if you like, writes), naming records by
their names or other values (not tools, tables or internal ids) and ending with the sentence
'Answer with JSON only: {...}' listing the answer keys and kinds (number, integer, string, boolean, list); (2) the
solution: a Python function solve(tools) that calls only the tools below as tools.<name>(**kwargs) (a failed call
returns {"error", "message"}) and returns the answer dict. Reply with a JSON object
{"query": "...", "answer_format": {"key": "kind"}} followed by the program in a ```python block."""
VERIFIER_PROMPT = """Write the verifier of this task: a Python function verify(answer, final_db, initial_db) returning
(score in [0, 1], parts dict of named floats). answer is the agent's parsed JSON answer (or None); final_db and
initial_db are sqlite3 connections whose rows are dicts. These helpers are already defined: diff(before, after) ->
{table: {"added", "removed", "changed": [{"key", "before", "after"}]}}, value_ok(got, want, kind), norm_text(s).
It must give the reference solution's answer and final state score 1, a wrong answer or a missing or extra change
score 0. Reply with the function in a ```python block."""
AGENT_PROMPT = ("You complete the user's request by calling tools. Call a tool with <tool_call>{\"name\": ..., "
                "\"arguments\": {...}}</tool_call>. When done, reply without a tool call, in the answer format asked.")


# ---------------------------------------------------------------------------- baseline agents (for the integrity figures)

def scalars(x):
    """Every scalar value inside a tool result."""
    if isinstance(x, dict):
        return [v for y in x.values() for v in scalars(y)]
    if isinstance(x, list):
        return [v for y in x for v in scalars(y)]
    return [x] if x is not None else []


def trusted(env, task):
    """A template program on schema-generated tools runs in-process; anything from an LLM in the sandbox."""
    return task.get("code_origin") == "template" and not env.sandbox


def reference_agent(env, task, rng, model):
    """The reference solution, seeded like any episode: (final text, final db)."""
    if task["kind"] == "graph":
        _, db = taskgen.replay(env, task["reference"]["calls"], task["seed"])
    else:
        _, db = taskgen.run_solution(env, task["reference"]["program"], task["seed"], trusted=trusted(env, task))
    return json.dumps(task["expected_answer"]) if task["answer_format"] else "done", db


def do_nothing_agent(env, task, rng, model):
    """No calls, no answer."""
    return "I could not complete this request.", env.episode(task["seed"]).final_db()


def random_args(tool, tables, rng):
    """Schema-valid arguments for a tool's required parameters, drawn from real column values."""
    args = {}
    for p in tool["required"]:
        t, col = tool["refs"].get(p, (None, None))
        values = [r[col] for r in tables[t]["rows"] if r[col] is not None] if t else []
        args[p] = rng.choice(values) if values else "x"
    return args


def random_calls_agent(env, task, rng, model):
    """As many random valid calls as the reference makes; answers with random values it saw."""
    tables, prof, _ = model
    ep, seen = env.episode(task["seed"]), []
    for _ in range(task["difficulty"]["calls"]):
        name = rng.choice(sorted(prof))
        seen += scalars(ep.call(name, random_args(prof[name], tables, rng)))
    answer = {k: rng.choice(seen) if seen else 0 for k in sorted(task["answer_format"] or {})}
    return json.dumps(answer, default=str), ep.final_db()


def stuffer_agent(env, task, rng, model):
    """Makes the reference's read calls, then answers every key with everything it saw, the right value included."""
    prof = model[1]
    calls = task["reference"]["calls"] if task["kind"] == "graph" else \
        taskgen.run_solution(env, task["reference"]["program"], task["seed"], trusted=trusted(env, task))[0].get("calls", [])
    ep, seen = env.episode(task["seed"]), list((task["expected_answer"] or {}).values())
    for c in calls:
        if prof.get(c["name"], {}).get("kind") == "read":
            seen += scalars(ep.call(c["name"], c["arguments"]))
    stuffed = sorted({json.dumps(v) for v in seen})[:200]
    return json.dumps({k: [json.loads(v) for v in stuffed] for k in sorted(task["answer_format"] or {})}), ep.final_db()


def integrity(env, task, model, seed):
    """{agent: reward} for the four agents, and whether the task requires a state change."""
    out = {"state": bool(task["difficulty"]["writes"]) and task["expected_state_hash"] != env.initial_hash()}
    for name, agent in zip(AGENTS, (reference_agent, do_nothing_agent, random_calls_agent, stuffer_agent)):
        text, db = agent(env, task, random.Random(seed), model)
        out[name] = rewards.score(task, text, db, env.initial_db())[0] if db is not None else 0.0
    return out


# ---------------------------------------------------------------------------- LLM paths

def code_block(text):
    """The first ```python block of a reply (or the whole reply when there is none)."""
    m = re.search(r"```(?:python)?\s*\n(.*?)```", text or "", flags=re.DOTALL)
    return m.group(1) if m else (text or "")


def llm_query(client, env, task, model):
    """Let the LLM rewrite a graph task's query and add rubric items; the template stays when its text is unsafe."""
    obs, _ = taskgen.replay(env, task["reference"]["calls"], task["seed"])
    steps = [{"call": c, "result": json.dumps(o, default=str)[:600]} for c, o in zip(task["reference"]["calls"], obs)]
    ask = {"environment": env.meta.get("description", ""), "template_request": task["query"], "steps": steps,
           "expected_answer": task["expected_answer"], "answer_format_sentence": taskgen.format_sentence(task["answer_format"])}
    try:
        reply = client.chat([{"role": "system", "content": QUERY_PROMPT}, {"role": "user", "content": json.dumps(ask)}])
    except LLMError:
        return task, "llm_error"
    got = extract_json(reply["content"])
    if not isinstance(got, dict) or not isinstance(got.get("query"), str):
        return task, "unparseable"
    query = got["query"].strip()
    if taskgen.format_sentence(task["answer_format"]) not in query:
        query += " " + taskgen.format_sentence(task["answer_format"])
    names = set(model[1]) | {t for t in model[0] if "_" in t}
    if any(re.search(rf"\b{re.escape(n)}\b", query) for n in names) or \
            any(taskgen.leaks(query, v) for v in (task["expected_answer"] or {}).values()):
        return task, "leaks"
    items = [{"type": "llm", "text": str(t)[:300]} for t in got.get("rubric", []) if isinstance(t, str)][:4]
    return {**task, "query": query, "rubric": task["rubric"] + items}, "ok"


def tool_sheet(env, model, rows_per_table=3):
    """What the program writer sees: tool signatures and a few rows per table."""
    tools = [{"name": s["function"]["name"], "description": s["function"].get("description", ""),
              "parameters": sorted(s["function"]["parameters"].get("properties", {}))} for s in env.schemas]
    sample = {t: T["rows"][:rows_per_table] for t, T in sorted(model[0].items())}
    return json.dumps({"environment": env.meta.get("description", ""), "tools": tools, "rows": sample}, default=str)[:30000]


def llm_program(client, env, model, task_id, seed, repairs):
    """An LLM-written task: program debugged in the sandbox, then a verifier debugged there too; a task row or None."""
    msgs = [{"role": "system", "content": PROGRAM_PROMPT}, {"role": "user", "content": tool_sheet(env, model)}]
    spec, task = None, None
    for _ in range(repairs + 1):  # the program: run it; its failure goes back to the model
        reply = client.chat(msgs)["content"]
        head = extract_json(reply) or {}
        spec = {"query": str(head.get("query", "")), "answer_format": head.get("answer_format") or {},
                "program": code_block(reply)}
        task, problem = taskgen.program_task(env, model, spec, seed, task_id)
        if task:
            break
        msgs += [{"role": "assistant", "content": reply}, {"role": "user", "content": f"Problem: {problem}. Fix it."}]
    if task is None:
        return None
    ref = {"answer": task["expected_answer"], "program": spec["program"], "query": spec["query"]}
    msgs = [{"role": "system", "content": VERIFIER_PROMPT}, {"role": "user", "content": json.dumps(ref)}]
    for _ in range(repairs + 1):  # the verifier: the reference must score 1, an unchanged state or empty answer not
        reply = client.chat(msgs)["content"]
        verifier = rewards.verifier_prelude() + "\n\n" + code_block(reply)
        got, problem = taskgen.program_task(env, model, spec, seed, task_id, verifier=verifier)
        if got:
            return got
        msgs += [{"role": "assistant", "content": reply}, {"role": "user", "content": f"Problem: {problem}. Fix it."}]
    return None


def llm_agent(client, env, task, run, temperature, max_turns=16):
    """One agent episode in the shared conversation format: (final text, final db)."""
    ep = env.episode(task["seed"])
    msgs = [{"role": "system", "content": AGENT_PROMPT}, {"role": "user", "content": task["query"]}]
    for _ in range(max_turns):
        r = client.chat(to_openai(msgs), tools=env.schemas, temperature=temperature, seed=run)
        text = r["content"] if "<tool_call>" in r["content"] else \
            r["content"] + "".join(f"<tool_call>{json.dumps(c)}</tool_call>" for c in r["tool_calls"])
        msgs.append({"role": "assistant", "content": text})
        if not r["tool_calls"]:
            return r["content"], ep.final_db()
        msgs += [{"role": "tool", "content": json.dumps(ep.call(c["name"], c["arguments"]))} for c in r["tool_calls"]]
    return "", ep.final_db()


# ---------------------------------------------------------------------------- one environment

def env_tasks(kept, args, client):
    """Everything 05 makes for one environment: tasks, its graph, integrity rows and counters (a resumable part)."""
    env = Env(os.path.join(args.run_dir, "03_filter", "envs", kept["id"]), sandbox=kept.get("source") != "schema")
    rng = random.Random(runfolder.item_seed(args.seed, "05_tasks", env.id))
    model = taskgen.env_model(env)
    stats = {**taskgen.new_stats(), "llm_queries": {}, "llm_programs": 0, "unsolvable": 0}
    tasks = taskgen.graph_tasks(env, args.tasks_per_env, rng, stats=stats, model=model)
    programs = []
    if client is not None:
        for i in range(args.programs_per_env):
            t = llm_program(client, env, model, f"{env.id}/program/{i:03d}", rng.randrange(2 ** 31), args.repairs)
            programs += [t] if t else []
        stats["llm_programs"] = len(programs)
        for i, t in enumerate(tasks):
            tasks[i], why = llm_query(client, env, t, model)
            stats["llm_queries"][why] = stats["llm_queries"].get(why, 0) + 1
    if len(programs) < args.programs_per_env:  # templates fill what the LLM did not deliver
        extra = taskgen.program_tasks(env, args.programs_per_env, rng, stats=stats, model=model)
        taken = {t["id"] for t in programs}
        programs += [t for t in extra if t["id"] not in taken][:args.programs_per_env - len(programs)]
    tasks += programs
    if client is not None and args.solvability:  # Agent-World: keep a task that >= k of n agent runs solve
        solved = lambda t: sum((rewards.score(t, *llm_agent(client, env, t, run, args.solvability_temperature),
                                              env.initial_db())[0] or 0) >= rewards.SUCCESS for run in range(args.solvability))
        keep = [t for t in tasks if solved(t) >= args.solvability_min]
        stats["unsolvable"] = len(tasks) - len(keep)
        tasks = keep
    checks = {t["id"]: integrity(env, t, model, runfolder.item_seed(args.seed, "integrity", t["id"])) for t in tasks}
    edges = sorted([a, b, k] for (a, b), k in model[2].items())
    return {"tasks": tasks, "integrity": checks, "stats": stats, "graph": {"id": env.id, "edges": edges}}


def summary(checks):
    """Mean reward and success rate of each agent over all tasks and over those that require a state change."""
    out = {}
    for scope, rows in (("all", list(checks.values())), ("state", [c for c in checks.values() if c["state"]])):
        out[scope] = {"tasks": len(rows), **{a: {"mean": round(sum(r[a] or 0 for r in rows) / max(1, len(rows)), 4),
                                                  "success": round(sum((r[a] or 0) >= rewards.SUCCESS for r in rows)
                                                                   / max(1, len(rows)), 4)} for a in AGENTS}}
    return out


# ---------------------------------------------------------------------------- main

if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    # I/O
    ap.add_argument("--run-dir", required=True, help="run folder holding 03_filter/ (and 04_taxonomy/ if finished)")
    ap.add_argument("--limit", type=int, default=0, help="first N kept environments by id (0 = all)")
    ap.add_argument("--force", action="store_true", help="redo a finished stage")
    # Tasks
    ap.add_argument("--tasks-per-env", type=int, default=6, help="graph tasks per environment (tiers easy/medium/hard in turn)")
    ap.add_argument("--programs-per-env", type=int, default=3, help="program tasks per environment")
    ap.add_argument("--repairs", type=int, default=2, help="LLM repair rounds for a program and for its verifier")
    ap.add_argument("--solvability", type=int, default=0, help="agent runs per task with the --llm model (0 = no filter)")
    ap.add_argument("--solvability-min", type=int, default=2, help="runs that must succeed to keep a task")
    ap.add_argument("--solvability-temperature", type=float, default=0.7, help="sampling temperature of those runs")
    add_llm_args(ap)
    # Runtime
    ap.add_argument("--seed", type=int, default=0, help="run seed (per-environment RNGs derive from it)")
    ap.add_argument("--workers", type=int, default=2, help="environments processed in parallel")
    args = ap.parse_args()
    stage = runfolder.begin(args, "05_tasks")
    client = llm_from_args(args, stage.path("llm_cache"))
    print(f"05_tasks: {args.tasks_per_env} graph + {args.programs_per_env} program tasks per env, "
          f"llm {args.llm}, solvability {args.solvability or 'off'}")

    kept = runfolder.read_jsonl(stage.input(os.path.join(args.run_dir, "03_filter", "kept.jsonl")), "env_kept")
    kept = sorted(kept, key=lambda r: r["id"])[:args.limit or None]
    stage.input(os.path.join(args.run_dir, "03_filter", "envs"))
    labels_path = os.path.join(args.run_dir, "04_taxonomy", "labels.jsonl")
    labels = {}
    if os.path.exists(os.path.join(args.run_dir, "04_taxonomy", "meta.json")):
        labels = {r["id"]: {k: r[k] for k in ("l1", "l2", "l3")} for r in runfolder.read_jsonl(stage.input(labels_path), "label")}

    # ---- tasks per environment (a finished one is a part on disk: a rerun skips it)
    todo = [k for k in kept if not stage.has_part(k["id"])]
    for k, part in zip(todo, runfolder.parallel(lambda k: env_tasks(k, args, client), todo, args.workers, "envs",
                                                processes=client is None,
                                                tally=lambda p: "with tasks" if p["tasks"] else "no tasks")):
        stage.save_part(k["id"], part)

    # ---- outputs, integrity table, summary
    parts = [stage.load_part(k["id"]) for k in kept]
    tasks = [{**t, "taxonomy": labels.get(t["env_id"])} for p in parts for t in p["tasks"]]
    checks = {i: c for p in parts for i, c in sorted(p["integrity"].items())}
    stats = {k: sum(p["stats"][k] for p in parts) for k in ("replays", "replays_identical", "failed", "unsolvable")}
    figures = summary(checks)
    ok = figures["all"]["reference"]["success"] == 1.0 and stats["replays"] == stats["replays_identical"] and \
        all(figures["state"][a]["mean"] <= 0.02 for a in AGENTS[1:])
    stage.write_jsonl("tasks.jsonl", tasks, "task")
    stage.write_jsonl("graphs.jsonl", [p["graph"] for p in parts], "tool_graph")
    integ = {"figures": figures, "replays": {"runs": stats["replays"], "identical": stats["replays_identical"]},
             "pass": ok, "per_task": checks}
    runfolder.atomic_write(stage.path("integrity.json"), json.dumps(integ, indent=1, sort_keys=True))
    by = lambda f: {v: sum(f(t) == v for t in tasks) for v in sorted({f(t) for t in tasks})}
    graph_calls = [t["difficulty"]["calls"] for t in tasks if t["kind"] == "graph"]
    counts = {"envs": len(kept), "envs_with_tasks": len({t["env_id"] for t in tasks}), "tasks": len(tasks),
              "kind": by(lambda t: t["kind"]), "tier": by(lambda t: t["difficulty"]["tier"]),
              "graph_mean_calls": round(sum(graph_calls) / max(1, len(graph_calls)), 2),
              "state_tasks": figures["state"]["tasks"], "failed_slots": stats["failed"], "unsolvable": stats["unsolvable"],
              "integrity": {"pass": ok, "replays_identical": f"{stats['replays_identical']}/{stats['replays']}",
                            **{a: {s: figures[s][a] for s in ("state", "all")} for a in AGENTS}}}
    stage.finish(counts, llm=client.usage if client else None)
    print(f"05_tasks: {len(tasks)} tasks for {counts['envs_with_tasks']}/{len(kept)} environments; kinds {counts['kind']}; "
          f"tiers {counts['tier']}; graph tasks average {counts['graph_mean_calls']} calls")
    print(f"integrity ({figures['state']['tasks']} of {len(tasks)} tasks require a state change; target: reference 100%, "
          f"others <= 2% on state tasks)")
    print(f"  {'agent':<14}{'mean (state)':>14}{'success (state)':>17}{'mean (all)':>12}{'success (all)':>15}")
    for a in AGENTS:
        s, al = figures["state"][a], figures["all"][a]
        print(f"  {a:<14}{s['mean']:>14.3f}{s['success']:>16.1%}{al['mean']:>12.3f}{al['success']:>14.1%}")
    print(f"  two replays identical: {stats['replays_identical']}/{stats['replays']}; integrity {'PASS' if ok else 'FAIL'}")
    for t in tasks[:1] + [t for t in tasks if t["kind"] == "program"][:1]:
        print(json.dumps({k: v for k, v in t.items() if k not in ("verifier", "rubric")}, sort_keys=True)[:700])
