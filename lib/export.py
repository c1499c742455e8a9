"""Export tasks and SFT transcripts as datasets-ready JSONL; import nested-JSON databases as environments.

    python -m lib.export --run-dir runs/tiny --out runs/tiny/export          # tasks.jsonl, sft.jsonl
    python -m lib.export import-db tests/fixtures_export/retail_db.json --out envs/retail --id retail
    python -m lib.export import-db a.json b.json --run-dir runs/imported   # a finished 01_mine for 02_build_tools

Reads <run>/05_tasks/tasks.jsonl (kind task), the environments under <run>/<env_path>, and, when present,
<run>/06_grpo/rollouts.jsonl ({"id", "task_id", "messages", "reward", "success", ...}). Writes <out>/tasks.jsonl
(flat: every column a string or an integer, never null, so `datasets.load_dataset("json")` infers the same
features for every export) and <out>/sft.jsonl (OpenAI chat messages with tool_calls, from reference solutions
replayed in an episode with seed = task["seed"], and from successful rollouts). Field lists: README, "Export".
"""
import argparse
import json
import os
import sqlite3
import sys

from lib import envs, parsers, runfolder, state, tables
from lib.chat import assistant_call, to_openai

SYSTEM = ("You are an agent acting in an environment through its tools. {description}\n"
          "Call tools to look things up and to make changes; when the task is done, reply without a tool call, "
          "giving the answer in the JSON format the user asked for.")
TRUSTED = ("schema", "hand-written")  # env.json provenance.tools values whose tools run in-process
SUCCESS = 0.999  # lib.rewards.SUCCESS: a rollout with reward >= this is a success


# ---------------------------------------------------------------------------- tasks

def flat_task(task):
    """A task row with stable features: nested values that vary per row become JSON text, nulls become ""."""
    js = lambda v: json.dumps(v, ensure_ascii=False, sort_keys=True)  # noqa: E731
    d, tax = task.get("difficulty") or {}, task.get("taxonomy") or {}
    edges = d.get("edges") or {}
    return {"id": task["id"], "env_id": task["env_id"], "env_path": task["env_path"], "kind": task["kind"],
            "query": task["query"], "answer_format": js(task.get("answer_format")),
            "reference": js(task.get("reference")), "expected_answer": js(task.get("expected_answer")),
            "expected_state_hash": task.get("expected_state_hash") or "", "rubric": js(task.get("rubric")),
            "verifier": task.get("verifier") or "", "tier": d.get("tier", ""),
            **{k: int(d.get(k, 0)) for k in ("calls", "distinct_tools", "writes", "branches")},
            **{f"edges_{k}": int(edges.get(k, 0)) for k in ("strong", "weak", "independent")},
            "taxonomy_l1": tax.get("l1", ""), "taxonomy_l2": tax.get("l2", ""), "taxonomy_l3": tax.get("l3", ""),
            "seed": int(task.get("seed", 0)), "round": int(task.get("round", 0)),
            "targets": js(task.get("targets") or []), "code_origin": task.get("code_origin") or ""}


# ---------------------------------------------------------------------------- SFT transcripts

def open_env(path):
    """Load an environment, sandboxing tools that this project did not generate or hand-write."""
    with open(os.path.join(path, "env.json")) as f:
        trusted = json.load(f).get("provenance", {}).get("tools") in TRUSTED
    return envs.Env(path, sandbox=not trusted)


def tool_message(call_id, result):
    """The tool's reply, the same json.dumps(result) text the agent sees in 06."""
    return {"role": "tool", "tool_call_id": call_id, "content": json.dumps(result, ensure_ascii=False)}


def final_text(task):
    """The reference's last assistant message: the expected answer as JSON, or a plain done for state tasks."""
    ans = task.get("expected_answer")
    return "Done." if ans is None else json.dumps(ans, ensure_ascii=False)


def reference_messages(task, env):
    """Replay a graph task's reference calls in an episode seeded like 05's; (messages, None) or (None, reason)."""
    ep = env.episode(task["seed"])
    try:
        msgs = [{"role": "system", "content": SYSTEM.format(description=env.meta.get("description", ""))},
                {"role": "user", "content": task["query"]}]
        for n, call in enumerate(task["reference"]["calls"], 1):
            result = ep.call(call["name"], call.get("arguments") or {})
            msgs += [assistant_call(f"call_{n}", call["name"], call.get("arguments") or {}),
                     tool_message(f"call_{n}", result)]
        got = state.state_hash(ep.final_db())
    finally:
        ep.close()
    if task.get("expected_state_hash") and got != task["expected_state_hash"]:
        return None, "reference replay reaches another state than expected_state_hash"
    return msgs + [{"role": "assistant", "content": final_text(task)}], None


