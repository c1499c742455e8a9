"""Sanity-check data/themes.jsonl and the shipped corpus data/corpus/ (no third-party packages).

Checks: theme count, fields, kinds, domains, sort order, unique ids and names, description length
and near-duplicates; corpus size; every file parses with a small format-specific reader (CSV/TSV,
JSON, YAML block lists, Markdown tables, HTML tables, SQL dumps via sqlite3); every reference in
the nested JSON exports resolves; each topic folder holds >= 3 tables in >= 2 files linked by key
columns; TOPIC_THEMES names existing themes and BM25 over file text (query = theme name +
description) ranks the theme's own folder first; make_corpus.py reproduces the files byte for byte.

  python data/check_data.py            # all checks, exit code 1 on any failure
  python data/check_data.py --no-regen # skip the reproducibility rerun
"""
import argparse
import csv
import filecmp
import importlib.util
import io
import json
import math
import re
import sqlite3
import subprocess
import sys
import tempfile
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

DATA = Path(__file__).resolve().parent
THEME_FIELDS = ["id", "kind", "name", "description", "domain"]
KINDS = {"mcp_server", "tool_doc", "prd"}


# ---------------------------------------------------------------------------- readers
def read_csv(path, sep):
    """Rows (dicts) of a CSV/TSV file after its '#' comment lines, plus the count of ragged rows."""
    lines = [l for l in path.read_text(encoding="utf-8").splitlines() if not l.startswith("#")]
    rows = list(csv.reader(io.StringIO("\n".join(lines)), delimiter=sep))
    header, body = rows[0], rows[1:]
    ragged = sum(len(r) != len(header) for r in body)
    return {path.stem: [dict(zip(header, r)) for r in body]}, ragged


def read_yaml(path):
    """A block list of flat mappings ('- key: value' / '  key: value'); values are JSON scalars."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("- "):
            rows.append({})
            line = line[2:]
        key, _, raw = line.strip().partition(": ")
        rows[-1][key] = json.loads(raw)
    return {path.stem: rows}


def split_md_row(line):
    """Cells of one Markdown table row, honouring escaped pipes."""
    cells = re.split(r"(?<!\\)\|", line.strip())[1:-1]
    return [c.strip().replace("\\|", "|") for c in cells]


def read_markdown(path):
    """Every pipe table of a Markdown file, named by the '## name' heading above it."""
    tables, name, block = {}, path.stem, []
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if line.startswith("|"):
            block.append(line)
            continue
        if block:
            header = split_md_row(block[0])
            tables[name] = [dict(zip(header, split_md_row(r))) for r in block[2:]]
            block = []
        if line.startswith("## "):
            name = line[3:].strip()
    return tables


class TableParser(HTMLParser):
    """Collects <table id=...> contents as header + rows of cell text."""

    def __init__(self):
        super().__init__()
        self.tables, self.cell, self.row, self.name = {}, None, None, None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.name = dict(attrs).get("id", f"table{len(self.tables)}")
            self.tables[self.name] = []
        elif tag == "tr":
            self.row = []
        elif tag in ("td", "th"):
            self.cell = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self.row.append(self.cell)
            self.cell = None
        elif tag == "tr":
            self.tables[self.name].append(self.row)

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def read_html(path):
    """Every <table> of an HTML page as rows (dicts)."""
    parser = TableParser()
    parser.feed(path.read_text(encoding="utf-8"))
    return {n: [dict(zip(t[0], r)) for r in t[1:]] for n, t in parser.tables.items()}


def read_sql(path):
    """Load a SQL dump into an in-memory SQLite database and return its tables."""
    db = sqlite3.connect(":memory:")
    db.execute("PRAGMA foreign_keys = ON")
    db.executescript(path.read_text(encoding="utf-8"))
    names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    out = {}
    for n in names:
        cur = db.execute(f"SELECT * FROM {n}")
        cols = [c[0] for c in cur.description]
        out[n] = [dict(zip(cols, r)) for r in cur.fetchall()]
    return out


def child_tables(parent, rows, key):
    """Lists of objects inside records become child tables carrying the parent's id."""
    out = {}
    for r in rows:
        for field, value in r.items():
            if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
                out.setdefault(f"{parent}_{field}", []).extend(
                    {f"{parent.rstrip('s')}_id": r[key], **v} for v in value)
    return out


