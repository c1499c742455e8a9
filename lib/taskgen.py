"""Task synthesis shared by 05 and 07: graph tasks from random walks, program tasks from templates, references.

graph_tasks(env, n, rng, targets=None, min_calls=None) and program_tasks(env, n, rng, targets=None) return task rows
(the 05_tasks "task" format) whose reference solution was replayed twice with identical observations and scores 1.0.
The tool graph and walks live in lib/taskgraph.py, the program templates in lib/taskprograms.py; every name
they define stays importable from here.
"""
import ast
import json
import re

from lib import rewards, sandbox, toolgen
from lib import state as statelib
from lib.taskgraph import (LIMIT, NAMELIKE, WEIGHTS, WRITE_OPS, format_sentence, graph, human, key_param, ok,
                           parse_tool, produces, profile, quote, random_walk, read_tables, unique_named_rows, Walk,
                           weighted)
from lib.taskprograms import (TEMPLATES, allowed_from, child_links, family, head, is_date, plain_columns, program,
                              tpl_aggregate, tpl_hop_write, tpl_update_set, transitions_of)

# the public names of lib.taskgen before it was split (05, 07, lib/arena.py and the tests import them from here)
__all__ = ["LIMIT", "NAMELIKE", "TEMPLATES", "TIERS", "TRACE", "WEIGHTS", "WRITE_OPS", "allowed_from", "child_links",
           "difficulty", "env_model", "family", "format_sentence", "graph", "graph_tasks", "head", "human", "is_date",
           "key_param", "kind_of", "leaks", "new_stats", "ok", "parse_tool", "plain_columns", "produces", "profile",
           "program", "program_task", "program_tasks", "quote", "random_walk", "read_tables", "reference", "replay",
           "row", "run_solution", "state_rubric", "tpl_aggregate", "tpl_hop_write", "tpl_update_set", "transitions_of",
           "unique_named_rows", "volatile_columns", "Walk", "walk_task", "weighted"]

TIERS = {"easy": (3, 2), "medium": (5, 4), "hard": (8, 7)}  # (target calls, minimum calls)


def leaks(query, value):
    """Does the value (its text, as a whole token) appear in the query?"""
    if value is None or isinstance(value, bool):
        return False
    texts = [rewards.norm_text(value)] if isinstance(value, str) else {str(value), f"{value:g}", f"{value:.2f}"}
    q = rewards.norm_text(query)
    return any(t and re.search(rf"(?<![\w.\-]){re.escape(t)}(?![\w.\-]|\.\d)", q) for t in texts)


# ---------------------------------------------------------------------------- references: replays, volatile columns

def replay(env, calls, seed, lead=()):
    """Run calls in a fresh episode -> (observations, final db); `lead` calls go first, unrecorded (a later clock)."""
    ep = env.episode(seed)
    for c in lead:
        ep.call(c["name"], c["arguments"])
    return [ep.call(c["name"], c["arguments"]) for c in calls], ep.final_db()


def volatile_columns(d1, d2):
    """{table: [columns]} whose values differ between two diffs of the same solution run with other ids and
    clock; None when the diffs differ in shape (the solution is not deterministic enough to grade)."""
    if set(d1) != set(d2):
        return None
    out = {}
    for t in d1:
        a, b = d1[t], d2[t]
        if any(len(a[k]) != len(b[k]) for k in ("added", "removed", "changed")):
            return None
        cols = set()
        for k in ("added", "removed"):
            for c in (a[k][0] if a[k] else {}):
                if sorted(json.dumps(r[c]) for r in a[k]) != sorted(json.dumps(r.get(c)) for r in b[k]):
                    cols.add(c)
        ca = {json.dumps(c["key"]): c["after"] for c in a["changed"]}
        cb = {json.dumps(c["key"]): c["after"] for c in b["changed"]}
        if set(ca) != set(cb):
            return None
        cols |= {c for k in ca for c in ca[k] if ca[k][c] != cb[k].get(c)}
        if cols:
            out[t] = sorted(cols)
    return out


