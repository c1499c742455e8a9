"""02_build_tools: give every mined environment a tools.py (typed, documented functions) and unit tests for them.

Reads  <run>/01_mine/envs.jsonl (kind env: id, ...) and <run>/01_mine/envs/<id>/{env.json, db.sqlite}; everything
       about the database is read from SQLite itself (PRAGMA table_info / foreign_key_list).
Writes <run>/02_build_tools/envs/<id>/{env.json, db.sqlite, tools.py, tools.json, tool_tests.py} and
       tools.jsonl (kind env_tools: id, source "schema"|"llm", tools [{name, kind read|write, tables, passed, total}],
       tests, repair_attempts, fallback, load_error, schema_errors, syntax_errors).
Offline (--llm none): lib/toolgen.py derives get/search/list-related/summarize/create/update/delete and status
transitions from keys and the foreign-key graph, with a happy and an error test per tool on real rows (trusted,
run in-process). LLM path: a code agent writes tools + tests from schema, sample rows, provenance and theme; a
repair loop runs the tests in lib.sandbox and sends failures back (--repair-rounds); --api-spec first asks for
AWM's operation spec (typed parameters), then for code. When the LLM fails (< 3 tools passing), the schema tools
are used instead (fallback says why).
Departures: Agent-World's agent browses and researches; here it sees only the database. Tool kind (read/write)
comes from static SQL analysis, not from the model's claim.
  tiny: python 02_build_tools.py --run-dir runs/tiny --limit 2
  full: python 02_build_tools.py --run-dir runs/full --llm openai --llm-model Qwen/Qwen3-32B --workers 16 --api-spec
"""
import argparse
import json
import os
import re
import shutil
import sqlite3
import sys


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import chat, envs, llm, runfolder, schemas, toolgen, tooltests  # noqa: E402

MIN_LLM_TOOLS = 3  # fewer LLM tools passing their tests than this: use the schema tools instead
EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "example_env")
SYSTEM = """You write the tools of a simulated environment backed by one SQLite database, and unit tests for them.
tools.py: plain functions `def name(db: sqlite3.Connection, arg: type, ...) -> dict | list` with Google docstrings
(a summary, every parameter typed and described under Args:, Returns:). `db` returns rows as dicts and has
db.now() (frozen ISO time), db.today() and db.new_id(prefix) (seeded ids): never use the real clock or random.
Use parameterised SQL only. Raise ValueError with a clear message for user errors (missing rows, bad states,
insufficient balance...). Write domain operations, not just CRUD: e.g. booking checks availability and balance,
then writes the booking and charges. Only these imports: {imports}.
tool_tests.py: functions `def test_<tool name>_<case>(db, tools):` run on a fresh copy of the database; call tools
as tools.name(arg=...) (an error comes back as a dict with "error"), read state with db.execute(...); write at
least one passing case and one error case per tool, on real rows. Example of both files:
```python
{example_tools}
```
```python
{example_tests}
```
Answer with exactly two fenced python blocks: first tools.py, then tool_tests.py."""
SPEC = """First design the API. Answer with JSON only: {"operations": [{"name", "kind": "read"|"write", "description",
"parameters": [{"name", "type": "str"|"int"|"float"|"bool", "description", "required": true|false}], "tables": [...]}]}
with 10-20 operations a user of this service would need."""


# ---------------------------------------------------------------------------- helpers

def schema_sql(con):
    """The CREATE statements of the environment's tables (without the _meta table)."""
    rows = con.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                       "AND name != '_meta' ORDER BY name").fetchall()
    return ";\n".join(r[0] for r in rows) + ";"


def sample_rows(tables, n=3):
    """A few real rows per table, as JSON lines, so the model writes tests on values that exist."""
    return "\n".join(f"{t}: " + json.dumps(v["rows"][:n], default=str) for t, v in tables.items())


def env_prompt(meta, con, tables):
    """The user message describing one environment."""
    return (f"Environment {meta['id']}: {json.dumps(meta.get('theme', ''))}\n{meta.get('description', '')}\n"
            f"Provenance: {json.dumps(meta.get('provenance', {}), sort_keys=True)}\n\nSchema:\n{schema_sql(con)}\n\n"
            f"Sample rows:\n{sample_rows(tables)}\n")


def code_blocks(text):
    """(tools.py, tool_tests.py) from a reply's fenced python blocks; None for a part that is missing."""
    blocks = re.findall(r"```(?:python|py)?[ \t]*\n(.*?)```", text or "", flags=re.S)
    tests = next((b for b in blocks if re.search(r"^def test_", b, flags=re.M)), None)
    tools = next((b for b in blocks if b is not tests and re.search(r"^def ", b, flags=re.M)), None)
    return tools, tests


def passing(scored):
    """Tools whose tests pass more than half the time, with no escape attempt."""
    return sorted(t for t, s in scored.items() if s["total"] and s["passed"] / s["total"] > 0.5 and not s["violation"])