def flatten_json(path, obj):
    """Tables of a JSON file: record lists as-is, ID-keyed objects as rows with an 'id' column,
    and lists of objects inside records as child tables."""
    if isinstance(obj, list):
        return {path.stem: obj, **child_tables(path.stem, obj, next(iter(obj[0])))}
    out = {}
    for name, value in obj.items():
        if isinstance(value, list):
            out[name] = value
            out.update(child_tables(name, value, next(iter(value[0]))))
        elif isinstance(value, dict):
            rows = [{"id": k, **rec} for k, rec in value.items()]
            out[name] = [{c: v for c, v in r.items() if not isinstance(v, (dict, list))} for r in rows]
            out.update(child_tables(name, rows, "id"))
    return out


def read_any(path):
    """(tables, ragged-row count, raw JSON object or None) for one corpus file."""
    suffix = path.suffix
    if suffix in (".csv", ".tsv"):
        tables, ragged = read_csv(path, "," if suffix == ".csv" else "\t")
        return tables, ragged, None
    if suffix == ".json":
        obj = json.loads(path.read_text(encoding="utf-8"))
        return flatten_json(path, obj), 0, obj
    if suffix == ".yaml":
        return read_yaml(path), 0, None
    if suffix == ".md":
        return read_markdown(path), 0, None
    if suffix == ".html":
        return read_html(path), 0, None
    if suffix == ".sql":
        return read_sql(path), 0, None
    raise ValueError(f"unknown format: {path}")


# ---------------------------------------------------------------------------- checks
def check_themes(path, problems):
    """Theme file rules; returns the theme rows."""
    rows = [json.loads(l) for l in path.read_text(encoding="utf-8").splitlines()]
    ids = [r["id"] for r in rows]
    if len(rows) < 220:
        problems.append(f"themes: only {len(rows)} rows")
    if ids != sorted(ids) or len(set(ids)) != len(ids):
        problems.append("themes: ids not sorted or not unique")
    if len({r["name"].lower() for r in rows}) != len(rows):
        problems.append("themes: duplicate names")
    for r in rows:
        if list(r) != THEME_FIELDS or r["kind"] not in KINDS or not r["id"].startswith(r["domain"] + "-"):
            problems.append(f"themes: bad row {r['id']}")
        words = len(r["description"].split())
        if not 60 <= words <= 150:
            problems.append(f"themes: {r['id']} description has {words} words")
    kinds, domains = Counter(r["kind"] for r in rows), Counter(r["domain"] for r in rows)
    if min(kinds.values()) < 50 or len(kinds) != 3:
        problems.append(f"themes: kinds {dict(kinds)}")
    if len(domains) < 22 or min(domains.values()) < 6:
        problems.append(f"themes: domains {dict(domains)}")
    shingles = {r["id"]: shingle(r["description"]) for r in rows}
    worst = max((jaccard(shingles[a["id"]], shingles[b["id"]]), a["id"], b["id"])
                for i, a in enumerate(rows) for b in rows[i + 1:])
    if worst[0] > 0.25:
        problems.append(f"themes: near-duplicate descriptions {worst}")
    print(f"themes: {len(rows)} rows, kinds {dict(kinds)}, {len(domains)} domains "
          f"(min {min(domains.values())}), max description overlap {worst[0]:.3f}")
    return rows


def tokens(text):
    """Lower-case word tokens."""
    return re.findall(r"[a-z0-9]+", text.lower())


def shingle(text):
    """Word 3-grams of a text."""
    w = tokens(text)
    return set(zip(w, w[1:], w[2:]))


