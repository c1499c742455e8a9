"""Tools from the schema: read an environment database's tables, keys and foreign keys and write a readable tools.py
plus tool_tests.py (a happy and an error test per tool, on real rows). Used by 02_build_tools.py (offline path and
the LLM path's safety net). Identifiers come only from the schema and are quoted; argument values are always bound."""
import keyword
import re

# Lifecycle order of common status values: a transition goes forward, never out of a terminal status.
STATUS_ORDER = ["draft", "new", "open", "pending", "requested", "placed", "booked", "reserved", "scheduled",
                "submitted", "confirmed", "approved", "paid", "active", "in_progress", "processing", "shipped",
                "delivered", "completed", "done", "resolved", "closed", "returned", "refunded", "cancelled",
                "canceled", "rejected", "no_show", "expired", "failed"]
TERMINAL = {"closed", "returned", "refunded", "cancelled", "canceled", "rejected", "no_show", "expired", "failed"}
FULFILLED = {"shipped", "delivered", "completed", "done", "resolved"}  # too late to cancel once here
VERBS = {"confirmed": "confirm", "approved": "approve", "paid": "pay_for", "active": "activate", "shipped": "ship",
         "delivered": "deliver", "completed": "complete", "done": "finish", "resolved": "resolve", "closed": "close",
         "returned": "return", "refunded": "refund", "cancelled": "cancel", "canceled": "cancel", "rejected": "reject",
         "scheduled": "schedule", "processing": "process", "in_progress": "start", "expired": "expire",
         "failed": "fail", "no_show": "mark_no_show", "submitted": "submit", "booked": "book", "reserved": "reserve"}
