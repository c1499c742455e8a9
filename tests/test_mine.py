"""Stage 01_mine: complexify, the offline miner on fixtures (determinism, resume), the deep-research agent and
the synthetic path against the scripted LLM server, scenario expansion, and one run on the shipped corpus."""
import importlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys

import numpy as np
import pytest


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIX = os.path.join(ROOT, "tests", "fixtures_mine")
mine = importlib.import_module("01_mine")


def run_stage(run_dir, *extra, themes=os.path.join(FIX, "themes.jsonl"), corpus=os.path.join(FIX, "corpus")):
    """Run 01_mine.py as a subprocess; returns the CompletedProcess."""
    cmd = [sys.executable, os.path.join(ROOT, "01_mine.py"), "--run-dir", str(run_dir), "--themes", themes,
           "--corpus", corpus, *map(str, extra)]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=300)


def rows(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


def tree_bytes(stage_dir):
    """{relative path: bytes} of a stage folder's outputs (meta.json holds timings; work/ holds caches)."""
    out = {}
    for base, dirs, files in os.walk(stage_dir):
        dirs[:] = [d for d in dirs if d != "work"]
        for f in files:
            if f != "meta.json":
                p = os.path.join(base, f)
                out[os.path.relpath(p, stage_dir)] = open(p, "rb").read()
    return out


def check_env(env_dir, min_tables=3, min_rows=200):
    """An environment folder in the format: env.json, stamped db, related tables, FKs resolving."""
    meta = json.load(open(os.path.join(env_dir, "env.json")))
    con = sqlite3.connect(os.path.join(env_dir, "db.sqlite"))
    assert dict(con.execute("SELECT key, value FROM _meta"))["env_id"] == meta["id"]
    assert con.execute("PRAGMA foreign_key_check").fetchall() == []
    names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table' AND name != '_meta'")]
    assert len(names) >= min_tables
    assert sum(con.execute(f'SELECT COUNT(*) FROM "{n}"').fetchone()[0] for n in names) >= min_rows
    linked = {n for n in names for f in con.execute(f'PRAGMA foreign_key_list("{n}")') for n in (n, f[2])}
    assert linked == set(names), f"tables without any relation: {set(names) - linked}"
    return meta, con


# ---------------------------------------------------------------------------- complexify

def test_complexify_adds_linked_state_deterministically():
    def build(seed):
        con = sqlite3.connect(":memory:")
        con.execute('CREATE TABLE "products" ("sku" TEXT, "name" TEXT, "price" REAL, PRIMARY KEY ("sku"))')
        con.executemany("INSERT INTO products VALUES (?, ?, ?)", [(f"s{i}", f"P{i}", 2.0 + i) for i in range(30)])
        rng = np.random.default_rng(seed)
        return con, [mine.complexify(con, rng, r) for r in range(3)]
    con, added = build(5)
    assert [a["entity"] for a in added] == ["products"] * 3 and added[0]["actor"] == "customers"
    assert len({a["table"] for a in added}) == 3
    assert con.execute("PRAGMA foreign_key_check").fetchall() == []
    for a in added:
        states = {s for s, _ in mine.KINDS[a["table"].split("_")[0]][0]}
        got = {r[0] for r in con.execute(f'SELECT status FROM "{a["table"]}"')}
        assert got <= states and len(got) >= 2
        assert a["rows"] >= 40
    first = next(a for a in added if a["table"] != "accounts")
    assert first["rows"] >= 200
    if first["table"] == "orders":  # unit prices come from the mined entity
        assert con.execute("SELECT COUNT(*) FROM orders o JOIN products p ON o.product_sku = p.sku "
                           "WHERE o.unit_price != p.price").fetchone()[0] == 0
    assert "\n".join(con.iterdump()) == "\n".join(build(5)[0].iterdump())
    assert "\n".join(con.iterdump()) != "\n".join(build(6)[0].iterdump())


# ---------------------------------------------------------------------------- offline miner

@pytest.fixture(scope="module")
def offline_run(tmp_path_factory):
    run = tmp_path_factory.mktemp("offline")
    res = run_stage(run)
    assert res.returncode == 0, res.stderr
    return run, res


def test_offline_mines_related_environments(offline_run):
    run, res = offline_run
    out = os.path.join(run, "01_mine")
    built = rows(os.path.join(out, "envs.jsonl"))
    assert [r["id"] for r in built] == ["home-garden", "shop-books", "travel-airports"]
    assert [r["id"] for r in rows(os.path.join(out, "themes.jsonl"))] == [
        "home-garden", "misc-junk", "shop-books", "travel-airports"]  # space-rockets: no corpus coverage
    rejected = rows(os.path.join(out, "rejected.jsonl"))
    assert [(r["id"], r["reason"]) for r in rejected] == [("misc-junk", "no structured data found")]
    assert {s.split(":")[1].strip() for s in rejected[0]["skipped"]} >= {"empty", "binary", "not JSON (Expecting ',' delimiter"}
    for r in built:
        meta, con = check_env(os.path.join(out, "envs", r["id"]))
        assert meta["provenance"]["documents"] == r["documents"]
        topic = {"home-garden": "garden", "shop-books": "bookshop", "travel-airports": "airports"}[r["id"]]
        assert r["documents"] and all(d.startswith(topic + "/") for d in r["documents"])  # one coherent cluster
    travel = next(r for r in built if r["id"] == "travel-airports")
    routes = next(t for t in travel["tables"] if t["name"] == "routes")
    assert routes["source"] == "airports/routes.sql"
    assert routes["foreign_keys"] == ["airline_id->airlines.airline_id", "destination_airport_code->airports.code",
                                      "origin_airport_code->airports.code"]
    assert "destination_airport_code: 1 dangling references to airports set to NULL" in routes["notes"]
    books = next(t for t in next(r for r in built if r["id"] == "shop-books")["tables"] if t["name"] == "books")
    assert books["notes"] == ["ragged rows: padded 1, truncated 1", "dropped 1 rows with a duplicate or missing book_id",
                              "author_id: 1 dangling references to authors set to NULL"]
    meta = json.load(open(os.path.join(out, "meta.json")))
    assert meta["counts"]["envs"] == 3 and meta["counts"]["rejected"] == 1 and meta["counts"]["repairs"] >= 4
    assert "example:" in res.stdout


def test_rerun_is_byte_identical_and_already_done(offline_run, tmp_path):
    run, _ = offline_run
    res = run_stage(tmp_path)
    assert res.returncode == 0, res.stderr
    assert tree_bytes(os.path.join(run, "01_mine")) == tree_bytes(os.path.join(tmp_path, "01_mine"))
    again = run_stage(tmp_path)
    assert again.returncode == 0 and "already done" in again.stdout


def test_interrupted_then_resumed_equals_uninterrupted(offline_run, tmp_path):
    run, _ = offline_run
    shutil.copytree(os.path.join(run, "01_mine"), os.path.join(tmp_path, "01_mine"))
    out = os.path.join(tmp_path, "01_mine")
    # simulate a crash: meta/outputs not written, one env never finished, one renamed but its part lost is
    # impossible (part first), one half-built temp folder left behind
    for f in ("meta.json", "envs.jsonl", "rejected.jsonl"):
        os.remove(os.path.join(out, f))
    shutil.rmtree(os.path.join(out, "envs", "shop-books"))
    os.remove(os.path.join(out, "work", "shop-books.json"))
    os.remove(os.path.join(out, "work", "misc-junk.json"))
    os.makedirs(os.path.join(out, "envs", "home-garden.tmp"))
    res = run_stage(tmp_path)
    assert res.returncode == 0, res.stderr
    assert tree_bytes(os.path.join(run, "01_mine")) == tree_bytes(out)


# ---------------------------------------------------------------------------- deep-research agent

def call(name, **arguments):
    return {"name": name, "arguments": arguments}


def themes_file(tmp_path, *ids):
    src = {t["id"]: t for t in rows(os.path.join(FIX, "themes.jsonl"))}
    path = tmp_path / "themes.jsonl"
    path.write_text("".join(json.dumps(src[i]) + "\n" for i in ids))
    return str(path)


AUTHORS = "id,name\n" + "".join(f"{i},Author {i}\n" for i in range(1, 21))
BOOKS = "id,title,author_id,price\n" + "".join(f"{i},Book {i},{i % 20 + 1},{5 + i % 7}.5\n" for i in range(1, 31))
LOANS_PY = ("import csv\nrows = list(csv.DictReader(open('books.csv')))\n"
            "out = 'id,book_id,status\\n' + ''.join(f\"{i},{r['id']},open\\n\" for i, r in enumerate(rows, 1))\n"
            "save('loans.csv', out)\nprint(len(rows))\n")


def test_agent_misbehaves_but_builds_a_database(tmp_path, scripted_llm):  # noqa: F811
    script = [
        {"content": "Searching.", "tool_calls": [call("search", query="bookshop books authors")]},
        {"tool_calls": [call("browse", ref="bookshop/books.csv")]},
        {"tool_calls": [{"name": "write_file", "arguments": "{not json"}]},          # malformed arguments
        {"tool_calls": [call("delete_everything")]},                                  # unknown tool
        {"content": "Thinking, no tool."},                                            # no call at all
        {"tool_calls": [call("write_file", path="garbage.json", content="{{{ nope"),  # garbage file
                        call("write_file", path="../escape.csv", content="a\n1\n")]},  # refused name
        {"tool_calls": [call("write_file", path="authors.csv", content=AUTHORS, source="bookshop/authors.json"),
                        call("write_file", path="books.csv", content=BOOKS, source="bookshop/books.csv")]},
        {"tool_calls": [call("python", code=LOANS_PY)]},
        {"content": '<tool_call>{"name": "finish", "arguments": {"summary": "done"}}</tool_call>'},  # text-format call
        {"tool_calls": [call("write_file", path="reviews.json", content=json.dumps(
            [{"id": i, "book_id": i, "rating": 1 + i % 5, "status": "published"} for i in range(1, 11)]))]},
        {"tool_calls": [call("finish", summary="enlarged")]},
    ]
    server = scripted_llm(script)
    res = run_stage(tmp_path, "--llm", "openai", "--llm-base-url", server.base_url, "--llm-retries", "0",
                    "--min-rows", "50", themes=themes_file(tmp_path, "shop-books"))
    assert res.returncode == 0, res.stderr
    out = os.path.join(tmp_path, "01_mine")
    (row,) = rows(os.path.join(out, "envs.jsonl"))
    assert row["source"] == "agent" and row["stops"] == ["finished", "finished"]
    assert row["documents"] == ["bookshop/books.csv"]
    assert {t["name"]: t["source"] for t in row["tables"]} == {
        "authors": "bookshop/authors.json", "books": "bookshop/books.csv", "loans": "python", "reviews": "bookshop/books.csv"}
    assert any(s.startswith("garbage.json: not JSON") for s in row["skipped"])
    meta, con = check_env(os.path.join(out, "envs", "shop-books"), min_rows=50)
    assert con.execute("SELECT COUNT(*) FROM loans").fetchone()[0] == 30
    traj = json.load(open(os.path.join(out, "work", "shop-books", "trajectory.json")))
    tool_msgs = [json.loads(m["content"]) for m in traj["messages"] if m["role"] == "tool"]
    kinds = [m.get("error") for m in tool_msgs if isinstance(m, dict)]
    assert "unknown_tool" in kinds and "tool_error" in kinds  # unknown tool, refused file name
    feedback = [m["content"] for m in traj["messages"] if m["role"] == "user"]
    assert any("could not be parsed" in m for m in feedback) and any("Use the tools" in m for m in feedback)
    assert len(server.requests) == len(script)
    assert not os.path.exists(os.path.join(out, "work", "escape.csv"))


def test_agent_step_budget_is_a_rejection(tmp_path, scripted_llm):  # noqa: F811
    server = scripted_llm(lambda req: {"tool_calls": [call("search", query="more")]})
    res = run_stage(tmp_path, "--llm", "openai", "--llm-base-url", server.base_url, "--llm-retries", "0",
                    "--max-steps", "3", "--rounds", "1", themes=themes_file(tmp_path, "shop-books"))
    assert res.returncode == 0, res.stderr
    (rej,) = rows(os.path.join(tmp_path, "01_mine", "rejected.jsonl"))
    assert rej["reason"] == "no structured data found (agent stopped: step budget, step budget)"
    assert len(server.requests) == 6


# ---------------------------------------------------------------------------- synthetic path (AWM)

GOOD_DDL = ("```sql\nCREATE TABLE members (id INTEGER PRIMARY KEY, name TEXT NOT NULL);\n"
            "CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT);\n"
            "CREATE TABLE loans (id INTEGER PRIMARY KEY, member_id INTEGER REFERENCES members(id), "
            "book_id INTEGER REFERENCES books(id), status TEXT);\n```")
GOOD_ROWS = "```sql\n" + "".join(f"INSERT INTO members VALUES ({i}, 'M{i}');\n" for i in range(1, 6)) + \
    "".join(f"INSERT INTO books VALUES ({i}, 'B{i}');\n" for i in range(1, 6)) + \
    "INSERT INTO loans VALUES (1, 1, 1, 'open');\nINSERT INTO loans VALUES (2, 99, 2, 'open');\n```"


def synth_script(req):
    """Answers by what the prompt asks for; the clinic theme gets rows that mostly fail."""
    text = req["messages"][-1]["content"]
    if "List 8 realistic tasks" in text:
        return json.dumps(["Borrow a book", "Return a book"])
    if "Write the SQLite schema" in text:
        return GOOD_DDL if "Bookshop" in text else "```sql\nCREATE TABLE patients (id INTEGER PRIMARY KEY, name TEXT);\n```"
    if "INSERT statements" in text:
        if "patients" in text:
            return "```sql\n" + "".join(f"INSERT INTO patients VALUES ({i}, 'P{i}');\n" for i in range(1, 6)) + \
                "".join(f"INSERT INTO patients VALUES ({i});\n" for i in range(6, 11)) + "```"
        return GOOD_ROWS
    if "failed" in text:
        if "loans" in text:
            return "```sql\nINSERT INTO loans VALUES (2, 2, 2, 'open');\n```"
        return "sorry, I cannot fix these"
    return "?"


def test_synth_repairs_on_feedback_and_rejects_over_ten_percent(tmp_path, scripted_llm):  # noqa: F811
    server = scripted_llm(synth_script)
    res = run_stage(tmp_path, "--source", "synth", "--llm", "openai", "--llm-base-url", server.base_url,
                    "--llm-retries", "0", "--min-tables", "3", "--min-rows", "10",
                    themes=themes_file(tmp_path, "home-garden", "shop-books"))
    assert res.returncode == 0, res.stderr
    out = os.path.join(tmp_path, "01_mine")
    (row,) = rows(os.path.join(out, "envs.jsonl"))
    assert (row["id"], row["failed_statements"], row["tasks"]) == ("shop-books", 0, ["Borrow a book", "Return a book"])
    meta, con = check_env(os.path.join(out, "envs", "shop-books"), min_rows=12)
    assert con.execute("SELECT member_id FROM loans WHERE id = 2").fetchone() == (2,)
    (rej,) = rows(os.path.join(out, "rejected.jsonl"))
    assert (rej["id"], rej["reason"]) == ("home-garden", "5 of 11 SQL statements failed after repair")
    assert any("FOREIGN KEY constraint failed" in r["messages"][-1]["content"] for r in server.requests)


# ---------------------------------------------------------------------------- scenario expansion

def test_expansion_rejects_duplicates_and_caps_domains(tmp_path, scripted_llm):  # noqa: F811
    anchors = rows(os.path.join(FIX, "themes.jsonl"))
    dup = {k: anchors[0][k] for k in ("kind", "name", "description", "domain")}
    proposals = [dup, {"kind": "prd", "name": "Toy Store", "description": "Toys sold to children", "domain": "commerce"},
                 {"kind": "prd", "name": "Ocean Buoys", "description": "Sensor buoys reporting wave heights", "domain": "ocean"},
                 {"kind": "mcp_server", "name": "Volcano Watch", "description": "Eruption alerts for volcanoes",
                  "domain": "geology"}, "not a scenario"]

    def answer(req):
        if "Propose 5 NEW" in req["messages"][-1]["content"]:
            return json.dumps(proposals)
        return {"tool_calls": [call("finish", summary="nothing")]}
    server = scripted_llm(answer)
    res = run_stage(tmp_path, "--llm", "openai", "--llm-base-url", server.base_url, "--llm-retries", "0",
                    "--expand", "2", "--domain-cap", "1", "--rounds", "0", themes=themes_file(tmp_path, "shop-books"))
    assert res.returncode == 0, res.stderr
    used = rows(os.path.join(tmp_path, "01_mine", "themes.jsonl"))
    assert [t["id"] for t in used] == ["shop-books", "x-ocean_buoys", "x-volcano_watch"]
    assert "expansion: 2 new scenarios, 3 proposals rejected" in res.stdout


# ---------------------------------------------------------------------------- the shipped corpus

@pytest.mark.skipif(not os.path.exists(os.path.join(ROOT, "data", "corpus", "SOURCES.md")), reason="no shipped corpus")
def test_shipped_corpus_yields_30_environments(tmp_path):
    res = run_stage(tmp_path, "--limit", "0", "--workers", "2", themes=os.path.join(ROOT, "data", "themes.jsonl"),
                    corpus=os.path.join(ROOT, "data", "corpus"))
    assert res.returncode == 0, res.stderr
    built = rows(os.path.join(tmp_path, "01_mine", "envs.jsonl"))
    assert len(built) >= 30, res.stdout[-3000:]
    for r in built:
        check_env(os.path.join(tmp_path, "01_mine", "envs", r["id"]))


# ---------------------------------------------------------------------------- web backend

def test_web_backend_offline_miner(tmp_path):
    """A local stand-in for a SearXNG endpoint and two pages; one result URL is broken."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    rows_html = "".join(f"<tr><td>{i}</td><td>Plant {i}</td><td>{1 + i % 3}</td></tr>" for i in range(1, 41))
    pages = {"/beds.html": "<h2>Beds</h2><table><tr><th>id</th><th>name</th></tr><tr><td>1</td><td>N</td></tr>"
                           "<tr><td>2</td><td>S</td></tr><tr><td>3</td><td>E</td></tr></table>",
             "/plants.html": f"<h2>Plants</h2><table><tr><th>id</th><th>name</th><th>bed_id</th></tr>{rows_html}</table>"}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_GET(self):
            port = self.server.server_address[1]
            if self.path.startswith("/search?"):
                assert "format=json" in self.path
                body = json.dumps({"results": [{"url": f"http://127.0.0.1:{port}{p}", "title": p, "content": "garden"}
                                               for p in ("/plants.html", "/beds.html", "/missing.html")]}).encode()
            elif self.path in pages:
                body = pages[self.path].encode()
            else:
                self.send_response(404)
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        res = run_stage(tmp_path, "--search-url", f"http://127.0.0.1:{httpd.server_address[1]}/search",
                        "--web-delay", "0", themes=themes_file(tmp_path, "home-garden"))
    finally:
        httpd.shutdown()
    assert res.returncode == 0, res.stderr
    (row,) = rows(os.path.join(tmp_path, "01_mine", "envs.jsonl"))
    assert row["source"] == "web" and len(row["documents"]) == 3
    assert any("missing.html: cannot read (HTTPError" in s for s in row["skipped"])
    plants = next(t for t in row["tables"] if t["name"] == "plants")
    assert plants["foreign_keys"] == ["bed_id->beds.id"] and plants["source"].endswith("/plants.html")
    check_env(os.path.join(tmp_path, "01_mine", "envs", "home-garden"))
