"""LLM paths of stage 01: the ReAct deep-research agent (workspace, tools, loop) and AWM synthesis (SQL)."""
import json
import os
import re
import sqlite3
import time

from lib import chat, parsers, runfolder, sandbox, tables


class Reject(Exception):
    """A theme that yields no environment, for a stated reason (not a failure of the stage)."""



def write_tables(con, found, notes, max_rows, refs=()):
    """Relate the parsed tables and write the connected group from the most relevant documents (refs, best
    first), else the largest; returns its tables."""
    weight = {ref: 1 / (1 + i) for i, ref in enumerate(refs)}
    group = tables.largest_component(tables.relate(found, max_rows), weight)
    kept = {t.name for t in group}
    notes += [f"{t.source}: table {t.name} dropped (no relation to the kept tables)"
              for t in found if t.name not in kept]
    if not group:
        raise Reject("no structured data found")
    tables.write_sqlite(con, group)
    return group


# ---------------------------------------------------------------------------- deep-research agent (LLM)

def _tool(name, doc, **params):
    """An OpenAI function schema with string parameters (all required)."""
    return {"type": "function", "function": {"name": name, "description": doc, "parameters": {
        "type": "object", "properties": {k: {"type": "string", "description": v} for k, v in params.items()},
        "required": list(params)}}}


AGENT_TOOLS = [
    _tool("search", "Search for documents; returns refs with titles and snippets.", query="what to look for"),
    _tool("browse", "Read a document or URL found by search (first 6000 characters).", ref="a ref or URL"),
    _tool("python", "Run Python in a sandbox; workspace files are in the current folder; call save(name, text) "
          "to write a workspace file.", code="Python source"),
    _tool("write_file", "Write a CSV or JSON file into the workspace; each becomes database table(s).",
          path="file name like products.csv", content="the file's text", source="ref of the document it came from"),
    _tool("read_file", "Read a workspace file.", path="file name"),
    _tool("list_files", "List workspace files."),
    _tool("finish", "Stop: the workspace files are the database.", summary="what was collected")]
PY_WRAPPER = '''_saved = {}
def save(name, text):
    _saved[str(name)] = str(text)
def main(code):
    exec(compile(code, "agent.py", "exec"), {"__builtins__": __builtins__, "save": save, "__name__": "agent"})
    return sorted(_saved.items())
'''
SYSTEM = ("You are a deep-research agent building the database of a tool-use environment. Find real, structured "
          "data about the theme with search and browse, then write it as CSV or JSON files into the workspace: "
          "one file per table, a key column (id) in each, and reference columns named <table_singular>_id. "
          "Call finish when done.")


