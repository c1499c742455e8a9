"""03_filter: keep the tools that compile, pass their unit tests and survive an execution audit; keep the
environments that still have enough of them.

Reads  <run>/02_build_tools/tools.jsonl (kind env_tools: id, source, tools [{name, kind, tables}]) and
       <run>/02_build_tools/envs/<id>/ (env.json, db.sqlite, tools.py, tool_tests.py).
Writes <run>/03_filter/envs/<id>/ for kept environments: tools.py reduced to the kept tools (a rejected tool that a
       kept one calls stays as a private _rejected_<name> helper), tool_tests.py with only their passing tests,
       tools.json with only their schemas; kept.jsonl (kind env_kept: id, source, tools [{name, kind}], tests),
       rejected.jsonl (kind env_rejected: id, rule, detail), tool_stats.jsonl (kind tool_stat: id "<env>/<tool>",
       kept, reason, detail, passed, total, kind). Prints counts per rule and the tools-per-env distribution.
Rules, in order. Tool: syntax_error (its code does not compile alone), sandbox_violation (static check of untrusted
code, or an escape attempt seen at run time), bad_schema, no_tests, tests_failed (accuracy <= 0.5), then the audit:
read_mutates_state, writes_foreign_table (outside the tables 02 recorded for it), read_no_data (on real ids),
write_not_visible (a get_<row> read disagrees), accepts_invalid_arguments (missing ids), crash. Environment:
import_failed, no_valid_tool, no_valid_test (Agent-World's three), too_few_tools, too_few_write_tools.
Departures: the audit's arguments are synthesized from column names and real rows, so a tool it cannot call
correctly is kept unaudited (audit "unverified") rather than rejected. LLM-written code runs only in lib.sandbox.
  tiny: python 03_filter.py --run-dir runs/tiny --limit 2
  full: python 03_filter.py --run-dir runs/full --workers 8 --min-tools 8
"""
import argparse
import json
import os
import re
import shutil
import sqlite3
import statistics
import sys


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import envs, runfolder, schemas, state, toolgen, tooltests  # noqa: E402

CRASHES = ("timeout", "crashed", "cpu_limit", "memory", "recursion", "output_too_large")
ESCAPES = ("forbidden", "import_blocked")
BOGUS = {"string": "__no_such_value__", "integer": -987654, "number": -987654.0}
ATTEMPTS = 5  # real values tried per tool before the audit calls it unverified


# ---------------------------------------------------------------------------- audit helpers

def column_values(tables, param):
    """(values from the column a parameter names, is it a key or reference column) — [] when none matches."""
    exact = [(t, param) for t in tables.values() if any(c["name"] == param for c in t["columns"])]
    if not exact and param.endswith("_id"):  # customer_id -> customers.<key>
        exact = [(t, t["key"]) for t in tables.values() if t["key"] and toolgen.singular(t["name"]) == param[:-3]]
    for t, col in sorted(exact, key=lambda tc: tc[1] != tc[0]["key"]):  # the table that owns the key first
        values = list(dict.fromkeys(r[col] for r in t["rows"] if r[col] is not None))
        if values:
            return values, col == t["key"] or any(fk["column"] == col for fk in t["fks"])
    return [], False


def candidate_args(schema, tables, kind):
    """Up to ATTEMPTS argument sets built from real rows, and the required parameters that name key columns.

    A write also gets its first optional parameter that names a plain column, taken from another row, so
    that an update has something to change."""
    params = schema["function"]["parameters"]
    required = params.get("required", [])
    optional = [p for p in params["properties"] if p not in required and column_values(tables, p)[0]
                and not column_values(tables, p)[1]][:1] if kind == "write" else []
    sets, ids = [{} for _ in range(ATTEMPTS)], []
    for p in required + optional:
        prop = params["properties"][p]
        values, is_id = column_values(tables, p)
        if is_id:
            ids.append(p)
        plain = {"string": "x", "integer": 1, "number": 1.0, "boolean": True}.get(prop.get("type"), "x")
        values = prop.get("enum") or values or [plain]
        for i, s in enumerate(sets):
            s[p] = values[(i + (p in optional)) % len(values)]
    unique = list({json.dumps(s, sort_keys=True): s for s in sets}.values())
    return unique, ids


