"""Parsed tables -> related SQLite tables: type inference, primary keys, foreign keys by name and value
containment, the largest FK-connected group, and writing with declared FKs (parsers live in lib/parsers.py).

Values keep their parsed order; nothing depends on hashing.
"""
import json
import re
from dataclasses import dataclass, field

NULLS = {"", "NA", "N/A", "n/a", "null", "NULL", "NaN", "nan", "-", "--", "\u2014"}  # case matters: Na is sodium
INT_RE = re.compile(r"^[+-]?(0|[1-9]\d*)$")
FLOAT_RE = re.compile(r"^[+-]?(\d+\.\d*|\.\d+|(0|[1-9]\d*))([eE][+-]?\d+)?$")


@dataclass
class Table:
    """One parsed table; rows are lists aligned with columns."""
    name: str
    columns: list
    rows: list
    source: str = ""
    typed: bool = False       # values come typed (JSON, YAML, SQL), so strings are not re-inferred
    types: dict = field(default_factory=dict)
    pk: str = None
    fks: list = field(default_factory=list)     # (column, ref_table, ref_column)
    hints: list = field(default_factory=list)   # FKs declared by the document itself
    notes: list = field(default_factory=list)


# ---------------------------------------------------------------------------- names

def ident(text, fallback="col"):
    """A lower_snake SQL identifier from arbitrary text."""
    s = re.sub(r"(?<=[a-z0-9])(?=[A-Z][a-z])", "_", str(text).strip())  # camelCase -> camel_Case
    s = re.sub(r"[^0-9a-zA-Z]+", "_", s).strip("_").lower()
    return (f"t_{s}" if s[:1].isdigit() else s) or fallback


def singular(name):
    """Naive English singular of a snake name's last word (orders -> order, categories -> category)."""
    for suffix, repl in (("ies", "y"), ("sses", "ss"), ("xes", "x"), ("ches", "ch"), ("shes", "sh"), ("s", "")):
        if name.endswith(suffix) and not name.endswith("ss") and len(name) > len(suffix) + 1:
            return name[: -len(suffix)] + repl
    return name


def unique_names(names):
    """Sanitised, de-duplicated column names (a, a -> a, a_2)."""
    out = []
    for i, n in enumerate(names):
        base = ident(n, f"col_{i + 1}")
        name, k = base, 2
        while name in out:
            name, k = f"{base}_{k}", k + 1
        out.append(name)
    return out


def make_table(name, header, rows, source, typed=False):
    """A Table from a header and rows, repairing ragged rows (pad short, cut long) with a note."""
    cols, fixed, short, long_ = unique_names(header), [], 0, 0
    for r in rows:
        r = list(r)
        while len(r) > len(cols) and (r[-1] is None or str(r[-1]).strip() == ""):
            r.pop()  # trailing empty cells are a formatting wart, not data
        short, long_ = short + (len(r) < len(cols)), long_ + (len(r) > len(cols))
        fixed.append((r + [None] * len(cols))[: len(cols)])
    t = Table(ident(name, "table"), cols, fixed, source, typed)
    if short or long_:
        t.notes.append(f"ragged rows: padded {short}, truncated {long_}")
    return t


# ---------------------------------------------------------------------------- types, keys, relations

def _key(v):
    """Comparable text form of a key value (1, 1.0 and "1" meet)."""
    return str(int(v)) if isinstance(v, float) and v.is_integer() else str(v)


def infer_types(t):
    """Declare each column INTEGER, REAL or TEXT and convert its values; textual nulls become NULL."""
    for j, col in enumerate(t.columns):
        for r in t.rows:
            v = r[j]
            if isinstance(v, str) and not t.typed:
                v = v.strip()
                v = None if v in NULLS else v
            r[j] = None if isinstance(v, float) and v != v else v
        vals = [r[j] for r in t.rows if r[j] is not None]
        if not t.typed:
            plain = [v.replace(",", "") if re.fullmatch(r"[+-]?[1-9]\d{0,2}(,\d{3})+", v) else v for v in vals]
            ints = all(INT_RE.match(v) for v in plain)
            kind = "INTEGER" if vals and ints else "REAL" if vals and all(FLOAT_RE.match(v) for v in plain) else "TEXT"
            conv = {"INTEGER": lambda s: int(s.replace(",", "")), "REAL": lambda s: float(s.replace(",", "")),
                    "TEXT": str}[kind]
        else:
            ints = all(isinstance(v, (int, bool)) and abs(v) < 2 ** 63 for v in vals)
            kind = "INTEGER" if vals and ints else "REAL" if vals and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) < 2 ** 63 for v in vals) else "TEXT"
            conv = {"INTEGER": int, "REAL": float, "TEXT": lambda v: v if isinstance(v, str) else
                    json.dumps(v, ensure_ascii=False, sort_keys=True) if isinstance(v, (list, dict)) else _key(v)}[kind]
        t.types[col] = kind
        for r in t.rows:
            r[j] = None if r[j] is None else conv(r[j])


