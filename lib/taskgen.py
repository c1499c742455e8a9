"""Task synthesis shared by 05 and 07: tool dependency graphs, weighted random walks into graph tasks, program templates, baseline agents.

graph_tasks(env, n, rng, targets=None, min_calls=None) and program_tasks(env, n, rng, targets=None) return task rows
(the 05_tasks "task" format) whose reference solution was replayed twice with identical observations and scores 1.0.
"""
import ast
import json
import re
import sqlite3

from lib import rewards, sandbox, toolgen
from lib import state as statelib

WEIGHTS = {"strong": 3, "weak": 2, "independent": 1}
TIERS = {"easy": (3, 2), "medium": (5, 4), "hard": (8, 7)}  # (target calls, minimum calls)
WRITE_OPS = ("create", "update", "delete", "transition")
NAMELIKE = ("name", "title", "full_name", "subject", "email", "username", "common_name", "label")
LIMIT = 50  # list/search calls ask for this many rows; a result this long may be cut, so it is not used


def human(name):
    """'order_items' -> 'order items'."""
    return re.sub(r"[_\W]+", " ", str(name)).strip()


def quote(v):
    """A value as the query shows it: strings quoted, numbers bare."""
    return v if not isinstance(v, str) else (json.dumps(v) if "'" in v else f"'{v}'")


def ok(result):
    """A successful tool result (not an error dict)."""
    return not (isinstance(result, dict) and "error" in result)


def leaks(query, value):
    """Does the value (its text, as a whole token) appear in the query?"""
    if value is None or isinstance(value, bool):
        return False
    texts = [rewards.norm_text(value)] if isinstance(value, str) else {str(value), f"{value:g}", f"{value:.2f}"}
    q = rewards.norm_text(query)
    return any(t and re.search(rf"(?<![\w.\-]){re.escape(t)}(?![\w.\-]|\.\d)", q) for t in texts)


# ---------------------------------------------------------------------------- the environment as a graph

def read_tables(env):
    """lib.toolgen's view of the environment's tables (columns, key, foreign keys, status values, rows)."""
    con = sqlite3.connect(":memory:")
    con.deserialize(env.db_bytes)
    tables = toolgen.read_schema(con)
    con.close()
    return tables


def key_param(t):
    """The parameter name schema tools use for a table's key (see lib.toolgen)."""
    return toolgen.param_name(f"{toolgen.ident(toolgen.singular(t['name']))}_id" if t["key"] == "id" else t["key"])


def parse_tool(name, tables):
    """(op, table) of a schema-derived tool name, or ("other", None)."""
    sing = {toolgen.ident(toolgen.singular(t)): t for t in tables}
    plur = {toolgen.ident(t): t for t in tables}
    for op, names in (("get", sing), ("create", sing), ("update", sing), ("delete", sing), ("search", plur),
                      ("summarize", plur)):
        if name.startswith(op + "_") and name[len(op) + 1:] in names:
            return op, names[name[len(op) + 1:]]
    m = re.match(r"list_(.+?)_(?:of|by)_", name)
    if m and m.group(1) in plur:
        return "list", plur[m.group(1)]
    ends = [s for s in sing if name.endswith("_" + s)]
    return ("transition", sing[max(ends, key=len)]) if ends else ("other", None)


def profile(env, tables):
    """{tool: {op, table, kind, required, optional, refs {param: (table, column)}}} from names and schemas."""
    prof = {}
    for s in env.schemas:
        f = s["function"]
        op, t = parse_tool(f["name"], tables)
        params = f["parameters"].get("properties", {})
        required = list(f["parameters"].get("required", []))
        refs = {}
        if t:
            T = tables[t]
            for p in params:
                fk = next((fk for fk in T["fks"] if toolgen.param_name(fk["column"]) == p), None)
                col = next((c["name"] for c in T["columns"] if toolgen.param_name(c["name"]) == p), None)
                if p == key_param(T) and op in ("get", "update", "delete", "transition"):
                    refs[p] = (t, T["key"])
                elif fk:
                    refs[p] = (fk["ref_table"], fk["ref_column"])
                elif col:
                    refs[p] = (t, col)
        prof[f["name"]] = {"op": op, "table": t, "kind": "write" if op in WRITE_OPS else "read",
                           "required": required, "optional": [p for p in params if p not in required], "refs": refs}
    return prof


