"""Documents -> parsed tables: CSV/TSV, JSON (nested, ID-keyed), HTML, Markdown, SQL dumps, YAML record lists.

Every parser returns (tables, notes): a note is a human-readable reason for something skipped or repaired,
so a bad document costs its tables, never the run.
"""
import csv
import io
import json
import re
import sqlite3
from html.parser import HTMLParser

from lib.tables import FLOAT_RE, Table, ident, make_table, singular

GENERIC_CHILD = {"items", "lines", "line_items", "entries", "details", "records", "values", "children", "parts",
                 "elements", "members", "events", "history", "logs", "notes", "steps", "segments", "legs"}
WRAPPERS = {"data", "records", "results", "items", "rows", "entries", "objects"}


# ---------------------------------------------------------------------------- text formats

def parse_delimited(text, name, source, delimiter=","):
    """CSV/TSV with a header row after any leading '#' comment lines; blank lines are skipped."""
    lines = text.splitlines(keepends=True)
    while lines and (lines[0].lstrip().startswith("#") or not lines[0].strip()):
        lines.pop(0)  # leading '# title' comment lines are not the header
    rows = [r for r in csv.reader(io.StringIO("".join(lines)), delimiter=delimiter) if any(c.strip() for c in r)]
    if len(rows) < 2:
        return [], [f"{source}: no data rows"]
    return [make_table(name, rows[0], rows[1:], source)], []