RESERVED = {"db", "limit", "sort_by", "descending", "column", "group_by"}
PRELUDE = '''"""Tools of the {title} environment, generated from its SQLite schema by lib/toolgen.py."""
import sqlite3
from typing import Optional


def _q(name):
    """Quote an SQL identifier (identifiers come from the schema, never from arguments)."""
    return '"' + name.replace('"', '""') + '"'


def _check(value, kind, name):
    """Type-check one argument: tools are also called without schema validation (tool tests)."""
    ok = isinstance(value, (int, float) if kind is float else kind) and not (isinstance(value, bool) and kind is not bool)
    if not ok:
        raise ValueError(f"{{name}} must be {{kind.__name__}}, got {{value!r}}")


def _one(db, table, key, value):
    """The row of `table` whose `key` equals `value`; ValueError when there is none."""
    row = db.execute(f"SELECT * FROM {{_q(table)}} WHERE {{_q(key)}} = ?", (value,)).fetchone()
    if row is None:
        raise ValueError(f"no {{table}} row with {{key}} = {{value!r}}")
    return row


def _search(db, table, where, sort_by, descending, limit, sortable, key):
    """Rows matching `where` ([(sql, value)]), sorted by an allowed column then the key, at most `limit`."""
    if sort_by is not None and sort_by not in sortable:
        raise ValueError(f"cannot sort by {{sort_by!r}}; choose one of {{sortable}}")
    if not 1 <= limit <= 50:
        raise ValueError("limit must be between 1 and 50")
    order = (f"{{_q(sort_by)}} {{'DESC' if descending else 'ASC'}}, " if sort_by else "") + _q(key)
    sql = f"SELECT * FROM {{_q(table)}} WHERE 1=1" + "".join(f" AND {{w}}" for w, _ in where)
    return db.execute(sql + f" ORDER BY {{order}} LIMIT ?", [v for _, v in where] + [limit]).fetchall()


def _summarize(db, table, column, group_by, numeric, groupable):
    """Count rows (and sum/avg/min/max of a numeric column) per group."""
    if column is not None and column not in numeric:
        raise ValueError(f"cannot aggregate {{column!r}}; choose one of {{numeric}}")
    if group_by is not None and group_by not in groupable:
        raise ValueError(f"cannot group by {{group_by!r}}; choose one of {{groupable}}")
    cols = ["COUNT(*) AS count"]
    if column:
        c = _q(column)
        cols += [f"ROUND(SUM({{c}}), 2) AS sum", f"ROUND(AVG({{c}}), 2) AS avg", f"MIN({{c}}) AS min", f"MAX({{c}}) AS max"]
    head = f"{{_q(group_by)}} AS {{_q(group_by)}}, " if group_by else ""
    tail = f" GROUP BY {{_q(group_by)}} ORDER BY {{_q(group_by)}}" if group_by else ""
    return db.execute(f"SELECT {{head}}{{', '.join(cols)}} FROM {{_q(table)}}{{tail}}").fetchall()


def _insert(db, table, values, refs, key, new_key):
    """Insert a row after checking its references exist; return the stored row."""
    for column, (ref_table, ref_column) in refs.items():
        if values.get(column) is not None:
            _one(db, ref_table, ref_column, values[column])
    if new_key is not None:
        values = {{key: new_key, **values}}
    names = ", ".join(_q(c) for c in values)
    cur = db.execute(f"INSERT INTO {{_q(table)}} ({{names}}) VALUES ({{', '.join('?' for _ in values)}})", list(values.values()))
    if key is None:
        return values
    return _one(db, table, key, values[key] if new_key is not None else cur.lastrowid)


def _update(db, table, key, value, changes, refs):
    """Change some fields of one row after checking it and the new references exist."""
    _one(db, table, key, value)
    changes = {{c: v for c, v in changes.items() if v is not None}}
    if not changes:
        raise ValueError("nothing to update: give at least one field")
    for column, (ref_table, ref_column) in refs.items():
        if column in changes:
            _one(db, ref_table, ref_column, changes[column])
    sets = ", ".join(f"{{_q(c)}} = ?" for c in changes)
    db.execute(f"UPDATE {{_q(table)}} SET {{sets}} WHERE {{_q(key)}} = ?", list(changes.values()) + [value])
    return _one(db, table, key, value)


def _delete(db, table, key, value, children):
    """Delete one row unless other rows still reference it."""
    row = _one(db, table, key, value)
    for child, column, ref_column in children:
        n = db.execute(f"SELECT COUNT(*) AS n FROM {{_q(child)}} WHERE {{_q(column)}} = ?", (row[ref_column],)).fetchone()["n"]
        if n:
            raise ValueError(f"{{table}} {{value!r}} is still referenced by {{n}} {{child}} row(s)")
    db.execute(f"DELETE FROM {{_q(table)}} WHERE {{_q(key)}} = ?", (value,))
    return {{"deleted": value}}


def _transition(db, table, key, value, column, target, allowed):
    """Move one row's status to `target` if its current status allows it."""
    row = _one(db, table, key, value)
    if row[column] not in allowed:
        raise ValueError(f"{{table}} {{value!r}} is {{row[column]!r}}; only {{allowed}} can become {{target!r}}")
    db.execute(f"UPDATE {{_q(table)}} SET {{_q(column)}} = ? WHERE {{_q(key)}} = ?", (target, value))
    return _one(db, table, key, value)
'''


# ---------------------------------------------------------------------------- reading the schema

def pytype(decl):
    """Python type name for a declared SQLite column type (by SQLite's affinity rules)."""
    d = (decl or "").upper()
    if "BOOL" in d:
        return "bool"
    if "INT" in d:
        return "int"
    if any(k in d for k in ("REAL", "FLOA", "DOUB", "NUM", "DEC")):
        return "float"
    return "str"


def singular(word):
    """A rough English singular of a table name."""
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def ident(name):
    """A table name as part of a Python function name."""
    return re.sub(r"\W+", "_", name).strip("_").lower() or "table"


