"""Tool dependency graphs of an environment and weighted random walks over its tools (for lib.taskgen)."""
import json
import re
import sqlite3

from lib import toolgen

WEIGHTS = {"strong": 3, "weak": 2, "independent": 1}
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


def format_sentence(fmt):
    """The strict answer-format sentence every query ends with."""
    if not fmt:
        return 'No data needs to be reported: reply "done" when finished.'
    return "Answer with JSON only: {" + ", ".join(f'"{k}": {v}' for k, v in sorted(fmt.items())) + "}."


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
        text = "\0".join(vals)  # x is in exactly one value (its own) iff it occurs once in the joined text

        def once(x):
            if "\0" in x:
                return sum(x in v for v in vals) == 1
            first = text.find(x)
            return first >= 0 and text.find(x, first + 1) < 0
        cache[col] = [r for r in T["rows"] if isinstance(r[col], str) and 3 <= len(r[col]) <= 60 and once(r[col].lower())]
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