def produces(tool, tables):
    """(key-like references, plain columns) that a tool's output rows carry."""
    if tool["op"] in ("summarize", "delete", "other") or not tool["table"]:
        return set(), set()
    T = tables[tool["table"]]
    keys = {(T["name"], T["key"])} | {(fk["ref_table"], fk["ref_column"]) for fk in T["fks"]}
    return keys, {(T["name"], c["name"]) for c in T["columns"]}


def graph(prof, tables):
    """{(a, b): "strong"|"weak"}: strong when a required input of b can only come from a's output (a key it
    returns), weak when an optional input of b could come from it; every other pair is independent."""
    edges = {}
    for a, A in prof.items():
        keys, plain = produces(A, tables)
        for b, B in prof.items():
            if a == b or not keys:
                continue
            if any(B["refs"].get(p) in keys for p in B["required"]):
                edges[(a, b)] = "strong"
            elif any(B["refs"].get(p) in keys | plain for p in B["optional"]):
                edges[(a, b)] = "weak"
    return edges


# ---------------------------------------------------------------------------- walks

def unique_named_rows(T, col):
    """Rows whose text in `col` (3-60 chars) is contained in no other row's: a search by it finds one row.

    Quadratic in the rows, so it is computed once per table and column (cached on the table's dict)."""
    cache = T.setdefault("_unique_named", {})
    if col not in cache:
        vals = [str(r[col]).lower() for r in T["rows"] if isinstance(r[col], str)]
        cache[col] = [r for r in T["rows"] if isinstance(r[col], str) and 3 <= len(r[col]) <= 60
                      and sum(r[col].lower() in v for v in vals) == 1]
    return cache[col]