def feedback(results, load_error, scored):
    """The repair message: what failed, so the model can fix tools or tests."""
    if load_error:
        return f"The modules do not load: {load_error}\nSend both files again, corrected."
    lines = [f"- {name}: {r['error']}" for name, r in results.items() if not r["ok"]][:30]
    untested = [t for t, s in scored.items() if not s["total"]]
    if untested:
        lines.append(f"- these tools have no test_<tool>_... tests: {', '.join(untested)}")
    return "These unit tests failed:\n" + "\n".join(lines) + "\nFix the tools (or tests that are wrong). Send both files again."


def tool_rows(source, scored, declared=None):
    """[{name, kind, tables, passed, total}] in source order; kind from static SQL analysis (or the generator)."""
    writes = declared or tooltests.written_tables(source)
    return [{"name": t, "kind": "write" if writes.get(t) else "read", "tables": writes.get(t, []),
             "passed": s["passed"], "total": s["total"]} for t, s in scored.items()]


def from_schema(con, meta, db_bytes):
    """Offline path: generated tools and tests, checked in-process (trusted code)."""
    title = (meta.get("theme") or {}).get("name", meta["id"]) if isinstance(meta.get("theme"), dict) else meta["id"]
    source, tests, gen = toolgen.generate(con, title)
    results, err = tooltests.run_tests(source, tests, db_bytes, trusted=True)
    scored = tooltests.scores(results, [g["name"] for g in gen])
    declared = {g["name"]: g["tables"] for g in gen}
    return {"source": "schema", "tools_py": source, "tests_py": tests, "load_error": err,
            "tools": tool_rows(source, scored, declared), "repair_attempts": 0, "syntax_errors": {}}


def from_llm(client, meta, con, tables, db_bytes, rounds, api_spec, seed):
    """LLM path: write, test in the sandbox, feed failures back; the best attempt (most passing tools) wins."""
    ex = {k: open(os.path.join(EXAMPLE, f)).read() for k, f in (("tools", "tools.py"), ("tests", "tool_tests.py"))}
    system = SYSTEM.replace("{imports}", ", ".join(sorted(tooltests.ALLOWED_IMPORTS))) \
        .replace("{example_tools}", ex["tools"]).replace("{example_tests}", ex["tests"])
    messages = [{"role": "system", "content": system}, {"role": "user", "content": env_prompt(meta, con, tables)}]
    if api_spec:  # AWM: operations with typed parameters first, then the code that implements them
        reply = client.chat(messages[:1] + [{"role": "user", "content": messages[1]["content"] + "\n" + SPEC}], seed=seed)
        spec = chat.extract_json(reply["content"])
        if isinstance(spec, dict) and spec.get("operations"):
            messages[1]["content"] += "\nImplement exactly this API:\n" + json.dumps(spec, indent=1)
    best, why = None, "no usable answer"
    for attempt in range(rounds + 1):
        reply = client.chat(messages, seed=seed)
        source, tests = code_blocks(reply["content"])
        if source is None or tests is None:
            note = "I could not find two fenced python blocks (tools.py, then tool_tests.py). Send both."
        else:
            clean, broken = tooltests.compilable(source)  # one broken function must not sink the others
            results, err = tooltests.run_tests(clean, tests, db_bytes, trusted=False, seed=seed)
            scored = tooltests.scores(results, [d["name"] for d in tooltests.describe(clean, False)[0]])
            good = passing(scored)
            if best is None or len(good) > len(best["good"]):
                best = {"source": "llm", "tools_py": source, "tests_py": tests, "load_error": err, "good": good,
                        "tools": tool_rows(clean, scored), "repair_attempts": attempt, "syntax_errors": broken}
            if not err and not broken and results and all(r["ok"] for r in results.values()) \
                    and all(s["total"] for s in scored.values()):
                break
            note = "".join(f"Syntax error in {k}: {v}\n" for k, v in broken.items()) + feedback(results, err, scored)
            why = err or f"{len(good)} tools pass their tests"
        messages += [{"role": "assistant", "content": reply["content"]}, {"role": "user", "content": note}]
    if best is None or len(best["good"]) < MIN_LLM_TOOLS:
        return None, f"after {rounds + 1} attempts: {why}"
    best.pop("good")
    return best, None


def write_env(src_dir, out_dir, meta, built, trusted):
    """A complete environment folder: env.json, db.sqlite, tools.py, tools.json (schemas), tool_tests.py."""
    shutil.rmtree(out_dir, ignore_errors=True)  # left by an interrupted run, before its part was saved
    with runfolder.atomic_path(out_dir) as tmp:
        os.makedirs(tmp)
        shutil.copy(os.path.join(src_dir, "db.sqlite"), os.path.join(tmp, "db.sqlite"))
        meta = dict(meta, provenance=dict(meta.get("provenance") or {}, tools=built["source"]))
        files = {"env.json": json.dumps(meta, indent=1, sort_keys=True), "tools.py": built["tools_py"],
                 "tool_tests.py": built["tests_py"]}
        descs, _ = tooltests.describe(built["tools_py"], trusted)
        good, bad = tooltests.schemas(descs)
        files["tools.json"] = json.dumps({"tools_sha256": schemas.source_sha(built["tools_py"]),
                                          "tools": [good[d["name"]] for d in descs if d["name"] in good]},
                                         indent=1, sort_keys=True)
        for name, text in files.items():
            with open(os.path.join(tmp, name), "w") as f:
                f.write(text)
    return bad