def sft_row(row_id, task, source, reward, messages, schemas):
    """One SFT example: messages plus the tool schemas (JSON text, since they vary per environment)."""
    return {"id": row_id, "task_id": task["id"], "env_id": task["env_id"], "source": source,
            "reward": float(reward), "messages": messages,
            "tools": json.dumps(schemas, ensure_ascii=False, sort_keys=True)}


def export_run(run_dir, out_dir):
    """Write <out>/tasks.jsonl and <out>/sft.jsonl; returns counts."""
    tasks = runfolder.read_jsonl(os.path.join(run_dir, "05_tasks", "tasks.jsonl"), "task")
    by_id, loaded, sft, skipped = {t["id"]: t for t in tasks}, {}, [], {}

    def env_of(task):
        if task["env_path"] not in loaded:
            loaded[task["env_path"]] = open_env(os.path.join(run_dir, task["env_path"]))
        return loaded[task["env_path"]]
    for t in tasks:
        if t["kind"] != "graph" or not (t.get("reference") or {}).get("calls"):
            skipped["no_call_list"] = skipped.get("no_call_list", 0) + 1  # program tasks: no call transcript
            continue
        msgs, why = reference_messages(t, env_of(t))
        if msgs is None:
            skipped[why] = skipped.get(why, 0) + 1
            continue
        sft.append(sft_row(f"reference/{t['id']}", t, "reference", 1.0, msgs, env_of(t).schemas))
    rollouts_path = os.path.join(run_dir, "06_grpo", "rollouts.jsonl")
    n_roll = 0
    if os.path.exists(rollouts_path):
        for r in runfolder.read_jsonl(rollouts_path):
            ok = r.get("success") if r.get("success") is not None else (r.get("reward") or 0) >= SUCCESS
            if ok and r["task_id"] in by_id:
                t = by_id[r["task_id"]]
                sft.append(sft_row(f"rollout/{r['id']}", t, "rollout", r.get("reward") or 1.0,
                                   to_openai(r["messages"]), r.get("tools") or env_of(t).schemas))
                n_roll += 1
    runfolder.write_jsonl(os.path.join(out_dir, "tasks.jsonl"), [flat_task(t) for t in tasks])
    runfolder.write_jsonl(os.path.join(out_dir, "sft.jsonl"), sft)
    return {"tasks": len(tasks), "sft": len(sft), "sft_reference": len(sft) - n_roll, "sft_rollout": n_roll,
            "skipped": skipped}


# ---------------------------------------------------------------------------- nested JSON databases

def _collection(v):
    """An ID-keyed collection of records: {"k1": {...}, "k2": {...}}."""
    return isinstance(v, dict) and len(v) > 0 and all(isinstance(x, dict) for x in v.values())


def _child_table(parent, field):
    """The table name lib.parsers gives a nested collection (generic names get the parent's prefix)."""
    name = tables.ident(field)
    return f"{tables.singular(parent)}_{name}" if name in parsers.GENERIC_CHILD else name


def _as_records(coll, table):
    """{key: record} -> records with the key as "id", unless a "<table>_id" field already holds it (then that
    field is the key: an extra copy named id would only duplicate it)."""
    own = f"{tables.singular(table)}_id"
    if all(str(v.get(own)) == str(k) for k, v in coll.items()):
        return list(coll.values())
    return [{"id": k, **v} if "id" not in v else v for k, v in coll.items()]


def normalise_collections(records, table):
    """Turn a field that is an ID-keyed collection in some record (with 2+ entries) into a list of records in
    every record; otherwise a record holding one entry ({"card_1": {...}}) would flatten into columns named
    after that entry instead of a child row. Recurses into the children."""
    fields = {k for r in records for k, v in r.items() if _collection(v) and len(v) >= 2}
    for k in sorted(fields):
        if all(_collection(r[k]) for r in records if k in r and r[k] not in ({}, None)):
            for r in records:
                if isinstance(r.get(k), dict):
                    r[k] = _as_records(r[k], _child_table(table, k))
    for k in sorted({k for r in records for k, v in r.items() if isinstance(v, list)}):
        children = [x for r in records for x in (r.get(k) or []) if isinstance(x, dict)]
        if children:
            normalise_collections(children, _child_table(table, k))
    return records


def normalise_document(obj):
    """The top-level collections of an exported database, each as a normalised list of records."""
    if isinstance(obj, dict):
        for name in list(obj):
            coll, table = obj[name], tables.ident(name)
            if _collection(coll):
                obj[name] = normalise_collections(_as_records(coll, table), table)
            elif isinstance(coll, list):
                normalise_collections([x for x in coll if isinstance(x, dict)], table)
    return obj