class Walk:
    """A chain being built: calls, one known row per table ("entries"), the query's sentences."""

    def __init__(self, env, prof, tables, edges, rng, seed, targets):
        self.env, self.prof, self.tables, self.edges, self.rng = env, prof, tables, edges, rng
        self.ep, self.targets = env.episode(seed), set(targets or ())
        self.calls, self.steps, self.entries, self.sentences, self.obs = [], [], [], [], []
        self.last = None

    def tool(self, op, table):
        """The tools of one op on one table (schema tools: at most one, list tools several)."""
        return [n for n, t in sorted(self.prof.items()) if t["op"] == op and t["table"] == table]

    def known(self, table):
        """Is a row of this table already part of the chain?"""
        return any(e["table"] == table for e in self.entries)

    def run(self, name, args):
        """Call a tool in the walk's episode; None on error."""
        self.last = r = self.ep.call(name, args)
        return r if ok(r) else None

    def add(self, name, args, sentence, src, row=None, table=None, used=(), write=False):
        """Record a successful step (and the row it makes known)."""
        edge = self.edges.get((self.entries[src]["tool"], name), "independent") if src is not None else None
        self.calls.append({"name": name, "arguments": args})
        self.obs.append(self.last)
        self.steps.append({"edge": edge, "src": src, "write": write})
        self.sentences.append(sentence)
        if src is not None:
            self.entries[src]["consumed"] = True
        if row is not None:
            self.entries.append({"table": table, "row": row, "tool": name, "used": set(used), "written": write,
                                 "consumed": False, "noun": human(toolgen.singular(table))})

    def anchors(self):
        """Candidate first steps: (weight, tool, args, table, row, sentence, used) finding one row by a unique name."""
        out = []
        for t, T in sorted(self.tables.items()):
            if self.known(t) or not T["key"] or not T["rows"]:
                continue
            links = len(T["fks"]) + len(T["children"])
            for s in self.tool("search", t):
                for p in (p for p in self.prof[s]["optional"] if p.endswith("_contains")):
                    col = next(c["name"] for c in T["columns"] if toolgen.param_name(c["name"]) == p[:-9])
                    rows = unique_named_rows(T, col)
                    for r in self.rng.sample(rows, min(3, len(rows))):
                        out.append(((1 + links) * (3 if col in NAMELIKE else 1), s, {p: r[col]}, t, r,
                                    f"the {human(toolgen.singular(t))} whose {human(col)} is {quote(r[col])}", {col}))
            for g in self.tool("get", t)[:1]:
                r = self.rng.choice(T["rows"])
                out.append((0.5, g, {key_param(T): r[T["key"]]}, t, r,
                            f"the {human(toolgen.singular(t))} with {human(T['key'])} {quote(r[T['key']])}", {T["key"]}))
        return out

    def reads(self):
        """Candidate next read steps from known rows: (weight, src, tool, args, table, how), how in parent|child."""
        out = []
        for i, e in enumerate(self.entries):
            T, row = self.tables[e["table"]], e["row"]
            for fk in T["fks"]:  # up to a parent row
                R = self.tables[fk["ref_table"]]
                if row.get(fk["column"]) is not None and not self.known(R["name"]) and fk["ref_column"] == R["key"]:
                    for g in self.tool("get", R["name"]):
                        out.append((i, g, {key_param(R): row[fk["column"]]}, R["name"], ("parent", fk["column"])))
            for n, t in sorted(self.prof.items()):  # down to child rows, by a list tool or a filtered search
                if t["op"] in ("list", "search") and t["table"] and not self.known(t["table"]) and T["key"]:
                    p = next((p for p in t["required"] + t["optional"] if t["refs"].get(p) == (T["name"], T["key"])), None)
                    if p and (t["op"] == "list" or p in t["optional"]):
                        out.append((i, n, {p: row[T["key"]], "limit": LIMIT}, t["table"], ("child", p)))
        weighted = []
        for i, n, args, table, how in out:
            w = WEIGHTS[self.edges.get((self.entries[i]["tool"], n), "independent")]
            w *= (2 if i == len(self.entries) - 1 else 1) * (5 if n in self.targets else 1)
            weighted.append((w, i, n, args, table, how))
        return weighted

    def select(self, rows, table):
        """Pick one row of a list result by a rule the query can state: (row, phrase, used columns) or None."""
        if len(rows) == 1:
            return rows[0], None, set()
        T = self.tables[table]
        skip = {T["key"]} | {fk["column"] for fk in T["fks"]} | toolgen.AUTO_STAMPS
        rules = []
        for c in (c["name"] for c in T["columns"] if c["name"] not in skip):
            vals = [r.get(c) for r in rows]
            if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals):
                for best, word in ((max(vals), "highest"), (min(vals), "lowest")):
                    if vals.count(best) == 1:
                        rules.append((rows[vals.index(best)], f"take the one with the {word} {human(c)}", {c}))
            elif all(isinstance(v, str) and re.match(r"\d{4}-\d\d-\d\d", v) for v in vals):
                for best, word in ((max(vals), "most recent"), (min(vals), "earliest")):
                    if vals.count(best) == 1:
                        rules.append((rows[vals.index(best)], f"take the one with the {word} {human(c)}", {c}))
            elif all(isinstance(v, str) and len(v) <= 40 for v in vals):
                unique = [r for r in rows if vals.count(r[c]) == 1]
                if unique:
                    r = self.rng.choice(unique)
                    rules.append((r, f"take the one whose {human(c)} is {quote(r[c])}", {c}))
        return self.rng.choice(rules) if rules else None

    def step_read(self, cand):
        """Execute a read candidate; True when it became a step."""
        _, i, name, args, table, how = cand
        src = self.entries[i]
        res = self.run(name, args)
        noun, child = src["noun"], human(toolgen.singular(table))
        if how[0] == "parent":
            if not isinstance(res, dict):
                return False
            col = how[1]
            ref = f"the {child} of that {noun}" if toolgen.singular(table) == col.removesuffix("_id") else \
                f"the {child} that that {noun}'s {human(col)} refers to"
            self.add(name, args, f"Look up {ref}.", i, res, table)
            return True
        if not isinstance(res, list) or not 1 <= len(res) < LIMIT:
            return False
        picked = self.select(res, table)
        if picked is None:
            return False
        row, rule, used = picked
        self.add(name, args, f"Among the {human(table)} of that {noun}, {rule}." if rule else
                 f"Take the only {child} of that {noun}.", i, row, table, used)
        return True

    def writes(self):
        """Candidate writes on known rows: (weight, src, tool, args, sentence, table, creates)."""
        out = []
        for i, e in enumerate(self.entries):
            T, row, noun = self.tables[e["table"]], e["row"], e["noun"]
            if e["written"] or not T["key"]:
                continue
            kp = {key_param(T): row[T["key"]]}
            for n in self.tool("transition", T["name"]):
                verb = human(n[: -len(toolgen.ident(toolgen.singular(T["name"]))) - 1])
                out.append((3, i, n, kp, f"Then {verb} that {noun}.", None))
            skip = {T["key"], T["status"]} | {fk["column"] for fk in T["fks"]} | toolgen.AUTO_STAMPS
            for n in self.tool("update", T["name"]):
                for c in T["columns"]:
                    others = sorted({r[c["name"]] for r in T["rows"] if r[c["name"]] not in (None, row.get(c["name"]))
                                     and isinstance(r[c["name"]], (str, int, float)) and len(str(r[c["name"]])) <= 40}, key=str)
                    p = toolgen.param_name(c["name"])
                    if c["name"] not in skip and c["name"] not in NAMELIKE and others and p in self.prof[n]["optional"]:
                        v = self.rng.choice(others)
                        out.append((1, i, n, {**kp, p: v}, f"Change that {noun}'s {human(c['name'])} to {quote(v)}.", None))
        for t, T in sorted(self.tables.items()):  # a new row referring to known rows, other fields copied from a record
            for n in self.tool("create", t) if not self.known(t) else []:  # "that <noun>" stays unambiguous
                links = {toolgen.param_name(fk["column"]): e for fk in T["fks"] for e in self.entries
                         if e["table"] == fk["ref_table"] and fk["ref_column"] == self.tables[e["table"]]["key"]}
                if not links or not T["rows"]:
                    continue
                rec = self.rng.choice(T["rows"])
                args = {p: e["row"][self.tables[e["table"]]["key"]] for p, e in links.items() if p in self.prof[n]["refs"]}
                fields = []
                for c in T["columns"]:
                    p = toolgen.param_name(c["name"])
                    if p in args or p not in self.prof[n]["refs"] or rec[c["name"]] is None:
                        if p in self.prof[n]["required"] and p not in args:
                            break
                        continue
                    if p in self.prof[n]["required"] or len(fields) < 2:
                        args[p] = rec[c["name"]]
                        fields.append(f"{human(c['name'])} {quote(rec[c['name']])}")
                else:
                    whom = " and ".join(f"that {e['noun']}" for e in links.values())
                    out.append((2, None, n, args, f"Create a new {human(toolgen.singular(t))} for {whom}"
                                + (f" with {', '.join(fields)}." if fields else "."), t, [self.entries.index(e) for e in links.values()]))
        return [(c[0] * (5 if c[2] in self.targets else 1),) + c[1:] for c in out]

    def step_write(self, cand):
        """Execute a write candidate; True when it became a step."""
        _, i, name, args, sentence, *created = cand
        res = self.run(name, args)
        if not isinstance(res, dict):
            return False
        if created and created[0]:
            table, srcs = created
            for j in srcs:
                self.entries[j]["consumed"] = True
            self.add(name, args, sentence, srcs[0], res, table, write=True)
        else:
            self.add(name, args, sentence, i, write=True)
            self.entries[i].update(row=res, written=True)
        return True