def build(env_id, args, stage, client):
    """Build one environment's folder and return its tools.jsonl row."""
    src_dir = os.path.join(args.run_dir, "01_mine", "envs", runfolder.safe_name(env_id))
    with open(os.path.join(src_dir, "env.json")) as f:
        meta = json.load(f)
    db_bytes = envs.read_db_bytes(os.path.join(src_dir, "db.sqlite"), env_id)
    con = sqlite3.connect(":memory:")
    con.deserialize(db_bytes)
    built, fallback = None, None
    if client is not None:
        try:
            built, fallback = from_llm(client, meta, con, toolgen.read_schema(con), db_bytes, args.repair_rounds,
                                       args.api_spec, runfolder.item_seed(args.seed, env_id))
        except llm.LLMError as e:  # the endpoint failed for good: this environment still gets tools
            fallback = f"llm error: {e}"
    if built is None:
        built = from_schema(con, meta, db_bytes)
    con.close()
    bad = write_env(src_dir, stage.path("envs", runfolder.safe_name(env_id)), meta, built, built["source"] == "schema")
    return {"id": env_id, "source": built["source"], "tools": built["tools"], "repair_attempts": built["repair_attempts"],
            "tests": sum(t["total"] for t in built["tools"]), "fallback": fallback, "load_error": built["load_error"],
            "schema_errors": bad, "syntax_errors": built["syntax_errors"]}


# ---------------------------------------------------------------------------- main

if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    # I/O
    ap.add_argument("--run-dir", required=True, help="run folder holding 01_mine/")
    ap.add_argument("--limit", type=int, default=0, help="first N environments by id (0 = all)")
    ap.add_argument("--force", action="store_true", help="redo a finished stage")
    # Model
    llm.add_llm_args(ap)
    ap.add_argument("--repair-rounds", type=int, default=3, help="repair attempts after the first answer (0 = none)")
    ap.add_argument("--api-spec", action="store_true", help="AWM: ask for a typed operation spec before the code")
    # Runtime
    ap.add_argument("--seed", type=int, default=0, help="run seed (per-environment seeds derive from it)")
    ap.add_argument("--workers", type=int, default=4, help="environments built in parallel (processes offline, threads with an LLM)")
    args = ap.parse_args()
    stage = runfolder.begin(args, "02_build_tools")
    print(f"02_build_tools: {'offline schema tools' if args.llm == 'none' else f'LLM code agent ({args.llm})'}"
          f", repair rounds {args.repair_rounds}, api spec {args.api_spec}")

    envs_path = stage.input(os.path.join(args.run_dir, "01_mine", "envs.jsonl"))
    ids = sorted(r["id"] for r in runfolder.read_jsonl(envs_path, "env"))
    ids = ids[:args.limit] if args.limit else ids
    stage.input(os.path.join(args.run_dir, "01_mine", "envs"))
    client = llm.llm_from_args(args, stage.path("llm_cache"))

    # ---- build each environment (a finished one is a part on disk: a rerun skips it)
    todo = [i for i in ids if not stage.has_part(i)]
    # Offline the work is CPU-bound (processes); with an LLM it waits on the network (threads, one shared client).
    for row in runfolder.parallel(lambda i: build(i, args, stage, client), todo, args.workers, "envs",
                                  processes=client is None, tally=lambda r: "fallback" if r["fallback"] else r["source"]):
        stage.save_part(row["id"], row)

    # ---- outputs
    rows = [stage.load_part(i) for i in ids]
    stage.write_jsonl("tools.jsonl", rows, "env_tools")
    n_tools = [len(r["tools"]) for r in rows]
    n_pass = [len([t for t in r["tools"] if t["total"] and t["passed"] * 2 > t["total"]]) for r in rows]
    counts = {"envs": len(rows), "llm": sum(r["source"] == "llm" for r in rows), "fallbacks": sum(bool(r["fallback"]) for r in rows),
              "tools": sum(n_tools), "write_tools": sum(t["kind"] == "write" for r in rows for t in r["tools"]),
              "tools_passing": sum(n_pass), "repair_attempts": sum(r["repair_attempts"] for r in rows)}
    stage.finish(counts, llm_usage=client.usage if client else None)
    print(f"02_build_tools: {counts['envs']} envs, {counts['tools']} tools ({counts['write_tools']} write, "
          f"{counts['tools_passing']} passing), {counts['llm']} from the LLM, {counts['fallbacks']} fallbacks")
    if rows:
        r = rows[0]
        print(json.dumps({**r, "tools": r["tools"][:3]}, sort_keys=True)[:800])