def parse_markdown(text, name, source):
    """Pipe tables; each is named after the nearest heading above it."""
    tables, heading, block = [], None, []
    for line in text.splitlines() + [""]:
        s = line.strip()
        if s.startswith("|"):
            block.append([c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", s.strip("|"))])
            continue
        if len(block) >= 3 and all(re.fullmatch(r":?-{2,}:?", c) for c in block[1] if c):
            tables.append(make_table(heading or "", block[0], block[2:], source))
        block = []
        if s.startswith("#"):
            heading = s.lstrip("#").strip()
    return _name_unnamed(tables, name), []


def _name_unnamed(tables, stem):
    """Tables without a heading take the file's name (numbered when there are several)."""
    for i, t in enumerate(tables, 1):
        if t.name == "table":
            t.name = ident(stem) if len(tables) == 1 else f"{ident(stem)}_{i}"
    return tables


class _HTMLTables(HTMLParser):
    """Collects <table> cells (colspan repeated) with their <caption> or preceding heading."""

    def __init__(self):
        super().__init__()
        self.tables, self.stack, self.cell, self.heading, self.text = [], [], None, None, None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.stack.append({"name": self.heading, "rows": []})
        elif tag == "tr" and self.stack:
            self.stack[-1]["rows"].append([])
        elif tag in ("td", "th") and self.stack:
            span = dict(attrs).get("colspan") or "1"
            self.cell = ([], int(span) if span.isdigit() else 1)
        elif tag in ("caption", "h1", "h2", "h3", "h4"):
            self.text = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None and self.stack:
            if not self.stack[-1]["rows"]:
                self.stack[-1]["rows"].append([])
            self.stack[-1]["rows"][-1].extend([" ".join("".join(self.cell[0]).split())] * self.cell[1])
            self.cell = None
        elif tag == "table" and self.stack:
            self.tables.append(self.stack.pop())
        elif tag in ("caption", "h1", "h2", "h3", "h4") and self.text is not None:
            label = " ".join("".join(self.text).split())
            if tag == "caption" and self.stack:
                self.stack[-1]["name"] = label
            else:
                self.heading = label
            self.text = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[0].append(data)
        if self.text is not None:
            self.text.append(data)


def parse_html(text, name, source):
    """Every <table> with a header row and at least one data row."""
    p = _HTMLTables()
    p.feed(text)
    p.close()
    tables = []
    for i, t in enumerate(p.tables):
        rows = [r for r in t["rows"] if any(c for c in r)]
        if len(rows) >= 2:
            tables.append(make_table(t["name"] or "", rows[0], rows[1:], source))
    return _name_unnamed(tables, name), []


def yaml_scalar(s):
    """A YAML flow scalar: quoted string, null, bool, int, float, or plain string."""
    s = s.strip()
    if len(s) >= 2 and s[0] == s[-1] and s[0] in "'\"":
        return s[1:-1]
    if s.lower() in ("null", "~", ""):
        return None
    if s.lower() in ("true", "false", "yes", "no"):
        return s.lower() in ("true", "yes")
    if re.fullmatch(r"[+-]?\d+", s):  # YAML 1.2: leading zeros are still an int
        return int(s)
    return float(s) if FLOAT_RE.match(s) else s


def parse_yaml(text, name, source):
    """Block lists of flat `key: value` mappings, optionally under top-level `name:` keys."""
    groups, current, rec, notes = {}, name, None, []
    for n, line in enumerate(text.splitlines(), 1):
        line = re.sub(r"\s+#.*$", "", line) if not line.lstrip().startswith("#") else ""
        if not line.strip() or line.strip() in ("---", "..."):
            continue
        top = re.match(r"^([A-Za-z_][\w -]*):\s*$", line)
        item = re.match(r"^\s*-\s+(.*)$", line)
        pair = re.match(r"^\s*([^\s:#-][^:]*):(?:\s+(.*))?$", item.group(1) if item else line)
        if top and not item:
            current = top.group(1)
        elif item:
            rec = {}
            groups.setdefault(current, []).append(rec)
            if pair:
                rec[pair.group(1).strip()] = yaml_scalar(pair.group(2) or "")
        elif pair and rec is not None and line[:1].isspace():
            rec[pair.group(1).strip()] = yaml_scalar(pair.group(2) or "")
        else:
            notes.append(f"{source}:{n}: unparsed YAML line")
    tables = []
    for gname, recs in groups.items():
        tables.extend(records_tables(gname, [(None, r) for r in recs if r], source))
    return tables, notes[:5] + ([f"{source}: {len(notes) - 5} more unparsed lines"] if len(notes) > 5 else [])


# ---------------------------------------------------------------------------- JSON

def _keyed(v):
    """An ID-keyed collection: {"u1": {...}, "u2": {...}}."""
    return isinstance(v, dict) and len(v) > 0 and all(isinstance(x, dict) for x in v.values())


def _records(v):
    """A list holding mostly JSON objects."""
    return isinstance(v, list) and len(v) > 0 and sum(isinstance(x, dict) for x in v) * 2 > len(v)


class _Collector:
    """Flattens nested records into parent/child tables whose references resolve."""

    def __init__(self, source):
        self.source, self.tables, self.notes = source, {}, []

    def add(self, tname, items, parent=None):
        """Add (key, record) pairs to table tname; parent is (fk_column, parent_id) or None."""
        rows = self.tables.setdefault(tname, [])
        s = singular(tname)
        for n, (key, rec) in enumerate(items, 1):
            row, children = {}, []
            if parent:
                row["id"] = rec.get("id", f"{parent[1]}-{n}")
                row[parent[0]] = parent[1]
            elif key is not None and "id" not in rec:
                row["id"] = key  # the key of an ID-keyed collection
            self.flatten(rec, row, "", children)
            own = next((c for c in ("id", f"{s}_id", f"{s}_code") if row.get(c) is not None), None)
            if children and own is None:  # children need something to reference
                row, own = {"id": len(rows) + 1, **row}, "id"
            rows.append(row)
            for k, v in children:
                child = ident(k) if ident(k) not in GENERIC_CHILD else f"{s}_{ident(k)}"
                self.add(child, v, (f"{s}_id", row[own]))

    def flatten(self, rec, row, prefix, children):
        """Copy scalars, prefix nested objects (address_city), defer lists of objects to child tables."""
        for k, v in rec.items():
            col = ident(prefix + str(k))
            if _records(v) or (_keyed(v) and len(v) >= 2 and not prefix):
                items = [(None, x) for x in v if isinstance(x, dict)] if isinstance(v, list) else \
                    [(kk, {"id": kk, **x} if "id" not in x else x) for kk, x in v.items()]
                children.append((k, items))
            elif isinstance(v, dict):
                self.flatten(v, row, col + "_", children)
            elif isinstance(v, list):
                row[col] = json.dumps(v, ensure_ascii=False, sort_keys=True)
            else:
                row.setdefault(col, v)


def records_tables(name, items, source):
    """(key, record) pairs -> the table and its child tables; mixed shapes become the union of keys."""
    c = _Collector(source)
    c.add(ident(name, "records"), items)
    tables = []
    for tname, rows in c.tables.items():
        cols = list(dict.fromkeys(k for r in rows for k in r))
        t = Table(tname, cols, [[r.get(k) for k in cols] for r in rows], source, typed=True)
        shapes = len({tuple(r) for r in rows})
        if shapes > 1:
            t.notes.append(f"mixed record shapes: {shapes} key sets, missing fields are NULL")
        tables.append(t)
    return tables


def parse_json(text, name, source):
    """JSON arrays of records, ID-keyed objects, and exports holding several named collections."""
    notes = []

    def pairs(kv):
        keys = [k for k, _ in kv]
        if len(set(keys)) != len(keys):
            notes.append(f"{source}: duplicate JSON keys, the last value kept")
        return dict(kv)
    try:
        obj = json.loads(text, object_pairs_hook=pairs)
    except (ValueError, RecursionError) as e:
        return [], [f"{source}: not JSON ({str(e)[:80]})"]
    if isinstance(obj, dict) and len(obj) == 1 and next(iter(obj)).lower() in WRAPPERS:
        obj = next(iter(obj.values()))
    tables = []
    if _records(obj):
        bad = sum(not isinstance(x, dict) for x in obj)
        notes += [f"{source}: skipped {bad} non-object array items"] if bad else []
        tables = records_tables(name, [(None, x) for x in obj if isinstance(x, dict)], source)
    elif _keyed(obj) and not any(_keyed(x) for x in obj.values()):  # {"u1": {...}, "u2": {...}}
        tables = records_tables(name, list(obj.items()), source)
    elif isinstance(obj, dict) and any(_records(v) or _keyed(v) for v in obj.values()):
        for k, v in obj.items():
            tname = name if k.lower() in WRAPPERS else k  # {"meta": ..., "data": [...]} is named after the file
            if _records(v):
                tables += records_tables(tname, [(None, x) for x in v if isinstance(x, dict)], source)
            elif _keyed(v) and all(not _keyed(x) for x in v.values()):
                tables += records_tables(tname, list(v.items()), source)
            elif _keyed(v):  # a collection of collections one level down: unwrap
                tables += parse_json(json.dumps(v), k, source)[0]
            else:
                notes.append(f"{source}: key {k!r} is not a collection, skipped")
    else:
        notes.append(f"{source}: no records in JSON")
    return tables, notes


# ---------------------------------------------------------------------------- SQL dumps

def parse_sql(text, name, source):
    """Run a dump's CREATE/INSERT statements in a private in-memory SQLite and read the tables back."""
    con = sqlite3.connect(":memory:")
    con.set_authorizer(lambda action, *a: sqlite3.SQLITE_DENY if action in (sqlite3.SQLITE_ATTACH,
                                                                               sqlite3.SQLITE_DETACH)
                       else sqlite3.SQLITE_OK)
    text = re.sub(r"/\*.*?\*/;?", "", text, flags=re.DOTALL)  # MySQL /*!40101 ... */ pragmas
    stmt, failed, notes = "", 0, []
    for line in text.splitlines():
        if line.strip().startswith("--") or (not stmt and not line.strip()):
            continue
        stmt += line + "\n"
        if sqlite3.complete_statement(stmt):
            s = re.sub(r"\)\s*(ENGINE|DEFAULT CHARSET|AUTO_INCREMENT)[^;]*;", ");", stmt, flags=re.I)
            s = re.sub(r"\b(AUTO_INCREMENT|UNSIGNED)\b", "", s, flags=re.I)
            if re.match(r"\s*(CREATE|INSERT)\b", s, re.I):
                try:
                    con.execute(s)
                except sqlite3.Error as e:
                    failed += 1
                    notes.append(f"{source}: statement failed ({e}): {s.strip()[:60]}")
            stmt = ""
    tables = []
    for (tname,) in con.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY rowid"):
        info = con.execute(f'PRAGMA table_info("{tname}")').fetchall()
        rows = con.execute(f'SELECT * FROM "{tname}" ORDER BY rowid').fetchall()
        if not rows:
            continue
        t = make_table(tname, [c[1] for c in info], rows, source, typed=True)
        pks = [t.columns[i] for i, c in enumerate(info) if c[5]]
        t.pk = pks[0] if len(pks) == 1 else None
        t.hints = [(ident(f[3]), ident(f[2]), ident(f[4] or "id"))
                   for f in con.execute(f'PRAGMA foreign_key_list("{tname}")')]
        tables.append(t)
    con.close()
    return tables, notes[:5] + ([f"{source}: {failed} failed statements in all"] if failed > 5 else [])


# ---------------------------------------------------------------------------- documents

def sniff(name, text):
    """The format of a document, from its extension or, failing that, its first characters."""
    ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    by_ext = {"csv": "csv", "tsv": "tsv", "tab": "tsv", "json": "json", "html": "html", "htm": "html",
              "md": "markdown", "markdown": "markdown", "sql": "sql", "yaml": "yaml", "yml": "yaml"}
    if ext in by_ext:
        return by_ext[ext]
    head = text.lstrip()[:200].lower()
    if head[:1] in "[{":
        return "json"
    if "<table" in text.lower() or head.startswith(("<!doctype", "<html")):
        return "html"
    if re.search(r"^\s*\|.*\|\s*$", text, re.M):
        return "markdown"
    if re.match(r"(create|insert)\s", head):
        return "sql"
    return "yaml" if re.match(r"-\s+\w[\w ]*:", head) else "text"


def parse_document(name, data, max_bytes=2_000_000):
    """Bytes or text of one document -> (tables, notes); never raises on bad input."""
    if not data:
        return [], [f"{name}: empty"]
    if len(data) > max_bytes:
        return [], [f"{name}: too large ({len(data)} bytes > {max_bytes})"]
    if isinstance(data, bytes):
        if b"\0" in data[:4096]:
            return [], [f"{name}: binary"]
        data = data.decode("utf-8", errors="replace").lstrip("\ufeff")
    kind = sniff(name, data)
    stem = re.sub(r"\.\w+$", "", name.rstrip("/").rsplit("/", 1)[-1])
    parsers = {"csv": parse_delimited, "tsv": lambda t, n, s: parse_delimited(t, n, s, "\t"),
               "json": parse_json, "html": parse_html, "markdown": parse_markdown, "sql": parse_sql,
               "yaml": parse_yaml}
    if kind not in parsers:
        return [], [f"{name}: no structured data ({kind})"]
    try:
        tables, notes = parsers[kind](data, stem, name)
    except (ValueError, csv.Error, RecursionError, AssertionError) as e:
        return [], [f"{name}: unparseable {kind} ({str(e)[:80]})"]
    return tables, notes + ([] if tables else [f"{name}: no tables in {kind}"])