def weighted(rng, cands):
    """Draw one candidate with probability proportional to its weight (the first tuple field)."""
    total = sum(c[0] for c in cands)
    x, acc = rng.random() * total, 0.0
    for c in cands:
        acc += c[0]
        if x < acc:
            return c
    return cands[-1]


def random_walk(env, prof, tables, edges, rng, seed, target, n_writes, targets=()):
    """A weighted random walk: an anchor lookup, reads along strong/weak edges, then n_writes writes; a Walk or None."""
    w = Walk(env, prof, tables, edges, rng, seed, targets)
    anchors = w.anchors()
    if not anchors:
        return None
    _, tool, args, table, row, phrase, used = weighted(rng, anchors)
    res = w.run(tool, args)
    if not (res == [row] or res == row):
        return None
    w.add(tool, args, f"Find {phrase}.", None, row, table, used)
    for _ in range(40):
        if len(w.calls) >= target - n_writes:
            break
        cands = w.reads()
        if len(w.entries) < 3 and rng.random() < 0.15:  # an independent hop: a second anchor, linked by a later write
            cands += [(1, None, a) for a in w.anchors()]
        if not cands:
            break
        c = weighted(rng, cands)
        if c[1] is None:
            _, tool, args, table, row, phrase, used = c[2]
            if w.run(tool, args) in ([row], row):
                w.add(tool, args, f"Also find {phrase}.", None, row, table, used)
        else:
            w.step_read(c)
    for _ in range(n_writes):
        cands = w.writes()
        while cands:
            c = weighted(rng, cands)
            cands.remove(c)
            if w.step_write(c):
                break
        else:
            return None
    return w


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
    {"obs", "db", "items"} (required changes, volatile columns masked) or None."""
    (o1, db1), (o2, db2) = run(seed, False), run(seed, False)
    if db1 is None or db2 is None:
        return None, False
    identical = json.dumps(o1, sort_keys=True) == json.dumps(o2, sort_keys=True) \
        and statelib.state_hash(db1) == statelib.state_hash(db2)
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
    return {"obs": o1, "db": db1, "items": items}, identical


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


def row(env, kind, task_id, seed, query, fmt, ref_solution, answer, ref_db, rubric, verifier, diff, targets, round_):
    """One task row in the 05_tasks format (taxonomy filled in by the stage)."""
    return {"id": task_id, "env_id": env.id, "env_path": f"03_filter/envs/{env.id}", "kind": kind, "query": query,
            "answer_format": fmt, "reference": ref_solution, "expected_answer": answer,
            "expected_state_hash": statelib.state_hash(ref_db), "rubric": rubric, "verifier": verifier,
            "difficulty": diff, "taxonomy": None, "seed": seed, "round": round_, "targets": sorted(targets or []),
            "code_origin": None}  # program tasks: "template" (runs in-process) or "llm" (runs in the sandbox)


def format_sentence(fmt):
    """The strict answer-format sentence every query ends with."""
    if not fmt:
        return 'No data needs to be reported: reply "done" when finished.'
    return "Answer with JSON only: {" + ", ".join(f'"{k}": {v}' for k, v in sorted(fmt.items())) + "}."


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
    task = row(env, "graph", task_id, seed, query, fmt or None, {"calls": w.calls}, answer or None, ref["db"], rubric,
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


def graph_tasks(env, n, rng, targets=None, min_calls=None, id_prefix=None, round_=0, stats=None, attempts=15):
    """n graph tasks (tiers easy/medium/hard in turn; odd ones and every hard one end with writes).

    targets: tool names the walk prefers and must use; min_calls: raise every tier's minimum length."""
    tables, prof, edges = env_model(env)
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