def jaccard(a, b):
    """Jaccard similarity of two sets."""
    return len(a & b) / max(1, len(a | b))


def key_columns(tables):
    """{(table, column): set of values} for columns whose non-empty values are all distinct."""
    keys = {}
    for t, rows in tables.items():
        for c in rows[0] if rows else []:
            vals = [r.get(c) for r in rows if r.get(c) not in (None, "")]
            if len(vals) >= 2 and len(set(map(str, vals))) == len(vals):
                keys[(t, c)] = set(map(str, vals))
    return keys


def links(tables):
    """Key-column links inside one topic: (table.col -> table.key) where all values are contained."""
    keys, found = key_columns(tables), []
    for t, rows in tables.items():
        for c in rows[0] if rows else []:
            vals = {str(r[c]) for r in rows if r.get(c) not in (None, "")}
            if len(vals) < 2:
                continue
            for (kt, kc), kv in keys.items():
                similar = kc == c or c.endswith(kc) or kc.endswith(c) or kt.rstrip("s") in c
                if kt != t and similar and vals <= kv:
                    found.append((f"{t}.{c}", f"{kt}.{kc}"))
    return found


def nested_refs(obj, ids, where, problems):
    """Every '*_id' string and every 'friends' entry inside a nested export must be a known id."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if isinstance(v, str) and k.endswith("_id") and v not in ids:
                problems.append(f"{where}: unresolved {k}={v}")
            if k == "friends" and not set(v) <= ids:
                problems.append(f"{where}: unresolved friends {v}")
            nested_refs(v, ids, where, problems)
    elif isinstance(obj, list):
        for v in obj:
            nested_refs(v, ids, where, problems)


def check_exports(topic_tables, exports, problems):
    """Reference checks for the nested ID-keyed JSON exports (generic plus two ownership rules)."""
    for path, obj in exports:
        ids = set()
        for t, rows in topic_tables[path.parent.name].items():
            for r in rows:
                ids.update(str(v) for v in r.values() if isinstance(v, (str, int)))
        for section in obj.values():
            if isinstance(section, dict):
                ids.update(section)
                for rec in section.values():
                    ids.update(rec.get("payment_methods", {}))
        nested_refs(obj, ids, path.name, problems)
        for oid, o in obj.get("orders", {}).items():
            if o["payment_method_id"] not in obj["users"][o["user_id"]]["payment_methods"]:
                problems.append(f"{path.name}: order {oid} pays with another user's method")
        for rid, r in obj.get("reservations", {}).items():
            if r["room_number"] not in {x["room_number"] for x in obj["hotels"][r["hotel_id"]]["rooms"]}:
                problems.append(f"{path.name}: reservation {rid} books a room its hotel lacks")
        print(f"export {path.parent.name}/{path.name}: sections "
              f"{ {k: len(v) for k, v in obj.items() if isinstance(v, dict)} }")


def bm25_rank(query, docs, k1=1.5, b=0.75):
    """Document names ranked by BM25 score for a query."""
    n = len(docs)
    avg = sum(len(t) for t in docs.values()) / n
    df = Counter(w for t in docs.values() for w in set(t))
    counts = {d: Counter(t) for d, t in docs.items()}
    scores = {}
    for d, t in docs.items():
        s = 0.0
        for w in set(tokens(query)):
            if w in df:
                idf = math.log(1 + (n - df[w] + 0.5) / (df[w] + 0.5))
                f = counts[d][w]
                s += idf * f * (k1 + 1) / (f + k1 * (1 - b + b * len(t) / avg))
        scores[d] = s
    return sorted(scores, key=lambda d: -scores[d])


# ---------------------------------------------------------------------------- main
if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Sanity-check themes.jsonl and data/corpus/.")
    parser.add_argument("--themes", default=str(DATA / "themes.jsonl"), help="theme anchors JSONL")
    parser.add_argument("--corpus", default=str(DATA / "corpus"), help="corpus folder")
    parser.add_argument("--no-regen", action="store_true", help="skip the byte-for-byte reproducibility rerun")
    args = parser.parse_args()
    corpus, problems = Path(args.corpus), []

    themes = check_themes(Path(args.themes), problems)
    theme_by_id = {t["id"]: t for t in themes}

    files = sorted(p for p in corpus.rglob("*") if p.is_file() and p.name != "SOURCES.md")
    size = sum(p.stat().st_size for p in corpus.rglob("*") if p.is_file())
    if size >= 5_000_000:
        problems.append(f"corpus: {size} bytes")
    topic_tables, topic_files, exports, ragged_total = {}, Counter(), [], 0
    for p in files:
        tables, ragged, obj = read_any(p)
        ragged_total += ragged
        if isinstance(obj, dict) and any(isinstance(v, dict) for v in obj.values()):
            exports.append((p, obj))
        topic_files[p.parent.name] += 1
        for name, rows in tables.items():
            topic_tables.setdefault(p.parent.name, {})[name] = rows
    formats = Counter(p.suffix for p in files)
    print(f"corpus: {len(files)} files, {size / 1e6:.2f} MB, formats {dict(formats)}, ragged CSV rows {ragged_total}")
    if ragged_total != 1:
        problems.append(f"corpus: expected exactly one ragged CSV row, found {ragged_total}")
    if len(exports) < 2:
        problems.append("corpus: fewer than two nested exports")
    check_exports(topic_tables, exports, problems)

    spec = importlib.util.spec_from_file_location("make_corpus", DATA / "make_corpus.py")
    make_corpus = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_corpus)
    served = 0
    for topic, tables in sorted(topic_tables.items()):
        found = links(tables)
        linked = {x.split(".")[0] for pair in found for x in pair}
        ok = len(tables) >= 3 and topic_files[topic] >= 2 and len(linked) >= 3
        if not ok:
            problems.append(f"topic {topic}: {len(tables)} tables, {topic_files[topic]} files, linked {sorted(linked)}")
        served += len(make_corpus.TOPIC_THEMES.get(topic, [])) if ok else 0
    print(f"topics: {len(topic_tables)} folders; themes served by a linked cluster: {served}")

    docs = {str(p.relative_to(corpus)): tokens(p.read_text(encoding="utf-8")) for p in files}
    misses = []
    for topic, ids in make_corpus.TOPIC_THEMES.items():
        for tid in ids:
            if tid not in theme_by_id:
                problems.append(f"TOPIC_THEMES: unknown theme {tid}")
                continue
            t = theme_by_id[tid]
            top = bm25_rank(t["name"] + " " + t["description"], docs)[:3]
            if not top[0].startswith(topic + "/"):
                misses.append(f"{tid}: top files {top}")
    print(f"bm25: {sum(map(len, make_corpus.TOPIC_THEMES.values())) - len(misses)} mapped themes rank their own "
          f"folder first; misses: {len(misses)}")
    for m in misses:
        print("  ", m)
    problems += [f"bm25 miss {m}" for m in misses]

    if not args.no_regen:
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run([sys.executable, str(DATA / "make_corpus.py"), "--out", tmp], check=True,
                           capture_output=True)
            fresh = sorted(p.relative_to(tmp) for p in Path(tmp).rglob("*") if p.is_file())
            shipped = sorted(p.relative_to(corpus) for p in corpus.rglob("*") if p.is_file())
            same = fresh == shipped and all(filecmp.cmp(Path(tmp) / p, corpus / p, shallow=False) for p in fresh)
            print(f"regeneration: {'byte-identical' if same else 'DIFFERS'}")
            if not same:
                problems.append("make_corpus.py does not reproduce data/corpus/")

    for p in problems:
        print("PROBLEM:", p)
    print("OK" if not problems else f"{len(problems)} problem(s)")
    sys.exit(1 if problems else 0)