def is_data(result):
    """A successful, non-empty result."""
    return not (isinstance(result, dict) and "error" in result) and result not in (None, [], {})


def escape_or_crash(result):
    """The audit reason a result implies by itself (sandbox escape or crash), or None."""
    kind = result.get("error") if isinstance(result, dict) else None
    if kind in ESCAPES or (kind == "tool_error" and result["message"].startswith(tooltests.VIOLATIONS)):
        return "sandbox_violation"
    return "crash" if kind in CRASHES else None


def moved(ep, start):
    """Whether an episode's state differs from the initial one (state hash `start`). An in-process episode whose
    connection changed no row (sqlite's total_changes) and no schema has not moved: no hash needed."""
    if ep.db is not None and ep.db.total_changes == 0 and \
            ep.db.execute("PRAGMA schema_version").fetchone() == ep.schema_version:
        return False
    return state.state_hash(ep.final_db()) != start


def open_episode(env):
    """A fresh seed-0 episode, with its starting schema version noted for moved()."""
    with tooltests.SANDBOX_LOCK:
        ep = env.episode(seed=0)
    ep.schema_version = ep.db.execute("PRAGMA schema_version").fetchone() if ep.db is not None else None
    return ep


def audit_tool(env, name, kind, owned, tables, before=None, start=None):
    """(reason or None, detail) for one tool: its calls on real and on bogus arguments, judged by state diffs.

    before, start: the initial state and its hash (computed here when not given; filter_env shares them)."""
    sets, ids = candidate_args(env.by_name[name], tables, kind)
    ep = open_episode(env)
    try:
        before = before or env.initial_db()
        start = start or state.state_hash(before)
        ok = None
        for args in sets:
            r = ep.call(name, args)
            bad = escape_or_crash(r)
            if bad:
                return bad, f"{name}({json.dumps(args)}) -> {json.dumps(r)[:200]}"
            if kind == "read" and moved(ep, start):
                return "read_mutates_state", f"{name}({json.dumps(args)}) changed the state"
            if is_data(r):
                ok = (args, r)
                break
        if ok is None:
            real = all(p in ids for p in env.by_name[name]["function"]["parameters"].get("required", []))
            if kind == "read" and real and ids:
                return "read_no_data", f"no data for real ids in {len(sets)} tries"
            return None, "unverified: no successful call"
        if kind == "write":
            changed = state.diff(before, ep.final_db())
            foreign = sorted(set(changed) - set(owned))
            if foreign:
                return "writes_foreign_table", f"{name}({json.dumps(ok[0])}) changed {foreign}, owns {owned}"
            for table, d in changed.items():
                getter, key = f"get_{toolgen.singular(table)}", tables.get(table, {}).get("key")
                req = env.by_name.get(getter, {}).get("function", {}).get("parameters", {}).get("required", [])
                for row in (d["added"] + [c["after"] for c in d["changed"]])[:1]:
                    if key and len(req) == 1:
                        seen = ep.call(getter, {req[0]: row[key]})
                        if not isinstance(seen, dict) or any(seen.get(k) != v for k, v in row.items() if k in seen):
                            return "write_not_visible", f"{getter} after {name} returned {json.dumps(seen)[:200]}"
        if ids:  # the same call with ids that exist nowhere must fail and leave no trace
            ep2 = open_episode(env)
            bogus = dict(ok[0], **{p: BOGUS.get(env.by_name[name]["function"]["parameters"]["properties"][p].get("type"), "x")
                                   for p in ids})
            r = ep2.call(name, bogus)
            changed_state = moved(ep2, start)
            ep2.close()
            if escape_or_crash(r) or changed_state or (kind == "write" and is_data(r)):
                return escape_or_crash(r) or "accepts_invalid_arguments", f"{name}({json.dumps(bogus)}) -> {json.dumps(r)[:200]}"
        return None, "ok"
    finally:
        ep.close()