def param_name(column):
    """A safe Python parameter name for a column."""
    name = re.sub(r"\W", "_", column).strip("_") or "value"
    return f"{name}_value" if name in RESERVED or keyword.iskeyword(name) or name[0].isdigit() else name


def categorical(distinct, rows):
    """Few distinct values compared to the rows: worth an exact filter or a group-by."""
    return 1 < len(distinct) <= min(12, len(rows) // 2)


def read_schema(con):
    """Tables of a database (without _meta/sqlite_*) with columns, key, foreign keys, status values and rows."""
    names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE "
                                       "'sqlite_%' AND name != '_meta' ORDER BY name")]
    tables = {}
    for t in names:
        info = con.execute(f'PRAGMA table_info("{t}")').fetchall()  # cid, name, type, notnull, default, pk
        cols = [{"name": r[1], "type": pytype(r[2]), "notnull": bool(r[3]), "default": r[4], "pk": r[5]} for r in info]
        pk = [c["name"] for c in sorted(cols, key=lambda c: c["pk"]) if c["pk"]]
        fks = [{"column": r[3], "ref_table": r[2], "ref_column": r[4]}
               for r in con.execute(f'PRAGMA foreign_key_list("{t}")').fetchall() if r[4]]
        unique = set()
        for idx in con.execute(f'PRAGMA index_list("{t}")').fetchall():
            if idx[2]:  # a unique index: its single column must get fresh values in create tests
                cs = con.execute(f'PRAGMA index_info("{idx[1]}")').fetchall()
                unique |= {cs[0][2]} if len(cs) == 1 else set()
        key = pk[0] if len(pk) == 1 else None
        order = f'"{key}"' if key else "rowid"
        rows = [dict(zip([c["name"] for c in cols], r)) for r in con.execute(f'SELECT * FROM "{t}" ORDER BY {order}')]
        status = next((c["name"] for c in cols if c["name"] in ("status", "state") and c["type"] == "str"), None)
        tables[t] = {"name": t, "columns": cols, "key": key, "fks": fks, "unique": unique - {key}, "rows": rows,
                     "status": status, "statuses": sorted({r[status] for r in rows if r[status]}) if status else []}
    for t in tables.values():  # who references me: for delete protection and list-related tools
        t["children"] = [(c["name"], fk["column"], fk["ref_column"]) for c in tables.values() for fk in c["fks"]
                         if fk["ref_table"] == t["name"]]
    return tables


def transitions(statuses):
    """{target: allowed current statuses} for the observed status values (forward moves, none out of terminal)."""
    rank = {s: i for i, s in enumerate(STATUS_ORDER)}
    ordered = sorted(statuses, key=lambda s: (rank.get(s, len(rank)), s))
    out = {}
    for i, target in enumerate(ordered[1:], 1):
        before = [s for s in ordered[:i] if s not in TERMINAL]
        if target in ("cancelled", "canceled", "rejected"):
            before = [s for s in before if s not in FULFILLED]
        if target == "refunded":
            before = [s for s in before if s in FULFILLED | {"paid"}] or before
        if before:
            out[target] = before
    return out


# ---------------------------------------------------------------------------- writing tools and tests

AUTO_STAMPS = {"created_at", "updated_at", "created_on", "modified_at"}  # filled with db.now(), not parameters


def qi(name):
    """An SQL identifier quoted for embedding in generated code."""
    return '"' + name.replace('"', '""') + '"'


def fn_source(name, summary, params, body, returns):
    """Source of one tool: typed signature, Google docstring with every parameter in Args, body lines."""
    sig = ["db: sqlite3.Connection"] + [f"{p}: {a}" + (f" = {d}" if d is not None else "") for p, a, d, _ in params]
    args = "".join(f"        {p}: {doc}\n" for p, _, _, doc in params)
    doc = f'    """{summary}\n\n' + (f"    Args:\n{args}\n" if params else "") + f'    Returns:\n        {returns}\n    """\n'
    ret = "list" if returns.startswith("A list") else "dict"
    return f"\n\ndef {name}({', '.join(sig)}) -> {ret}:\n{doc}" + "".join(f"    {b}\n" for b in body)