def reference(env, run, seed):
    """Run a solution twice with the task seed and once with other ids and a later clock.

    run(seed, shifted) -> (observations, final db). Returns (ref, identical) where ref is
    {"obs", "db", "items" (required changes, volatile columns masked), "hash" (of db)} or None."""
    (o1, db1), (o2, db2) = run(seed, False), run(seed, False)
    if db1 is None or db2 is None:
        return None, False
    h1 = statelib.state_hash(db1)
    identical = json.dumps(o1, sort_keys=True) == json.dumps(o2, sort_keys=True) and h1 == statelib.state_hash(db2)
    _, db3 = run(seed + 1, True)
    if not identical or db3 is None:
        return None, identical
    init = env.initial_db()
    d1, d3 = statelib.diff(init, db1), statelib.diff(init, db3)
    vol = volatile_columns(d1, d3)
    if vol is None:
        return None, identical
    items = rewards.changes_from_diff(d1, vol)
    oks, other = rewards.match_changes(d3, items)  # the masked reference must accept the shifted run too
    if not all(oks) or other:
        return None, identical
    return {"obs": o1, "db": db1, "items": items, "hash": h1}, identical


def state_rubric(items):
    """Rubric items for required changes (machine-checkable) plus "no other row changes"."""
    out = []
    for it in items:
        shown = {c: v for c, v in it["row"].items() if v != rewards.VOLATILE}
        what = {"changed": f"the {human(it['table'])} row {it.get('key')} ends as {shown}",
                "added": f"a new {human(it['table'])} row {shown} exists", "removed": f"the row {shown} is gone"}
        out.append({"type": "state", **it, "text": what[it["change"]][:400]})
    return out + [{"type": "unchanged", "text": "No other row of any table changes."}]


def difficulty(calls, prof, edges, branches=0, step_edges=None):
    """The difficulty record: tier by calls (hard >= 7, medium >= 4), distinct tools, writes, branches, edge mix."""
    names = [c["name"] for c in calls]
    kinds = step_edges if step_edges is not None else [edges.get(p, "independent") for p in zip(names, names[1:])]
    n = len(calls)
    return {"tier": "hard" if n >= 7 else "medium" if n >= 4 else "easy", "calls": n, "distinct_tools": len(set(names)),
            "writes": sum(prof.get(c, {}).get("kind") == "write" for c in names), "branches": branches,
            "edges": {k: kinds.count(k) for k in WEIGHTS}}


def row(env, kind, task_id, seed, query, fmt, ref_solution, answer, ref_hash, rubric, verifier, diff, targets, round_):
    """One task row in the 05_tasks format (taxonomy filled in by the stage)."""
    return {"id": task_id, "env_id": env.id, "env_path": f"03_filter/envs/{env.id}", "kind": kind, "query": query,
            "answer_format": fmt, "reference": ref_solution, "expected_answer": answer,
            "expected_state_hash": ref_hash, "rubric": rubric, "verifier": verifier,
            "difficulty": diff, "taxonomy": None, "seed": seed, "round": round_, "targets": sorted(targets or []),
            "code_origin": None}  # program tasks: "template" (runs in-process) or "llm" (runs in the sandbox)


def kind_of(v):
    """answer_format kind of a value."""
    return "boolean" if isinstance(v, bool) else "integer" if isinstance(v, int) else \
        "number" if isinstance(v, float) else "list" if isinstance(v, list) else "string"


# ---------------------------------------------------------------------------- graph tasks