def read_tables(paths):
    """Nested-JSON (or any 01_mine-parsable) documents -> related tables, notes; via lib.parsers/lib.tables."""
    found, notes = [], []
    for path in paths:
        with open(path, "rb") as f:
            data = f.read()
        if path.endswith(".json"):
            data = json.dumps(normalise_document(json.loads(data)), ensure_ascii=False)
        ts, why = parsers.parse_document(os.path.basename(path), data, max_bytes=len(data) + 1)
        found += ts
        notes += why
    return tables.relate(found, max_rows=10**9), notes


def import_db(paths, out_dir, env_id, description="", producer="lib/export.py import-db"):
    """Write an environment folder (env.json, db.sqlite) from database exports; returns its envs.jsonl row."""
    related, notes = read_tables(paths)
    if not related:
        raise ValueError(f"no tables in {paths}: {notes}")
    os.makedirs(out_dir, exist_ok=True)
    db_path = os.path.join(out_dir, "db.sqlite")
    with runfolder.atomic_path(db_path) as tmp:
        con = sqlite3.connect(tmp)
        tables.write_sqlite(con, related)
        bad = con.execute("PRAGMA foreign_key_check").fetchall()
        if bad:
            raise ValueError(f"foreign keys that do not resolve: {bad[:3]}")
        envs.write_meta_table(con, env_id, producer)
        con.execute("VACUUM")
        desc = tables.describe_db(con)
        con.close()
    docs = [os.path.basename(p) for p in paths]
    counts = {"tables": len(desc), "rows": sum(t["rows"] for t in desc),
              "foreign_keys": sum(len(t["foreign_keys"]) for t in desc)}
    theme = {"id": env_id, "kind": "import", "name": env_id, "domain": ""}
    meta = {"id": env_id, "format": envs.FORMAT_VERSION, "theme": theme,
            "description": description or f"Imported from {', '.join(docs)}.",
            "provenance": {"producer": producer, "source": "import", "documents": docs,
                           "tables": {t.name: os.path.basename(t.source) for t in related}},
            "counts": {**counts, **{t["name"]: t["rows"] for t in desc}}}
    runfolder.atomic_write(os.path.join(out_dir, "env.json"), json.dumps(meta, indent=1, sort_keys=True))
    for t in desc:
        t["source"] = meta["provenance"]["tables"].get(t["name"], "")
        t["notes"] = next((x.notes for x in related if x.name == t["name"]), [])
    return {"id": env_id, "theme": theme, "source": "import", "documents": docs, "tables": desc,
            "skipped": notes, "counts": counts}


# ---------------------------------------------------------------------------- command line

def main_import(argv):
    """import-db FILE... (--out ENVDIR --id ID | --run-dir RUN)."""
    ap = argparse.ArgumentParser(prog="python -m lib.export import-db", description=import_db.__doc__)
    ap.add_argument("files", nargs="+", help="JSON exports ({collection: {id: record}}), or any 01_mine format")
    ap.add_argument("--out", help="environment folder to write (one environment from all files)")
    ap.add_argument("--id", help="environment id (default: the first file's name)")
    ap.add_argument("--description", default="", help="env.json description")
    ap.add_argument("--run-dir", help="instead: write <run>/01_mine/ (one environment per file) for 02_build_tools")
    ap.add_argument("--force", action="store_true", help="redo a finished 01_mine")
    args = ap.parse_args(argv)
    stem = lambda p: runfolder.safe_name(os.path.splitext(os.path.basename(p))[0])  # noqa: E731
    if args.run_dir is None:
        if not args.out:
            ap.error("give --out ENVDIR or --run-dir RUN")
        row = import_db(args.files, args.out, args.id or stem(args.files[0]), args.description)
        print(f"import-db: {row['id']}: " + ", ".join(f"{t['name']} {t['rows']}" for t in row["tables"]))
        return
    args.seed, stage = 0, runfolder.begin(args, "01_mine")
    rows = [import_db([stage.input(f)], stage.path("envs", stem(f)), stem(f), args.description) for f in args.files]
    stage.write_jsonl("envs.jsonl", rows, "env")
    stage.write_jsonl("rejected.jsonl", [], "rejected")
    stage.finish({"themes": len(rows), "envs": len(rows), "rejected": 0})
    print(f"import-db: {len(rows)} environments in {stage.dir}; "
          f"next: python 02_build_tools.py --run-dir {args.run_dir}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["import-db"]:
        main_import(sys.argv[2:])
        sys.exit(0)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    # I/O
    ap.add_argument("--run-dir", required=True, help="run folder holding 05_tasks/ (and 06_grpo/rollouts.jsonl)")
    ap.add_argument("--out", required=True, help="folder for tasks.jsonl and sft.jsonl")
    args = ap.parse_args()
    counts = export_run(args.run_dir, args.out)
    print(f"export: {counts}")
    with open(os.path.join(args.out, "sft.jsonl")) as f:
        first = f.readline()
    print(first[:600] if first else "(no SFT rows)")