# ---------------------------------------------------------------------------- reduced modules

def reduce_module(source, keep, drop):
    """tools.py with only the `keep` tools public: dropped tools that kept code calls become _rejected_<name>."""
    segs = [s for s in tooltests.segments(source) if not s["error"] and s["name"] not in drop]
    rest = "".join(s["text"] for s in segs if s["name"] in keep or not s["public"])
    out = []
    for s in segs:
        if s["public"] and s["name"] not in keep:
            if not re.search(rf"\b{s['name']}\(", rest):
                continue  # nothing kept calls it
            s = dict(s, text=s["text"].replace(f"def {s['name']}(", f"def _rejected_{s['name']}(", 1))
        out.append(s["text"])
    text = "".join(out)
    for s in segs:
        if s["public"] and s["name"] not in keep:
            text = re.sub(rf"(?<![\w.]){s['name']}\(", f"_rejected_{s['name']}(", text)
    return text


def reduce_tests(tests, keep_tests):
    """tool_tests.py with only the listed test functions (helpers and imports kept)."""
    segs = tooltests.segments(tests)
    return "".join(s["text"] for s in segs if not s["error"] and (not s["name"] or not s["name"].startswith("test_")
                                                                    or s["name"] in keep_tests))


def write_env(src, dst, source, tests, tool_schemas, meta):
    """The kept environment folder (tools.json lists only the kept tools, keyed by the reduced source)."""
    shutil.rmtree(dst, ignore_errors=True)
    with runfolder.atomic_path(dst) as tmp:
        os.makedirs(tmp)
        shutil.copy(os.path.join(src, "db.sqlite"), os.path.join(tmp, "db.sqlite"))
        files = {"tools.py": source, "tool_tests.py": tests, "env.json": json.dumps(meta, indent=1, sort_keys=True),
                 "tools.json": json.dumps({"tools_sha256": schemas.source_sha(source), "tools": tool_schemas}, indent=1, sort_keys=True)}
        for name, text in files.items():
            with open(os.path.join(tmp, name), "w") as f:
                f.write(text)


# ---------------------------------------------------------------------------- one environment