class Workspace:
    """The agent's files (flat names only, size-capped) and where each came from."""

    def __init__(self, path, backend, max_bytes):
        self.path, self.backend, self.max_bytes = path, backend, max_bytes
        self.sources, self.browsed, self.done, self.tokens = {}, [], False, 0
        os.makedirs(path, exist_ok=True)

    def name(self, p):
        """A safe flat file name, or ValueError."""
        p = str(p)
        if not re.fullmatch(r"[\w.-]{1,80}", p) or p.startswith("."):
            raise ValueError(f"bad file name {p!r}: use a plain name like items.csv")
        return p

    def write(self, p, text, source=None):
        if len(text.encode()) > self.max_bytes:
            raise ValueError(f"file too large ({len(text)} characters)")
        runfolder.atomic_write(os.path.join(self.path, self.name(p)), text)
        self.sources[p] = source or (self.browsed[-1] if self.browsed else "agent")

    def files(self):
        return {f: open(os.path.join(self.path, f), encoding="utf-8", errors="replace").read()
                for f in sorted(os.listdir(self.path))}

    def call(self, name, a):
        """Run one tool call; every failure is returned to the agent as {"error", "message"}."""
        try:
            if name == "search":
                return self.backend.search(str(a["query"]), 8)
            if name == "browse":
                data = self.backend.browse(str(a["ref"]))
                self.browsed.append(str(a["ref"]))
                text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else str(data)
                return {"ref": a["ref"], "text": text[:6000], "truncated": len(text) > 6000}
            if name == "python":
                r = sandbox.run_program(PY_WRAPPER, "main", {"code": str(a["code"])}, files=self.files())
                if "error" in r:
                    return r
                for fname, text in r["result"]:
                    self.write(fname, text, "python")
                return {"stdout": r["stdout"][-4000:], "saved": [f for f, _ in r["result"]]}
            if name == "write_file":
                self.write(a["path"], str(a["content"]), a.get("source"))
                return {"ok": True, "path": a["path"]}
            if name == "read_file":
                return {"text": self.files()[self.name(a["path"])][:8000]}
            if name == "list_files":
                return [{"path": f, "chars": len(t)} for f, t in self.files().items()]
            if name == "finish":
                self.done = True
                return {"ok": True}
            known = [t["function"]["name"] for t in AGENT_TOOLS]
            return {"error": "unknown_tool", "message": f"no tool {name!r}; tools: {known}"}
        except KeyError as e:
            return {"error": "invalid_arguments", "message": f"missing argument {e}"}
        except Exception as e:  # a tool failure is an observation for the agent, not the end of the theme
            return {"error": "tool_error", "message": f"{type(e).__name__}: {str(e)[:300]}"}


def run_agent(client, messages, ws, args):
    """The ReAct loop: chat, run the tool calls, feed back results and parse errors; returns why it stopped."""
    start = time.monotonic()
    for _ in range(args.max_steps):
        if args.max_tokens and ws.tokens >= args.max_tokens:
            return "token budget"
        if args.max_seconds and time.monotonic() - start > args.max_seconds:
            return "time budget"
        r = client.chat(messages, tools=AGENT_TOOLS)
        ws.tokens += r["usage"]["prompt_tokens"] + r["usage"]["completion_tokens"]
        ids = [f"call_{len(messages)}_{i}" for i in range(len(r["tool_calls"]))]
        msg = {"role": "assistant", "content": r["content"]}
        if r["tool_calls"]:
            msg["tool_calls"] = [{"id": i, "type": "function", "function": {
                "name": c["name"], "arguments": json.dumps(c["arguments"], sort_keys=True)}}
                for i, c in zip(ids, r["tool_calls"])]
        messages.append(msg)
        for i, c in zip(ids, r["tool_calls"]):
            result = ws.call(c["name"], c["arguments"])
            messages.append({"role": "tool", "tool_call_id": i, "content": runfolder.dumps(result)[:8000]})
        if r.get("tool_call_errors"):
            messages.append({"role": "user", "content": "These tool calls could not be parsed: "
                             + "; ".join(r["tool_call_errors"]) + ". Use JSON object arguments."})
        elif not r["tool_calls"]:
            messages.append({"role": "user", "content": "Use the tools; call finish when the files are written."})
        if ws.done:
            return "finished"
    return "step budget"


def agent_db(client, theme, backend, con, wdir, args):
    """Deep-research the theme, then --rounds enlargement rounds; the workspace files become the database."""
    ws = Workspace(os.path.join(wdir, "workspace"), backend, args.max_doc_bytes)
    messages = [{"role": "system", "content": SYSTEM},
                {"role": "user", "content": f"Theme: {theme['name']}\n{theme['description']}"}]
    stops = [run_agent(client, messages, ws, args)]
    for r in range(args.rounds):
        ws.done = False
        messages.append({"role": "user", "content": f"Round {r + 1}: enlarge and enrich the database: add tables of "
                         "records users act on (orders, bookings, tickets, accounts...) that reference the existing "
                         "ids, a status column with a lifecycle, and more rows. Write the files, then finish."})
        stops.append(run_agent(client, messages, ws, args))
    runfolder.atomic_write(os.path.join(wdir, "trajectory.json"), json.dumps(
        {"messages": messages, "stops": stops, "tokens": ws.tokens, "sources": ws.sources}, indent=1, sort_keys=True))
    found, notes = [], []
    for f, text in ws.files().items():
        ts, why = parsers.parse_document(f, text.encode(), args.max_doc_bytes)
        found += ts
        notes += why
    try:
        group = write_tables(con, found, notes, args.max_rows)
    except Reject:
        raise Reject(f"no structured data found (agent stopped: {', '.join(stops)})") from None
    prov = {t.name: ws.sources.get(t.source, "agent") for t in group}
    return {"documents": sorted(set(ws.browsed)), "provenance": prov, "skipped": notes, "stops": stops,
            "notes": {t.name: t.notes for t in group if t.notes}}