def test_source(name, lines):
    """Source of one unit test (run on a fresh episode with the tools bound to it)."""
    return f"\n\ndef test_{name}(db, tools):\n" + "".join(f"    {ln}\n" for ln in lines)


def missing(col):
    """A value of the column's type that no row holds."""
    return -987654 if col["type"] in ("int", "float") else "__missing__"


def fresh(col, value, t):
    """A new valid value for a column in create/update tests (unique columns get one no row has)."""
    if col["type"] == "bool":
        return not value
    if col["type"] in ("int", "float"):
        top = max([r[col["name"]] for r in t["rows"] if isinstance(r[col["name"]], (int, float))] or [0])
        return top + 1 if col["name"] in t["unique"] else (value or 0) + 1
    return f"{value} (new)"


def count(table):
    """Test expression: the number of rows in a table."""
    return f"db.execute('SELECT COUNT(*) AS n FROM {qi(table)}').fetchone()['n']"


def table_tools(t, tables):
    """[(name, kind, tables written, tool source, tests source)] for every tool derived from one table."""
    s, name, key, rows = ident(singular(t["name"])), t["name"], t["key"], t["rows"]
    tn, cols = ident(name), {c["name"]: c for c in t["columns"]}
    refs = {fk["column"]: (fk["ref_table"], fk["ref_column"]) for fk in t["fks"]}
    # The key's parameter reads "order_id" for a key named id, unless a column already has that name.
    kp = param_name(f"{s}_id" if key == "id" and f"{s}_id" not in cols else key)
    kcol, first = cols.get(key), rows[0] if rows else None
    kdoc = f"The {s}'s {key} ({name}.{key})" + (f", e.g. {first[key]!r}." if first else ".")
    checks = lambda ps: [f"_check({p}, {cols[c]['type']}, {p!r})" if req else
                         f"if {p} is not None:\n        _check({p}, {cols[c]['type']}, {p!r})" for c, p, req in ps]
    out = []

    def add(tool, kind, summary, params, body, returns, tests):
        out.append((tool, kind, [name] if kind == "write" else [], fn_source(tool, summary, params, body, returns),
                    "".join(test_source(f"{tool}_{k}", v) for k, v in tests.items() if v)))

    if key:
        add(f"get_{s}", "read", f"Get one {s} by its {key}.", [(kp, kcol["type"], None, kdoc)],
            [f"return _one(db, {name!r}, {key!r}, {kp})"], f"The {s}'s fields: {', '.join(cols)}.",
            {"ok": first and [f"assert tools.get_{s}({kp}={first[key]!r})[{key!r}] == {first[key]!r}"],
             "error": [f"assert tools.get_{s}({kp}={missing(kcol)!r})['error'] == 'tool_error'"]})

    # search: exact filters on references and low-cardinality text, ranges on numbers, substring on one text column
    params, where = [], []
    for c in (c for c in t["columns"] if c["name"] != key):
        p, q, distinct = param_name(c["name"]), qi(c["name"]), {r[c["name"]] for r in rows}
        if c["name"] in refs or (c["type"] in ("str", "bool") and categorical(distinct, rows)):
            params.append((p, f"Optional[{c['type']}]", "None", f"Only {name} whose {c['name']} equals this."))
            where.append((f"{q} = ?", p))
        elif c["type"] in ("int", "float"):
            params += [(f"min_{p}", "Optional[float]", "None", f"Only {name} with {c['name']} at least this."),
                       (f"max_{p}", "Optional[float]", "None", f"Only {name} with {c['name']} at most this.")]
            where += [(f"{q} >= ?", f"min_{p}"), (f"{q} <= ?", f"max_{p}")]
        elif not any("LIKE" in w for w, _ in where):
            params.append((f"{p}_contains", "Optional[str]", "None", f"Only {name} whose {c['name']} contains this text."))
            where.append((f"{q} LIKE ?", f"None if {p}_contains is None else '%' + {p}_contains + '%'"))
    sortable = [c for c in cols if cols[c]["type"] != "bool"]
    params += [("sort_by", "Optional[str]", "None", f"Column to sort by. (choices: {sortable})".replace("'", '"')),
               ("descending", "bool", "False", "Sort from largest to smallest."),
               ("limit", "int", "10", "At most this many rows (1-50).")]
    body = ["where = [(sql, v) for sql, v in ["] + [f"    ({w!r}, {v})," for w, v in where] + ["] if v is not None]",
            f"return _search(db, {name!r}, where, sort_by, descending, limit, {sortable!r}, {(key or 'rowid')!r})"]
    num = next((c for c in sortable if cols[c]["type"] in ("int", "float") and cols[c]["notnull"]), None)
    add(f"search_{tn}", "read", f"Find {name}, optionally filtered and sorted.", params, body, f"A list of matching {name}.",
        {"ok": [f"rows = tools.search_{tn}(limit=3" + (f", sort_by={num!r})" if num else ")"),
                f"assert len(rows) == {min(3, len(rows))}"]
               + ([f"assert [r[{num!r}] for r in rows] == sorted(r[{num!r}] for r in rows)"] if num else []),
         "error": [f"assert tools.search_{tn}(sort_by='__nope__')['error'] == 'tool_error'"]})

    # related records: this table's rows that point at one parent row
    for col, (ref, ref_col) in refs.items():
        tool, p = f"list_{tn}_of_{ident(singular(ref))}", param_name(col)
        if any(o[0] == tool for o in out) or sum(r == ref for r, _ in refs.values()) > 1:
            tool = f"list_{tn}_by_{p}"
        n = {}
        for r in rows:
            n[r[col]] = n.get(r[col], 0) + 1
        v = next((r[col] for r in rows if r[col] is not None), None)
        add(tool, "read", f"List the {name} of one {singular(ref)} ({name}.{col} -> {ref}.{ref_col}).",
            [(p, cols[col]["type"], None, f"The {singular(ref)}'s {ref_col}."), ("limit", "int", "20", "At most this many rows (1-50).")],
            [f"_one(db, {ref!r}, {ref_col!r}, {p})", f"return _search(db, {name!r}, [({qi(col) + ' = ?'!r}, {p})], None, False, limit, [], {(key or 'rowid')!r})"],
            f"A list of {name} rows.",
            {"ok": v is not None and [f"rows = tools.{tool}({p}={v!r})", f"assert len(rows) == {min(n[v], 20)} and all(r[{col!r}] == {v!r} for r in rows)"],
             "error": [f"assert tools.{tool}({p}={missing(cols[col])!r})['error'] == 'tool_error'"]})

    # aggregates: counts and numeric summaries per group
    numeric = [c for c in cols if cols[c]["type"] in ("int", "float") and c != key and c not in refs]
    groupable = [c for c in cols if c in refs or c == t["status"] or (cols[c]["type"] == "str" and c != key
                                                                     and categorical({r[c] for r in rows}, rows))]
    params = ([("column", "Optional[str]", "None", f"Numeric column to sum and average. (choices: {numeric})".replace("'", '"'))] if numeric else []) \
        + ([("group_by", "Optional[str]", "None", f"Column to group by. (choices: {groupable})".replace("'", '"'))] if groupable else [])
    if params:
        g = f"group_by={groupable[0]!r}" if groupable else f"column={numeric[0]!r}"
        add(f"summarize_{tn}", "read", f"Count {name} (and sum/average a numeric column), optionally per group.",
            params, [f"return _summarize(db, {name!r}, {'column' if numeric else 'None'}, {'group_by' if groupable else 'None'}, {numeric!r}, {groupable!r})"],
            "A list of groups: {group column, count[, sum, avg, min, max]}.",
            {"ok": [f"rows = tools.summarize_{tn}({g})", f"assert sum(r['count'] for r in rows) == {len(rows)}"],
             "error": [f"assert tools.summarize_{tn}({g.split('=')[0]}='__nope__')['error'] == 'tool_error'"]})
    write_tools(t, tables, s, kp, kcol, first, cols, refs, checks, add)
    return out


