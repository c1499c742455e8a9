"""Canonical state hash and row-level diff of SQLite states, for verifiers, rewards and replay checks."""
import hashlib
import json


def tables(con):
    """User tables of a database, sorted, with their CREATE statements."""
    rows = con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' "
                       "AND name NOT LIKE 'sqlite_stat%' ORDER BY name").fetchall()
    return [tuple(r.values()) if isinstance(r, dict) else tuple(r) for r in rows]


def _canon(value):
    """A JSON-safe canonical form of one SQLite value (bytes as hex)."""
    return {"hex": value.hex()} if isinstance(value, bytes) else value


def table_rows(con, table):
    """All rows of a table as dicts, in canonical order (sorted by their JSON), independent of rowid."""
    cur = con.execute(f'SELECT * FROM "{table}"')
    cols = [d[0] for d in cur.description]
    rows = []
    for r in cur.fetchall():
        values = r.values() if isinstance(r, dict) else r
        rows.append({c: _canon(v) for c, v in zip(cols, values)})
    return sorted(rows, key=lambda d: json.dumps(d, sort_keys=True))


def _hex(value):
    """json.dumps fallback: BLOBs as hex."""
    if isinstance(value, bytes):
        return {"hex": value.hex()}
    raise TypeError(f"unexpected SQLite value {value!r}")


def _stored_bytes(con, name):
    """A table's rows in storage order, encoded: equal bytes mean equal rows, with no sort needed."""
    cur = con.cursor()
    cur.row_factory = None
    return json.dumps(cur.execute(f'SELECT * FROM "{name}"').fetchall(), ensure_ascii=False, default=_hex).encode()


def _table_bytes(con, name):
    """A table's rows sorted by all columns (in SQLite), encoded by one json.dumps call."""
    cur = con.cursor()
    cur.row_factory = None  # plain tuples, whatever the connection's factory
    cols = [r[1] for r in cur.execute(f'PRAGMA table_info("{name}")').fetchall()]
    order = ", ".join(f'"{c}"' for c in cols)
    rows = cur.execute(f'SELECT * FROM "{name}" ORDER BY {order}').fetchall()
    return json.dumps(rows, ensure_ascii=False, default=_hex).encode()


def state_hash(con):
    """sha256 over every table's schema and sorted rows: equal iff the states hold the same data.

    This runs on every reward, so it stays cheap: a 1 MB database hashes in milliseconds.
    """
    h = hashlib.sha256()
    for name, sql in tables(con):
        h.update(f"{name}\n{sql}\n".encode())
        h.update(_table_bytes(con, name))
    return h.hexdigest()


def primary_key(con, table):
    """Primary-key column names of a table (empty when it has none)."""
    info = con.execute(f'PRAGMA table_info("{table}")').fetchall()
    info = [tuple(r.values()) if isinstance(r, dict) else tuple(r) for r in info]
    return [r[1] for r in sorted(info, key=lambda r: r[5]) if r[5] > 0]


def diff(before, after):
    """Row-level diff {table: {"added": [...], "removed": [...], "changed": [{"key", "before", "after"}]}}.

    Rows are matched by primary key; tables without one are compared as multisets of rows.
    Tables that did not change are left out, so an empty dict means "same state".
    """
    out = {}
    names = sorted({t for t, _ in tables(before)} | {t for t, _ in tables(after)})
    in_before, in_after = {n for n, _ in tables(before)}, {n for n, _ in tables(after)}
    for t in names:
        if t in in_before and t in in_after and (_stored_bytes(before, t) == _stored_bytes(after, t)
                                                 or _table_bytes(before, t) == _table_bytes(after, t)):
            continue  # the cheap checks first: most tables of most diffs are unchanged
        old = table_rows(before, t) if t in in_before else []
        new = table_rows(after, t) if t in in_after else []
        pk = primary_key(after if new else before, t)
        key = (lambda r: json.dumps([r[c] for c in pk])) if pk else (lambda r: json.dumps(r, sort_keys=True))
        o, n = {}, {}
        for r in old:
            o.setdefault(key(r), []).append(r)
        for r in new:
            n.setdefault(key(r), []).append(r)
        added, removed, changed = [], [], []
        for k in sorted(set(o) | set(n)):
            a, b = o.get(k, []), n.get(k, [])
            if pk and a and b:
                if a != b:
                    changed.append({"key": json.loads(k), "before": a[0], "after": b[0]})
            else:  # identical rows grouped under one key: only their counts can differ
                removed += a[len(b):]
                added += b[len(a):]
        if added or removed or changed:
            out[t] = {"added": added, "removed": removed, "changed": changed}
    return out