def filter_env(row, args, out_dir):
    """Judge one environment: {"env": kept/rejected row, "tools": [tool_stat rows]}; writes its folder when kept."""
    src = os.path.join(args.run_dir, "02_build_tools", "envs", runfolder.safe_name(row["id"]))
    trusted = row["source"] == "schema"  # generated by this project; anything from an LLM runs in the sandbox
    read = lambda f: open(os.path.join(src, f)).read()
    source, tests, meta = read("tools.py"), read("tool_tests.py"), json.loads(read("env.json"))
    db_bytes = envs.read_db_bytes(os.path.join(src, "db.sqlite"), row["id"])
    declared = {t["name"]: t for t in row["tools"]}
    verdict, stats = {}, {}  # tool -> (reason, detail); tool -> test scores

    segs = tooltests.segments(source)
    for s in segs:
        why = None if trusted or s["error"] else tooltests.risky(s["text"])
        if s["error"] or why:
            verdict[s["name"] or "?"] = ("syntax_error", s["error"]) if s["error"] else ("sandbox_violation", f"static: {why}")
    clean = "".join(s["text"] for s in segs if (s["name"] or "?") not in verdict)
    descs, err = tooltests.describe(clean, trusted)
    result = {"id": row["id"], "source": row["source"]}
    if err:
        return {"env": dict(result, rule="import_failed", detail=err), "tools": tool_rows(row, verdict, stats, {})}
    good, bad = tooltests.schemas(descs)
    verdict.update({n: ("bad_schema", e) for n, e in bad.items()})
    names = [d["name"] for d in descs]
    results, err = tooltests.run_tests(clean, tests, db_bytes, trusted=trusted)
    stats = tooltests.scores(results, names)
    for n, s in stats.items():
        if n in verdict:
            continue
        if s["violation"]:
            verdict[n] = ("sandbox_violation", next(r["error"] for t, r in results.items() if r.get("violation")
                                                    and tooltests.tool_of(t, names) == n))
        elif not s["total"]:
            verdict[n] = ("no_tests", err or "no test_<tool>_ function")
        elif s["passed"] * 2 <= s["total"]:
            verdict[n] = ("tests_failed", f"{s['passed']}/{s['total']}: " + "; ".join(
                r["error"][:120] for t, r in results.items() if not r["ok"] and tooltests.tool_of(t, names) == n)[:300])

    # ---- the execution audit, on a working copy holding every surviving tool
    survivors = [n for n in names if n not in verdict]
    work = os.path.join(out_dir, "work", "audit_" + runfolder.safe_name(row["id"]))
    write_env(src, work, clean, tests, [good[n] for n in survivors], meta)
    env = envs.Env(work, sandbox=not trusted)
    con = sqlite3.connect(":memory:")
    con.deserialize(db_bytes)
    tables = toolgen.read_schema(con)
    audit, before = {}, env.initial_db()
    start = state.state_hash(before)
    for n in survivors:
        kind = declared.get(n, {}).get("kind", "read")
        reason, audit[n] = audit_tool(env, n, kind, declared.get(n, {}).get("tables", []), tables, before, start)
        if reason:
            verdict[n] = (reason, audit[n])
    shutil.rmtree(work, ignore_errors=True)

    # ---- reduce, then check that the kept tools still pass their tests without the rejected ones
    drop = {n for n, (why, _) in verdict.items() if why in ("syntax_error", "sandbox_violation")}
    for _ in range(3):
        keep = [n for n in names if n not in verdict]
        passed = [t for t, r in results.items() if r["ok"] and tooltests.tool_of(t, names) in keep]
        reduced, reduced_tests = reduce_module(clean, set(keep), drop), reduce_tests(tests, set(passed))
        again, err = tooltests.run_tests(reduced, reduced_tests, db_bytes, trusted=trusted) if keep else ({}, None)
        broken = {tooltests.tool_of(t, keep) for t, r in again.items() if not r["ok"]} | ({None} if err else set())
        if not broken:
            break
        verdict.update({n: ("tests_failed", "fails once rejected tools are removed") for n in (broken - {None}) or keep})
    keep = [n for n in names if n not in verdict]
    writes = [n for n in keep if declared.get(n, {}).get("kind") == "write"]
    tools = tool_rows(row, verdict, stats, audit)
    n_tests = len([t for t in passed if tooltests.tool_of(t, names) in keep])
    for rule, failed, detail in (("no_valid_tool", not keep, "no tool passed"), ("no_valid_test", not n_tests, "no test passed"),
                                 ("too_few_tools", len(keep) < args.min_tools, f"{len(keep)} < --min-tools {args.min_tools}"),
                                 ("too_few_write_tools", len(writes) < args.min_write_tools,
                                  f"{len(writes)} < --min-write-tools {args.min_write_tools}")):
        if failed:
            return {"env": dict(result, rule=rule, detail=detail, kept_tools=len(keep)), "tools": tools}
    meta = dict(meta, filter={"kept_tools": len(keep), "rejected_tools": len(names) - len(keep)})
    write_env(src, os.path.join(out_dir, "envs", runfolder.safe_name(row["id"])), reduced, reduced_tests,
              [good[n] for n in keep], meta)
    return {"env": dict(result, tools=[{"name": n, "kind": declared.get(n, {}).get("kind", "read")} for n in keep],
                        tests=n_tests, write_tools=len(writes)), "tools": tools}