def child_links(prof, tables, parent):
    """[(list tool, its parameter, child table, foreign-key column)] from a parent table to its children."""
    T, out = tables[parent], []
    for n, t in sorted(prof.items()):
        p = next((p for p in t["required"] if t["refs"].get(p) == (parent, T["key"])), None)
        if t["op"] == "list" and p and T["key"]:
            col = next(fk["column"] for fk in tables[t["table"]]["fks"] if toolgen.param_name(fk["column"]) == p)
            out.append((n, p, t["table"], col))
    return out


def family(ctx, rng, need):
    """(anchor, link, children) for a named row with 2..49 children (by a list tool) that pass need(kids, link)."""
    tables, prof = ctx["tables"], ctx["prof"]
    anchors = [a for a in ctx["walk"].anchors() if prof[a[1]]["op"] == "search"]
    rng.shuffle(anchors)
    for a in anchors:
        links = child_links(prof, tables, a[3])
        rng.shuffle(links)
        for link in links:
            kids = [r for r in tables[link[2]]["rows"] if r[link[3]] == a[4][tables[a[3]]["key"]]]
            if 2 <= len(kids) < LIMIT and need(kids, link):
                return a, link, kids
    return None


def head(tables, anchor, link, empty):
    """Program lines: find the named anchor row, then list its children into `rows`."""
    _, tool, args, table, row, _, used = anchor
    col = next(iter(used))
    return [f"found = [r for r in tools.{tool}(**{args!r}, limit=50) if isinstance(r, dict) and r.get({col!r}) == {row[col]!r}]",
            "if not found:", f"    return {empty!r}",
            f"rows = [r for r in tools.{link[0]}({link[1]}=found[0][{tables[table]['key']!r}], limit=50) if isinstance(r, dict)]"]


def program(lines):
    """def solve(tools): with the given body lines."""
    return "def solve(tools):\n" + "".join(f"    {ln}\n" for ln in lines)