def write_tools(t, tables, s, kp, kcol, first, cols, refs, checks, add):
    """Create (reference and type checks), update, delete (reference protection) and status transitions."""
    name, key, rows, status = t["name"], t["key"], t["rows"], t["status"]
    flow = transitions(t["statuses"]) if status and key else {}
    initial = sorted(t["statuses"], key=lambda v: (STATUS_ORDER.index(v) if v in STATUS_ORDER else 99, v))[:1]
    fields = [c for c in t["columns"] if c["name"] != key and c["name"] not in AUTO_STAMPS
              and not (c["name"] == status and initial)]
    req = [c for c in fields if c["notnull"] and c["default"] is None]
    opt = [c for c in fields if c not in req]
    plausible = {"str": "x", "int": 1, "float": 1.0, "bool": True}
    sample = {c["name"]: first[c["name"]] if first else plausible[c["type"]] for c in fields}
    sample.update({c["name"]: fresh(c, sample[c["name"]], t) for c in fields if c["name"] in t["unique"]})

    params = [(param_name(c["name"]), c["type"], None, f"The new {s}'s {c['name']}.") for c in req] + \
             [(param_name(c["name"]), f"Optional[{c['type']}]", "None", f"The new {s}'s {c['name']} (optional).") for c in opt]
    stamps = [f"values[{c!r}] = db.now()" for c in cols if c in AUTO_STAMPS]
    if key is None:
        new_key = "None"
    elif kcol["type"] == "int":
        new_key = f"db.execute('SELECT COALESCE(MAX({qi(key)}), 0) + 1 AS n FROM {qi(name)}').fetchone()['n']"
    else:
        prefix = re.match(r"[A-Za-z_-]*", str(first[key]))[0] if first else ""
        new_key = f"db.new_id({(prefix or s[:3] + '_')!r})"
    body = checks([(c["name"], param_name(c["name"]), c in req) for c in fields]) + \
        ["values = {k: v for k, v in {" + ", ".join(f"{c['name']!r}: {param_name(c['name'])}" for c in fields) + "}.items() if v is not None}"] + \
        ([f"values[{status!r}] = {initial[0]!r}"] if initial else []) + stamps + \
        [f"return _insert(db, {name!r}, values, {refs!r}, {key!r}, {new_key})"]
    kw = {param_name(c["name"]): sample[c["name"]] for c in req}
    bad = next((c for c in req if c["name"] in refs), None) or next(iter(req or opt), None)
    wrong = dict(kw, **{param_name(bad["name"]): missing(bad) if bad["name"] in refs else
                        ("abc" if bad["type"] != "str" else 12345)}) if bad else None
    one = next(iter(kw), None)
    add(f"create_{s}", "write", f"Create a {s}" + (f" (status {initial[0]!r})" if initial else "") + "; referenced rows must exist.",
        params, body, f"The new {s}'s fields.",
        {"ok": first and [f"row = tools.create_{s}(**{kw!r})"] + ([f"assert row[{req[0]['name']!r}] == {kw[one]!r}"] if one else [])
               + [f"assert {count(name)} == {len(rows) + 1}"],
         "error": wrong and [f"assert tools.create_{s}(**{wrong!r})['error'] == 'tool_error'", f"assert {count(name)} == {len(rows)}"]})
    if not key:
        return

    upd = [c for c in fields if c["name"] != status]
    if upd:
        params = [(kp, kcol["type"], None, f"The {s}'s {key}.")] + \
                 [(param_name(c["name"]), f"Optional[{c['type']}]", "None", f"New {c['name']} (unchanged if omitted).") for c in upd]
        body = checks([(c["name"], param_name(c["name"]), False) for c in upd]) + \
            ["changes = {" + ", ".join(f"{c['name']!r}: {param_name(c['name'])}" for c in upd) + "}",
             f"return _update(db, {name!r}, {key!r}, {kp}, changes, {refs!r})"]
        c = next((c for c in upd if c["name"] not in refs), upd[0])
        new = fresh(c, first[c["name"]], t) if first and c["name"] not in refs else (first or {}).get(c["name"])
        p = param_name(c["name"])
        add(f"update_{s}", "write", f"Change some fields of one {s}; referenced rows must exist.", params, body, f"The updated {s}.",
            {"ok": first and new is not None and [f"row = tools.update_{s}({kp}={first[key]!r}, {p}={new!r})", f"assert row[{c['name']!r}] == {new!r}"],
             "error": [f"assert tools.update_{s}({kp}={missing(kcol)!r}, {p}={(new if new is not None else 1)!r})['error'] == 'tool_error'"]})

    children = [list(c) for c in t["children"]]
    taken = {(ref_col, r[col]) for ch, col, ref_col in children for r in tables[ch]["rows"]}
    free = next((r for r in rows if not any((rc, r[rc]) in taken for _, _, rc in children)), None)
    used = next((r for r in rows if any((rc, r[rc]) in taken for _, _, rc in children)), None)
    add(f"delete_{s}", "write", f"Delete one {s}; refused while other records still reference it.", [(kp, kcol["type"], None, f"The {s}'s {key}.")],
        [f"return _delete(db, {name!r}, {key!r}, {kp}, {children!r})"], "{deleted: the key}.",
        {"ok": free and [f"assert tools.delete_{s}({kp}={free[key]!r}) == {{'deleted': {free[key]!r}}}",
                         f"assert {count(name)} == {len(rows) - 1}"],
         "error": [f"assert tools.delete_{s}({kp}={(used[key] if used else missing(kcol))!r})['error'] == 'tool_error'",
                   f"assert {count(name)} == {len(rows)}"]})

    for target, allowed in flow.items():
        tool = VERBS.get(target, "mark_" + param_name(target)) + "_" + s
        can = next((r for r in rows if r[status] in allowed), None)
        cannot = next((r for r in rows if r[status] not in allowed), None)
        add(tool, "write", f"Set a {s}'s {status} to {target!r}; allowed only from {allowed}.", [(kp, kcol["type"], None, f"The {s}'s {key}.")],
            [f"return _transition(db, {name!r}, {key!r}, {kp}, {status!r}, {target!r}, {allowed!r})"], f"The {s} with {status} {target!r}.",
            {"ok": can and [f"assert tools.{tool}({kp}={can[key]!r})[{status!r}] == {target!r}"],
             "error": [f"assert tools.{tool}({kp}={(cannot[key] if cannot else missing(kcol))!r})['error'] == 'tool_error'"]})



def generate(con, title):
    """(tools.py source, tool_tests.py source, [{name, kind, tables}]) for the database behind `con`."""
    tables = read_schema(con)
    tools = [tool for t in tables.values() for tool in table_tools(t, tables)]
    seen, unique = set(), []
    for tool in tools:  # two tables can derive the same name (e.g. singular clashes): keep the first
        if tool[0] not in seen:
            seen.add(tool[0])
            unique.append(tool)
    source = PRELUDE.format(title=title) + "".join(src for _, _, _, src, _ in unique)
    tests = f'"""Unit tests of the {title} tools, generated by lib/toolgen.py: each runs on a fresh episode."""\n' \
        + "".join(tst for *_, tst in unique)
    return source, tests, [{"name": n, "kind": k, "tables": w} for n, k, w, _, _ in unique]