def choose_pk(t, elsewhere=None):
    """Pick a unique, non-null key: a column named like one (id, <table>_id, code), else a natural key (first
    one whose values other tables hold under the same column name: they reference it, then a leftmost *_id/
    *_code/*_number column, then any short one); a few duplicate rows are dropped; else a surrogate `id`."""
    s = singular(t.name)
    named = [c for c in (t.pk, "id", f"{s}_id", f"{t.name}_id", f"{s}_code", "code") if c in t.columns]
    own = {c: {_key(r[j]) for r in t.rows} for j, c in enumerate(t.columns)}
    held = [c for c in t.columns if any(len(v & own[c]) >= 0.6 * len(v) for v in (elsewhere or {}).get(c, []))]
    keyish = [c for c in t.columns if re.search(r"(^|_)(id|code|key|sku|uuid|no|number)$", c)][:1]
    for c in dict.fromkeys(named or held + keyish + t.columns):  # a named key with duplicates is not replaced
        j = t.columns.index(c)
        vals = [r[j] for r in t.rows]
        unique = None not in vals and len(own[c]) == len(vals)
        natural = c in named or (t.types[c] != "REAL" and sum(len(k) for k in own[c]) <= 24 * len(vals))
        if unique and natural:
            t.pk = c
            return
    if named:  # a key column with a few duplicates or blanks: keep the first row of each key
        j, seen, kept = t.columns.index(named[0]), set(), []
        for r in t.rows:
            if r[j] is not None and _key(r[j]) not in seen:
                seen.add(_key(r[j]))
                kept.append(r)
        if len(kept) >= 0.8 * len(t.rows):
            t.notes.append(f"dropped {len(t.rows) - len(kept)} rows with a duplicate or missing {named[0]}")
            t.rows, t.pk = kept, named[0]
            return
    t.pk = "id" if "id" not in t.columns else "row_id"
    t.columns.insert(0, t.pk)
    t.types[t.pk] = "INTEGER"
    t.rows = [[i] + r for i, r in enumerate(t.rows, 1)]
    t.notes.append(f"no usable key column: added surrogate {t.pk}")


def _named(c, r, t):
    """How column c of t names table r's key: 0 by r's name (customer_id, customer, origin_airport_code),
    1 by r's key name only (team_id when r is standings) or a declared FK, None when it does not."""
    s = singular(r.name)
    names = {f"{s}_{r.pk}", f"{s}_{r.pk.rsplit('_', 1)[-1]}", f"{r.name}_id", s}
    names |= {f"{s}_{x}" for x in ("id", "code", "key", "ref", "no", "number", "name", "symbol")}
    if c in names or any(c.endswith("_" + n) for n in names if "_" in n):
        return 0
    by_key = r.pk != "id" and (c == r.pk or ("_" in r.pk and c.endswith("_" + r.pk)))
    return 1 if by_key or (c, r.name, r.pk) in t.hints else None


def infer_fks(tables, min_containment=0.6):
    """Link columns to other tables' keys: by name when most values are keys there (the rest dangle and are set
    to NULL, noted), or without a name match when every value is a distinctive text key of exactly one table."""
    keys = {t.name: {_key(r[t.columns.index(t.pk)]): r[t.columns.index(t.pk)] for r in t.rows} for t in tables}
    for t in tables:
        for j, c in enumerate(t.columns):
            vals = [row[j] for row in t.rows if row[j] is not None]
            if c == t.pk or not vals:
                continue

            def share(r):
                return sum(_key(v) in keys[r.name] for v in vals) / len(vals)
            rank = {r.name: 0 if r is t else _named(c, r, t) for r in tables if (r is t) == (c == "parent_id")}
            named = sorted((r for r in tables if rank.get(r.name) is not None), key=lambda r: (rank[r.name], r.name))
            ref = next((r for r in named if share(r) >= min_containment), None)
            if ref is None and not named and t.types[c] == "TEXT" and len(set(map(_key, vals))) >= 2:
                # assignee -> members.member_id: values like "MEM09" are too specific to match by chance
                hits = [r for r in tables if r is not t and r.types[r.pk] == "TEXT" and keys[r.name]
                        and min(map(len, keys[r.name])) >= 3 and share(r) == 1.0]
                ref = hits[0] if len(hits) == 1 else None
            if ref is None:
                continue
            dangling = sum(_key(v) not in keys[ref.name] for v in vals)
            for row in t.rows:
                row[j] = None if row[j] is None else keys[ref.name].get(_key(row[j]))
            t.types[c] = ref.types[ref.pk]
            t.fks.append((c, ref.name, ref.pk))
            if dangling:
                t.notes.append(f"{c}: {dangling} dangling references to {ref.name} set to NULL")