def plain_columns(tables, t):
    """A table's columns that are neither its key, nor references, nor automatic stamps."""
    T = tables[t]
    return [c["name"] for c in T["columns"] if c["name"] not in {T["key"]} | {fk["column"] for fk in T["fks"]}
            | toolgen.AUTO_STAMPS]


def tpl_aggregate(ctx, rng):
    """Filter then aggregate: count (and total) a named row's children in one category."""
    tables = ctx["tables"]

    def cats(kids, link):
        t = link[2]
        return [c for c in plain_columns(tables, t) if all(isinstance(k[c], str) for k in kids)
                and toolgen.categorical({r[c] for r in tables[t]["rows"]}, tables[t]["rows"])]
    fam = family(ctx, rng, cats)
    if not fam:
        return None
    a, link, kids = fam
    g = rng.choice(cats(kids, link))
    gv = rng.choice(sorted({k[g] for k in kids}))
    nums = [c for c in plain_columns(tables, link[2]) if all(isinstance(k[c], (int, float, type(None))) for k in kids)
            and any(isinstance(k[c], (int, float)) and not isinstance(k[c], bool) for k in kids)]
    x = rng.choice(nums) if nums else None
    fmt = {"count": "integer", **({"total": "number"} if x else {})}
    empty = {"count": 0, **({"total": 0} if x else {})}
    body = head(tables, a, link, empty) + ["count, total = 0, 0", "for r in rows:", f"    if r[{g!r}] == {gv!r}:", "        count += 1"] \
        + ([f"        total += r[{x!r}] or 0"] if x else []) + ["return {'count': count" + (", 'total': round(total, 2)}" if x else "}")]
    q = f"For {a[5]}: how many of its {human(link[2])} have {human(g)} {quote(gv)}" \
        + (f", and what is the sum of their {human(x)} (rounded to 2 decimals)" if x else "") + "? "
    return {"query": q + format_sentence(fmt), "answer_format": fmt, "program": program(body),
            "check": lambda ans: ans["count"] >= 1}


def allowed_from(env, tool):
    """Statuses a schema transition tool accepts, from its description ("allowed only from [...]"), or None."""
    m = re.search(r"allowed only from (\[[^\]]*\])", env.by_name[tool]["function"].get("description", ""))
    try:
        return set(ast.literal_eval(m.group(1))) if m else None
    except (ValueError, SyntaxError):
        return None


def transitions_of(ctx, table):
    """Transition tools of a table."""
    return [n for n, p in sorted(ctx["prof"].items()) if p["op"] == "transition" and p["table"] == table]


def tpl_update_set(ctx, rng):
    """Conditional updates over a set: move every child in one status on with a transition."""
    tables = ctx["tables"]

    def moves(kids, link):
        C = tables[link[2]]
        return [(tr, sv) for tr in transitions_of(ctx, C["name"]) for sv in sorted({k[C["status"]] for k in kids})
                if sv and sv in (allowed_from(ctx["env"], tr) or {sv})] if C["status"] else []
    fam = family(ctx, rng, moves)
    if not fam:
        return None
    a, link, kids = fam
    C = tables[link[2]]
    tr, sv = rng.choice(moves(kids, link))
    verb = human(tr[: -len(toolgen.ident(toolgen.singular(C["name"]))) - 1])
    body = head(tables, a, link, {"changed": 0}) + [
        "changed = 0", "for r in rows:", f"    if r[{C['status']!r}] == {sv!r}:",
        f"        result = tools.{tr}({key_param(C)}=r[{C['key']!r}])", "        if 'error' not in result:",
        "            changed += 1", "return {'changed': changed}"]
    q = f"For {a[5]}: {verb} every one of its {human(C['name'])} whose {human(C['status'])} is {quote(sv)}, " \
        f"then tell me how many you changed. "
    return {"query": q + format_sentence({"changed": "integer"}), "answer_format": {"changed": "integer"},
            "program": program(body), "check": lambda ans: ans["changed"] >= 1}


def is_date(v):
    """An ISO date(-time) string."""
    return isinstance(v, str) and re.match(r"\d{4}-\d\d-\d\d", v) is not None