def walk_task(env, prof, tables, edges, w, seed, rng, task_id, targets, round_, stats):
    """Replay a walk, write its query, answer and rubric: a task row or None."""
    ref, identical = reference(env, lambda s, shift: replay(env, w.calls, s, w.calls[:1] if shift else ()), seed)
    stats["replays"] += 1
    stats["replays_identical"] += identical
    if ref is None or any(not st["write"] and json.dumps(a, sort_keys=True) != json.dumps(b, sort_keys=True)
                          for st, a, b in zip(w.steps, w.obs, ref["obs"])):
        return None  # the walk's observations must agree with a fresh replay
    text = " ".join(w.sentences)
    fmt, answer, asks = {}, {}, []
    for e in w.entries:
        if e["consumed"] or e["written"]:
            continue  # every read step feeds a later step or the answer, so none is optional
        T = tables[e["table"]]
        skip = {T["key"]} | {fk["column"] for fk in T["fks"]} | e["used"] | toolgen.AUTO_STAMPS
        cols = [c for c in sorted(e["row"]) if c not in skip and isinstance(e["row"][c], (str, int, float))
                and len(str(e["row"][c])) <= 60 and not leaks(text, e["row"][c])]
        if cols:
            c = rng.choice(cols)
            k = re.sub(r"[^a-z0-9]+", "_", f"{e['noun']} {c}".lower()).strip("_")
            fmt[k], answer[k] = kind_of(e["row"][c]), e["row"][c]
            asks.append(f"that {e['noun']}'s {human(c)} ({k})")
    if not fmt and not any(st["write"] for st in w.steps):
        return None
    query = text + (f" Then tell me {', '.join(asks)}." if asks else "") + " " + format_sentence(fmt)
    if any(leaks(query, v) for v in answer.values()) or any(re.search(rf"\b{n}\b", query) for n in prof):
        return None
    rubric = [{"type": "answer", "key": k, "kind": fmt[k], "expected": answer[k], "text": f"{k} is {answer[k]!r}"}
              for k in sorted(fmt)] + state_rubric(ref["items"])
    task = row(env, "graph", task_id, seed, query, fmt or None, {"calls": w.calls}, answer or None, ref["hash"], rubric,
               None, difficulty(w.calls, prof, edges, 0, [st["edge"] for st in w.steps if st["edge"]]), targets, round_)
    reward, _ = rewards.score(task, json.dumps(answer), ref["db"], env.initial_db())
    return task if reward == 1.0 else None


def new_stats():
    """Counters the builders fill: replays run, replays identical, task slots left empty."""
    return {"replays": 0, "replays_identical": 0, "failed": 0}


def env_model(env):
    """(tables, tool profile, tool graph) of an environment."""
    tables = read_tables(env)
    prof = profile(env, tables)
    return tables, prof, graph(prof, tables)


def graph_tasks(env, n, rng, targets=None, min_calls=None, id_prefix=None, round_=0, stats=None, attempts=15,
                model=None):
    """n graph tasks (tiers easy/medium/hard in turn; odd ones and every hard one end with writes).

    targets: tool names the walk prefers and must use; min_calls: raise every tier's minimum length.
    model: env_model(env) when the caller has it already."""
    tables, prof, edges = model or env_model(env)
    stats = stats if stats is not None else new_stats()
    targets = set(targets or ())
    out = []
    for i in range(n):
        tier = ("easy", "medium", "hard")[i % 3]
        writes = 0 if tier != "hard" and i % 2 == 0 and not any(prof.get(t, {}).get("kind") == "write" for t in targets) else 1
        task = None
        for fallback in [t for t in ("hard", "medium", "easy") if TIERS[t][0] <= TIERS[tier][0]]:
            target, lo = TIERS[fallback]
            lo = max(lo, min_calls or 0)
            for _ in range(attempts):
                seed = rng.randrange(2 ** 31)
                w = random_walk(env, prof, tables, edges, rng, seed, max(target, lo + 1),
                                writes + (fallback == "hard" and rng.random() < 0.3), targets)
                if w is None or len(w.calls) < lo or (targets and not targets & {c["name"] for c in w.calls}):
                    continue
                task = walk_task(env, prof, tables, edges, w, seed, rng, f"{id_prefix or env.id + '/graph'}/{i:03d}",
                                 targets, round_, stats)
                if task:
                    break
            if task or min_calls:
                break
        if task:
            out.append(task)
        else:
            stats["failed"] += 1
    return out


# ---------------------------------------------------------------------------- program tasks

TRACE = '''

def _run_solve(tools):
    calls = []

    class _Traced:
        def __getattr__(self, name):
            def call(**kwargs):
                calls.append({"name": name, "arguments": kwargs})
                return getattr(tools, name)(**kwargs)
            return call
    return {"answer": solve(_Traced()), "calls": calls}
'''


def run_solution(env, program, seed, shifted=False, trusted=False):
    """Run solve(tools) on a fresh copy -> ({"answer", "calls"}, final db) or (error dict, None).

    In the sandbox, unless trusted (a program built from this module's own templates)."""
    from datetime import datetime, timedelta
    from lib.envs import CLOCK_START, open_episode_db
    clock = env.meta.get("clock_start", CLOCK_START)
    if shifted:  # an hour later: columns set from db.now() show up as volatile
        t = datetime.fromisoformat(clock.replace("Z", "+00:00")) + timedelta(hours=1)
        clock = t.strftime("%Y-%m-%dT%H:%M:%SZ")
    r = sandbox.run_program(program + TRACE, "_run_solve", db_bytes=env.db_bytes, tools_source=env.source, seed=seed,
                            clock_start=clock, return_db=True, trusted=trusted)
    if "error" in r:
        return r, None
    return r["result"], open_episode_db(r["db"], seed, clock)