def relate(tables, max_rows=5000):
    """Parsed tables -> typed tables with keys and foreign keys (names made unique, rows capped)."""
    out, names = [], {}
    for t in tables:
        if t.name in names and names[t.name].columns == t.columns and names[t.name].typed == t.typed:
            names[t.name].rows += t.rows  # the same table split over documents
            names[t.name].notes.append(f"merged rows from {t.source}")
            continue
        base, k = (t.name if not t.name.startswith("sqlite_") else f"t_{t.name}"), 2
        t.name = base
        while t.name in names:
            t.name, k = f"{base}_{k}", k + 1
        names[t.name] = t
        out.append(t)
    for t in out:
        if len(t.rows) > max_rows:
            t.notes.append(f"kept the first {max_rows} of {len(t.rows)} rows")
            t.rows = t.rows[:max_rows]
        infer_types(t)
    for t in out:  # the values other tables hold under each column name, for natural keys
        elsewhere = {}
        for o in out:
            for j, c in enumerate(o.columns if o is not t else []):
                elsewhere.setdefault(c, []).append({_key(r[j]) for r in o.rows if r[j] is not None} or {None})
        choose_pk(t, elsewhere)
    infer_fks(out)
    return out


def largest_component(tables, weight=None):
    """The group of tables connected by foreign keys with the most weight (summed over its distinct sources,
    e.g. retrieval relevance), then the most tables, rows, then by names."""
    group = {t.name: t.name for t in tables}

    def find(x):
        while group[x] != x:
            x = group[x]
        return x
    for t in tables:
        for _, ref, _ in t.fks:
            a, b = sorted((find(t.name), find(ref)))
            group[b] = a
    comps = {}
    for t in tables:
        comps.setdefault(find(t.name), []).append(t)
    if not comps:
        return []
    def score(c):
        return -sum((weight or {}).get(src, 0) for src in {t.source for t in c})
    return min(comps.values(), key=lambda c: (score(c), -len(c), -sum(len(t.rows) for t in c),
                                              sorted(t.name for t in c)))


def write_sqlite(con, tables):
    """Create the tables parents first, with PRIMARY KEY and FOREIGN KEY declared, and insert the rows."""
    done, order = set(), []
    while len(order) < len(tables):
        ready = [t for t in tables if t.name not in done and all(r in done or r == t.name for _, r, _ in t.fks)]
        t = min(ready or [t for t in tables if t.name not in done], key=lambda x: x.name)  # a cycle: by name
        done.add(t.name)
        order.append(t)
    for t in order:
        cols = [f'"{c}" {t.types.get(c, "TEXT")}' for c in t.columns] + [f'PRIMARY KEY ("{t.pk}")'] + \
            [f'FOREIGN KEY ("{c}") REFERENCES "{r}" ("{rc}")' for c, r, rc in t.fks]
        con.execute(f'CREATE TABLE "{t.name}" ({", ".join(cols)})')
        con.executemany(f'INSERT INTO "{t.name}" VALUES ({", ".join("?" * len(t.columns))})', t.rows)
    con.commit()


def describe_db(con):
    """Tables of a database (not _meta): name, rows, primary key, foreign keys, sorted by name."""
    out = []
    for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE '\\_%' "
                               "ESCAPE '\\' AND name NOT LIKE 'sqlite_%' ORDER BY name"):
        info = con.execute(f'PRAGMA table_info("{name}")').fetchall()
        fks = con.execute(f'PRAGMA foreign_key_list("{name}")').fetchall()
        out.append({"name": name, "rows": con.execute(f'SELECT COUNT(*) FROM "{name}"').fetchone()[0],
                    "columns": [c[1] for c in info], "primary_key": [c[1] for c in sorted(info, key=lambda c: c[5])
                                                                     if c[5]],
                    "foreign_keys": sorted(f"{f[3]}->{f[2]}.{f[4]}" for f in fks)})
    return out