def tpl_hop_write(ctx, rng):
    """Multi-hop lookups then a conditional write: best child -> the row it refers to -> branch -> write."""
    tables, prof = ctx["tables"], ctx["prof"]

    def hops(kids, link):
        T = tables[link[2]]
        if not transitions_of(ctx, T["name"]):
            return []
        rank = [c["name"] for c in T["columns"] if c["name"] != T["key"] and c["name"] not in {f["column"] for f in T["fks"]}
                and (all(isinstance(k[c["name"]], (int, float)) and not isinstance(k[c["name"]], bool) for k in kids)
                     or all(is_date(k[c["name"]]) for k in kids))]
        return [(fk, x) for fk in T["fks"] for x in rank
                if fk["column"] != link[3] and fk["ref_table"] in tables and fk["ref_column"] == tables[fk["ref_table"]]["key"]
                and any(p["op"] == "get" and p["table"] == fk["ref_table"] for p in prof.values())
                and [k[x] for k in kids].count(max(k[x] for k in kids)) == 1 and all(k[fk["column"]] for k in kids)]
    fam = family(ctx, rng, hops)
    if not fam:
        return None
    a, link, kids = fam
    C = tables[link[2]]
    fk, x = rng.choice(hops(kids, link))
    Q = tables[fk["ref_table"]]
    best = max(kids, key=lambda k: k[x])
    qrow = next((r for r in Q["rows"] if r[Q["key"]] == best[fk["column"]]), None)
    if qrow is None:
        return None
    nums = [c for c in plain_columns(tables, Q["name"]) if isinstance(qrow[c], (int, float)) and not isinstance(qrow[c], bool)]
    texts = [c for c in plain_columns(tables, Q["name"]) if isinstance(qrow[c], str) and 0 < len(qrow[c]) <= 60]
    if not texts or len(texts) + len(nums) < 2:
        return None
    y = rng.choice(nums) if nums else rng.choice(texts)
    z = rng.choice([c for c in texts if c != y])
    tr = rng.choice(transitions_of(ctx, C["name"]))
    if y in nums:
        thr = qrow[y] if rng.random() < 0.7 else qrow[y] + 1
        cond, said = f"(other[{y!r}] or 0) >= {thr!r}", f"is at least {thr}"
    else:
        v = qrow[y] if rng.random() < 0.7 else rng.choice(sorted({r[y] for r in Q["rows"] if isinstance(r[y], str)}))
        cond, said = f"other[{y!r}] == {v!r}", f"is {quote(v)}"
    zk = re.sub(r"[^a-z0-9]+", "_", f"{toolgen.singular(Q['name'])} {z}".lower()).strip("_")
    qn, cn = human(toolgen.singular(Q["name"])), human(toolgen.singular(C["name"]))
    verb = human(tr[: -len(toolgen.ident(toolgen.singular(C["name"]))) - 1])
    fmt = {zk: "string", "acted": "boolean"}
    get_q = next(n for n, p in sorted(prof.items()) if p["op"] == "get" and p["table"] == Q["name"])
    body = head(tables, a, link, {zk: "", "acted": False}) + [
        f"best = max(rows, key=lambda r: r[{x!r}])", f"other = tools.{get_q}({key_param(Q)}=best[{fk['column']!r}])",
        "acted = False", f"if {cond}:", f"    result = tools.{tr}({key_param(C)}=best[{C['key']!r}])",
        "    acted = 'error' not in result", f"return {{{zk!r}: other[{z!r}], 'acted': acted}}"]
    rank = "most recent" if is_date(best[x]) else "highest"
    q = f"For {a[5]}: among its {human(C['name'])}, take the one with the {rank} {human(x)} and look up the {qn} it " \
        f"refers to. If that {qn}'s {human(y)} {said}, {verb} that {cn}; otherwise change nothing. " \
        f"Tell me the {qn}'s {human(z)} ({zk}) and whether you made the change (acted). "
    return {"query": q + format_sentence(fmt), "answer_format": fmt, "program": program(body), "check": lambda ans: True}


TEMPLATES = (tpl_aggregate, tpl_update_set, tpl_hop_write)


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
    task = row(env, "program", task_id, seed, spec["query"], fmt, {"program": spec["program"]}, answer, ref["db"], None,
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


def program_tasks(env, n, rng, targets=None, id_prefix=None, round_=0, stats=None, attempts=4):
    """n program tasks from the templates (filter then aggregate, conditional updates over a set, hops then a write)."""
    model = env_model(env)
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