def tool_rows(row, verdict, stats, audit):
    """tool_stats rows for every tool 02 listed or this stage found."""
    names = list(dict.fromkeys([t["name"] for t in row["tools"]] + [n for n in verdict if n != "?"]))
    kinds = {t["name"]: t["kind"] for t in row["tools"]}
    return [{"id": f"{row['id']}/{n}", "env": row["id"], "tool": n, "kind": kinds.get(n, "read"),
             "kept": n not in verdict, "reason": verdict.get(n, (None, None))[0],
             "detail": verdict.get(n, (None, None))[1] or audit.get(n),
             "passed": stats.get(n, {}).get("passed", 0), "total": stats.get(n, {}).get("total", 0)} for n in names]


# ---------------------------------------------------------------------------- main

if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    # I/O
    ap.add_argument("--run-dir", required=True, help="run folder holding 02_build_tools/")
    ap.add_argument("--limit", type=int, default=0, help="first N environments by id (0 = all)")
    ap.add_argument("--force", action="store_true", help="redo a finished stage")
    # Filter
    ap.add_argument("--min-tools", type=int, default=5, help="fewest kept tools an environment needs")
    ap.add_argument("--min-write-tools", type=int, default=1, help="fewest kept write tools an environment needs")
    # Runtime
    ap.add_argument("--seed", type=int, default=0, help="run seed (the audit's episodes use seed 0)")
    ap.add_argument("--workers", type=int, default=2, help="processes judging environments in parallel")
    args = ap.parse_args()
    stage = runfolder.begin(args, "03_filter")
    print(f"03_filter: test accuracy > 0.5, audit on, min tools {args.min_tools}, min write tools {args.min_write_tools}")

    rows = runfolder.read_jsonl(stage.input(os.path.join(args.run_dir, "02_build_tools", "tools.jsonl")), "env_tools")
    rows = sorted(rows, key=lambda r: r["id"])[:args.limit or None]
    stage.input(os.path.join(args.run_dir, "02_build_tools", "envs"))

    # ---- judge each environment (a judged one is a part on disk: a rerun skips it)
    todo = [r for r in rows if not stage.has_part(r["id"])]
    verdict = lambda part: "rejected" if "rule" in part["env"] else "kept"  # noqa: E731
    for r, part in zip(todo, runfolder.parallel(lambda r: filter_env(r, args, stage.dir), todo, args.workers, "envs",
                                                tally=verdict)):
        stage.save_part(r["id"], part)

    # ---- outputs and summary
    parts = [stage.load_part(r["id"]) for r in rows]
    kept = [p["env"] for p in parts if "rule" not in p["env"]]
    rejected = [p["env"] for p in parts if "rule" in p["env"]]
    tool_stats = [t for p in parts for t in p["tools"]]
    stage.write_jsonl("kept.jsonl", kept, "env_kept")
    stage.write_jsonl("rejected.jsonl", rejected, "env_rejected")
    stage.write_jsonl("tool_stats.jsonl", tool_stats, "tool_stat")
    env_rules, tool_rules = {}, {}
    for r in rejected:
        env_rules[r["rule"]] = env_rules.get(r["rule"], 0) + 1
    for t in tool_stats:
        tool_rules[t["reason"] or "kept"] = tool_rules.get(t["reason"] or "kept", 0) + 1
    per_env = sorted(len(k["tools"]) for k in kept)
    counts = {"envs": len(rows), "kept": len(kept), "rejected": env_rules, "tools": tool_rules,
              "tools_per_kept_env": {"min": per_env[0], "median": statistics.median(per_env), "max": per_env[-1]} if per_env else {}}
    stage.finish(counts)
    print(f"03_filter: kept {len(kept)}/{len(rows)} environments; rejected by rule {json.dumps(env_rules, sort_keys=True)}")
    print(f"  tools: {json.dumps(dict(sorted(tool_rules.items())))}")
    print(f"  tools per kept env: {per_env} (min/median/max {json.dumps(counts['tools_per_kept_env'])})")
    for r in (kept[:1] + rejected[:1]):
        print(json.dumps({**r, "tools": r.get("tools", [])[:4]}, sort_keys=True)[:600])