def program_task(env, model, spec, seed, task_id, targets=(), round_=0, stats=None, verifier=None, template=False):
    """Run a solution program (twice, and once shifted), bake or check its verifier: (task row, None) or (None, problem).

    template: the program came from this module's templates (and the verifier is the template one):
    code_origin "template", run in-process (the program only when the env's tools are trusted too);
    otherwise code_origin "llm" and everything runs in the sandbox."""
    trusted = template and not env.sandbox
    tables, prof, edges = model
    stats = stats if stats is not None else new_stats()
    ref, identical = reference(env, lambda s, shift: run_solution(env, spec["program"], s, shift, trusted), seed)
    stats["replays"] += 1
    stats["replays_identical"] += identical
    if ref is None:
        r, _ = run_solution(env, spec["program"], seed, trusted=trusted)
        return None, f"the program failed: {r.get('error')}: {r.get('message')}" if "error" in r else \
            "the program is not deterministic (two runs differ)"
    answer, fmt = ref["obs"]["answer"], spec["answer_format"]
    if not isinstance(answer, dict) or sorted(answer) != sorted(fmt) \
            or any(kind_of(answer[k]) != v and not (v == "number" and kind_of(answer[k]) == "integer") for k, v in fmt.items()):
        return None, f"solve() returned {json.dumps(answer)[:300]}, which does not match the answer format {fmt}"
    if not spec.get("check", lambda a: True)(answer) or any(leaks(spec["query"], v) for v in answer.values()):
        return None, "the answer is trivial or appears in the query"
    try:
        branches = sum(isinstance(n, (ast.If, ast.IfExp)) for n in ast.walk(ast.parse(spec["program"])))
    except SyntaxError:
        branches = 0
    task = row(env, "program", task_id, seed, spec["query"], fmt, {"program": spec["program"]}, answer, ref["hash"], None,
               verifier or rewards.template_verifier(answer, fmt, ref["items"]),
               difficulty(ref["obs"]["calls"], prof, edges, branches), targets, round_)
    task["code_origin"] = "template" if template and verifier is None else "llm"
    reward, parts = rewards.score(task, json.dumps(answer), ref["db"], env.initial_db())
    if reward != 1.0:
        return None, f"the verifier gives the reference solution {reward} with parts {json.dumps(parts)[:400]}"
    if ref["items"] and (rewards.score(task, json.dumps(answer), env.initial_db(), env.initial_db())[0] or 0) >= rewards.SUCCESS:
        return None, "the verifier accepts an unchanged database although the task requires changes"
    if (rewards.score(task, "{}", ref["db"], env.initial_db())[0] or 0) >= rewards.SUCCESS:
        return None, "the verifier accepts an empty answer {}"
    return task, None


def program_tasks(env, n, rng, targets=None, id_prefix=None, round_=0, stats=None, attempts=4, model=None):
    """n program tasks from the templates (filter then aggregate, conditional updates over a set, hops then a write);
    model: env_model(env) when the caller has it already."""
    model = model or env_model(env)
    tables, prof, edges = model
    stats = stats if stats is not None else new_stats()
    ctx = {"env": env, "tables": tables, "prof": prof, "walk": Walk(env, prof, tables, edges, rng, 0, ())}
    out = []
    for i in range(n):
        task = None
        for tpl in TEMPLATES[i % 3:] + TEMPLATES[:i % 3]:
            for _ in range(attempts):
                spec = tpl(ctx, rng)
                if spec is None:
                    break
                if targets and not any(f"tools.{t}(" in spec["program"] for t in targets):
                    continue
                task, _ = program_task(env, model, spec, rng.randrange(2 ** 31),
                                       f"{id_prefix or env.id + '/program'}/{i:03d}", targets, round_, stats,
                                       template=True)
                if task:
                    break
            if task:
                break
        if task:
            out.append(task)
        else:
            stats["failed"] += 1
    return out