# ---------------------------------------------------------------------------- synthetic path (AWM)

def split_sql(text):
    """CREATE/INSERT statements from an answer (inside ```sql blocks when there are any)."""
    out, stmt = [], ""
    for line in "\n".join(re.findall(r"```(?:sql|sqlite)?[ \t]*\n(.*?)```", text, re.S) or [text]).splitlines():
        stmt += line + "\n"
        if sqlite3.complete_statement(stmt):
            if re.match(r"\s*(CREATE\s+(TABLE|INDEX|UNIQUE)|INSERT)\b", stmt, re.I):
                out.append(stmt.strip())
            stmt = ""
    return out


def run_sql(con, stmts):
    """Execute statements one by one; [(statement, error)] for those that failed."""
    failed = []
    for s in stmts:
        try:
            con.execute(s)
        except (sqlite3.Error, sqlite3.Warning) as e:
            failed.append((s, str(e)))
    con.commit()
    return failed


def synth_db(client, theme, con, wdir, args):
    """Scenario -> tasks -> schema -> rows, each executed; failed statements get --repairs rounds of feedback."""
    log = []

    def ask(prompt):
        answer = client.chat([{"role": "user", "content": prompt}])["content"]
        log.append({"prompt": prompt, "answer": answer})
        return answer

    def execute(stmts):
        failed = run_sql(con, stmts)
        for _ in range(args.repairs):
            if not failed:
                break
            listing = "\n".join(f"{s}\n-- error: {e}" for s, e in failed)
            fixed = split_sql(ask(f"These SQLite statements failed:\n{listing}\n"
                                  "Return the corrected statements only, in one ```sql block."))
            failed = run_sql(con, fixed) + failed[len(fixed):]
        return len(failed)

    con.execute("PRAGMA foreign_keys = ON")  # a row that breaks a reference fails and is fed back
    scenario = f"{theme['name']}: {theme['description']}"
    tasks = chat.extract_json(ask(f"Scenario: {scenario}\nList 8 realistic tasks a user asks an agent to do here, "
                                 "as a JSON array of strings."))
    tasks = [t for t in tasks if isinstance(t, str)] if isinstance(tasks, list) else []
    ddl = split_sql(ask(f"Scenario: {scenario}\nTasks: {json.dumps(tasks)}\nWrite the SQLite schema (CREATE TABLE "
                        "with PRIMARY KEY and FOREIGN KEY) that these tasks need, in one ```sql block."))
    bad = execute(ddl)
    schema = "\n".join(r[0] for r in con.execute("SELECT sql FROM sqlite_master WHERE type='table'"))
    rows = split_sql(ask(f"Schema:\n{schema}\nWrite INSERT statements with realistic sample rows for every table "
                         "(parents before children), in one ```sql block."))
    bad += execute(rows)
    runfolder.atomic_write(os.path.join(wdir, "trajectory.json"), json.dumps({"calls": log}, indent=1))
    total = len(ddl) + len(rows)
    if not total or bad > 0.1 * total:
        raise Reject(f"{bad} of {total} SQL statements failed after repair" if total else "no SQL statements")
    return {"documents": [], "provenance": {t["name"]: "synth" for t in tables.describe_db(con)}, "skipped": [],
            "tasks": tasks, "statements": total, "failed_statements": bad}
