"""lib.tables and lib.retrieval on small hand-written inputs with exact expected tables."""
import json
import math
import sqlite3

import numpy as np

from lib import parsers, retrieval, tables


def parsed(name, text):
    """Parse and relate one document -> ({table name: Table}, notes)."""
    ts, notes = parsers.parse_document(name, text.encode() if isinstance(text, str) else text)
    return {t.name: t for t in tables.relate(ts)}, notes


def as_dict(t):
    return {"columns": t.columns, "types": [t.types[c] for c in t.columns], "pk": t.pk, "fks": t.fks, "rows": t.rows}


# ---------------------------------------------------------------------------- parsers

def test_csv_types_nulls_ragged_rows():
    text = ('Person ID,FullName,Age,Score,Joined\n1, Ann ,34,"1,200",2024-01-02\n2,Bo,NA,7.5,\n'
            '3,Cy,41\n4,Di,29,3,2024-02-03,\n5,Ed,50,1,2024-03-04,surplus\n\n')
    ts, notes = parsed("people.csv", text)
    assert notes == []
    assert as_dict(ts["people"]) == {
        "columns": ["person_id", "full_name", "age", "score", "joined"],
        "types": ["INTEGER", "TEXT", "INTEGER", "REAL", "TEXT"], "pk": "person_id", "fks": [],
        "rows": [[1, "Ann", 34, 1200.0, "2024-01-02"], [2, "Bo", None, 7.5, None], [3, "Cy", 41, None, None],
                 [4, "Di", 29, 3.0, "2024-02-03"], [5, "Ed", 50, 1.0, "2024-03-04"]]}
    assert ts["people"].notes == ["ragged rows: padded 1, truncated 1"]


def test_tsv_and_leading_zeros_stay_text():
    ts, _ = parsed("zips.tsv", "# Zip codes\n# of two towns\n\ncode\tzip\tn\nA\t0150\t1\nB\t5003\t2\n")
    assert as_dict(ts["zips"]) == {"columns": ["code", "zip", "n"], "types": ["TEXT", "TEXT", "INTEGER"],
                                   "pk": "code", "fks": [], "rows": [["A", "0150", 1], ["B", "5003", 2]]}


def test_json_array_mixed_shapes_and_non_objects():
    text = json.dumps([{"id": 1, "name": "a", "tags": ["x", "y"]}, {"id": 2, "extra": True, "geo": {"lat": 1.5}}, 7])
    ts, notes = parsed("things.json", text)
    assert notes == ["things.json: skipped 1 non-object array items"]
    assert as_dict(ts["things"]) == {
        "columns": ["id", "name", "tags", "extra", "geo_lat"], "types": ["INTEGER", "TEXT", "TEXT", "INTEGER", "REAL"],
        "pk": "id", "fks": [], "rows": [[1, "a", '["x", "y"]', None, None], [2, None, None, 1, 1.5]]}
    assert ts["things"].notes == ["mixed record shapes: 2 key sets, missing fields are NULL"]


BOOKING = {
    "users": {"u1": {"name": "Ann", "email": "ann@x.org",
                     "payment_methods": [{"id": "pm1", "type": "card", "last4": "4242"}, {"id": "pm2", "type": "paypal"}]},
              "u2": {"name": "Bo", "email": "bo@x.org", "payment_methods": [{"id": "pm3", "type": "card", "last4": "0007"}]}},
    "orders": {"o1": {"user_id": "u1", "status": "paid", "payment_method_id": "pm1",
                      "shipping": {"city": "Oslo", "zip": "0150"},
                      "items": [{"sku": "A1", "qty": 2, "price": 3.5}, {"sku": "B2", "qty": 1, "price": 10}]},
               "o2": {"user_id": "u2", "status": "new", "payment_method_id": "pm9",  # dangling
                      "shipping": {"city": "Bergen", "zip": "5003"}, "items": [{"sku": "A1", "qty": 1, "price": 3.5}]},
               "o3": {"user_id": "u1", "status": "new", "payment_method_id": "pm2",
                      "shipping": {"city": "Oslo", "zip": "0150"}, "items": [{"sku": "C3", "qty": 4, "price": 1}]}},
    "exported_at": "2025-01-01"}


def test_nested_booking_export_becomes_linked_tables():
    ts, notes = parsed("export.json", json.dumps(BOOKING))
    assert notes == ["export.json: key 'exported_at' is not a collection, skipped"]
    assert sorted(ts) == ["order_items", "orders", "payment_methods", "users"]
    assert as_dict(ts["users"])["rows"] == [["u1", "Ann", "ann@x.org"], ["u2", "Bo", "bo@x.org"]]
    assert as_dict(ts["payment_methods"]) == {
        "columns": ["id", "user_id", "type", "last4"], "types": ["TEXT"] * 4, "pk": "id",
        "fks": [("user_id", "users", "id")],
        "rows": [["pm1", "u1", "card", "4242"], ["pm2", "u1", "paypal", None], ["pm3", "u2", "card", "0007"]]}
    assert as_dict(ts["orders"]) == {
        "columns": ["id", "user_id", "status", "payment_method_id", "shipping_city", "shipping_zip"],
        "types": ["TEXT"] * 6, "pk": "id",
        "fks": [("user_id", "users", "id"), ("payment_method_id", "payment_methods", "id")],
        "rows": [["o1", "u1", "paid", "pm1", "Oslo", "0150"], ["o2", "u2", "new", None, "Bergen", "5003"],
                 ["o3", "u1", "new", "pm2", "Oslo", "0150"]]}
    assert ts["orders"].notes == ["payment_method_id: 1 dangling references to payment_methods set to NULL"]
    assert as_dict(ts["order_items"]) == {
        "columns": ["id", "order_id", "sku", "qty", "price"], "types": ["TEXT", "TEXT", "TEXT", "INTEGER", "REAL"],
        "pk": "id", "fks": [("order_id", "orders", "id")],
        "rows": [["o1-1", "o1", "A1", 2, 3.5], ["o1-2", "o1", "B2", 1, 10.0], ["o2-1", "o2", "A1", 1, 3.5],
                 ["o3-1", "o3", "C3", 4, 1.0]]}
    con = sqlite3.connect(":memory:")
    tables.write_sqlite(con, list(ts.values()))
    assert con.execute("PRAGMA foreign_key_check").fetchall() == []
    desc = {t["name"]: t for t in tables.describe_db(con)}
    assert desc["orders"]["foreign_keys"] == ["payment_method_id->payment_methods.id", "user_id->users.id"]
    assert desc["order_items"]["rows"] == 4


def test_json_duplicate_keys_and_wrapper():
    ts, notes = parsed("d.json", '{"data": [{"id": 1, "a": 1, "a": 2}, {"id": 2, "a": 3}]}')
    assert notes == ["d.json: duplicate JSON keys, the last value kept"]
    assert as_dict(ts["d"])["rows"] == [[1, 2], [2, 3]]


def test_json_top_level_id_keyed_and_named_wrapper():
    ts, _ = parsed("hotels.json", '{"h1": {"name": "Ritz", "stars": 5}, "h2": {"name": "Inn", "stars": 2}}')
    assert as_dict(ts["hotels"])["rows"] == [["h1", "Ritz", 5], ["h2", "Inn", 2]]
    ts, notes = parsed("rooms.json", '{"meta": {"version": 2}, "data": [{"id": 1}, {"id": 2}]}')
    assert list(ts) == ["rooms"] and notes == ["rooms.json: key 'meta' is not a collection, skipped"]


def test_html_tables_caption_heading_colspan():
    text = ("<h3>Staff</h3><table><tr><th>id</th><th>Name</th><th>Role</th></tr>"
            "<tr><td>1</td><td colspan=2>Ann <i>lead</i></td></tr><tr><td>2</td><td>Bo</td><td>dev</td></tr></table>"
            "<table><caption>Empty one</caption><tr><th>x</th></tr></table>")
    ts, notes = parsed("page.html", text)
    assert list(ts) == ["staff"]
    assert as_dict(ts["staff"])["rows"] == [[1, "Ann lead", "Ann lead"], [2, "Bo", "dev"]]


def test_markdown_table_named_by_heading_with_escaped_pipe():
    text = "# Doc\n## Crop Families\n| id | family | perennial |\n|---|:--:|---|\n| 1 | Solanaceae | no |\n" \
           "| 2 | Rosaceae \\| woody | yes |\n\nprose | not a table\n"
    ts, _ = parsed("crops.md", text)
    assert as_dict(ts["crop_families"]) == {"columns": ["id", "family", "perennial"], "types": ["INTEGER", "TEXT", "TEXT"],
                                            "pk": "id", "fks": [],
                                            "rows": [[1, "Solanaceae", "no"], [2, "Rosaceae | woody", "yes"]]}


def test_sql_dump_with_mysql_warts_and_a_broken_statement():
    text = ("-- dump\n/*!40101 SET NAMES utf8 */;\nCREATE TABLE `airlines` (`id` int(11) NOT NULL AUTO_INCREMENT, "
            "`name` varchar(20), PRIMARY KEY (`id`)) ENGINE=InnoDB DEFAULT CHARSET=utf8;\n"
            "INSERT INTO `airlines` VALUES (1,'TAP'),(2,'Iberia');\n"
            "CREATE TABLE routes (id INTEGER PRIMARY KEY, airline INT UNSIGNED REFERENCES airlines(id), km INT);\n"
            "INSERT INTO routes VALUES (1, 1, 274), (2, 2, 503), (3, 7, 10);\nINSERT INTO routes VALUES (4, 'x';\n"
            "DROP TABLE airlines;\n")
    ts, notes = parsed("dump.sql", text)
    assert len(notes) == 1 and notes[0].startswith("dump.sql: statement failed")
    assert as_dict(ts["airlines"])["rows"] == [[1, "TAP"], [2, "Iberia"]]
    assert as_dict(ts["routes"]) == {"columns": ["id", "airline", "km"], "types": ["INTEGER"] * 3, "pk": "id",
                                     "fks": [("airline", "airlines", "id")],
                                     "rows": [[1, 1, 274], [2, 2, 503], [3, None, 10]]}


def test_yaml_record_lists_typed():
    text = ("# garden\nbeds:\n  - id: 1\n    name: North bed\n    sunny: true\n  - id: 2\n    name: \"South: bed\"\n"
            "    sunny: no\nplants:\n  - id: 10\n    bed_id: 1\n    spacing_cm: 45.5\n  - id: 11\n    bed_id: 2\n"
            "    spacing_cm: ~   # unknown\n  - id: 12\n    bed_id: 3\n    spacing_cm: '7'\n")
    ts, notes = parsed("garden.yaml", text)
    assert notes == []
    assert as_dict(ts["beds"])["rows"] == [[1, "North bed", 1], [2, "South: bed", 0]]
    assert as_dict(ts["plants"]) == {"columns": ["id", "bed_id", "spacing_cm"], "types": ["INTEGER", "INTEGER", "TEXT"],
                                     "pk": "id", "fks": [("bed_id", "beds", "id")],
                                     "rows": [[10, 1, "45.5"], [11, 2, None], [12, None, "7"]]}


def test_bad_documents_are_notes_not_errors():
    cases = {"empty.csv": b"", "blob.csv": b"\x00\x01binary", "broken.json": b'{"a": [1,',
             "huge.csv": b"a,b\n" + b"1,2\n" * 10, "notes.txt": b"plain prose", "one.csv": b"a,b\n"}
    reasons = {n: parsers.parse_document(n, d, max_bytes=30)[1][0] for n, d in cases.items()}
    assert reasons["empty.csv"] == "empty.csv: empty"
    assert reasons["blob.csv"] == "blob.csv: binary"
    assert reasons["broken.json"].startswith("broken.json: not JSON")
    assert reasons["huge.csv"] == "huge.csv: too large (44 bytes > 30)"
    assert reasons["notes.txt"] == "notes.txt: no structured data (text)"
    assert reasons["one.csv"] == "one.csv: no data rows"


# ---------------------------------------------------------------------------- keys and relations

def test_duplicate_keys_dropped_or_surrogate_added():
    few = tables.Table("items", ["id", "v"], [["1", "a"], ["2", "b"], ["2", "c"], ["3", "d"], ["4", "e"], ["5", "f"]])
    many = tables.Table("logs", ["id", "v"], [["1", "a"], ["1", "b"], ["1", "c"]])
    few, many = tables.relate([few, many])
    assert (few.pk, [r[0] for r in few.rows]) == ("id", [1, 2, 3, 4, 5])
    assert few.notes == ["dropped 1 rows with a duplicate or missing id"]
    assert (many.pk, many.columns, many.rows[2]) == ("row_id", ["row_id", "id", "v"], [3, 1, "c"])


def test_fk_needs_name_and_containment_and_component():
    cats = tables.Table("categories", ["id", "name"], [["1", "a"], ["2", "b"]])
    prods = tables.Table("products", ["id", "category_id", "parent_id", "size"],
                         [["1", "1", "", "2"], ["2", "2", "1", "1"], ["3", "9", "2", "9"]])
    other = tables.Table("weather", ["day", "temp"], [["mon", "3"], ["tue", "4"]])
    ts = tables.relate([cats, prods, other])
    assert ts[1].fks == [("category_id", "categories", "id"), ("parent_id", "products", "id")]  # size: no name match
    assert [r[1] for r in ts[1].rows] == [1, 2, None]
    assert [t.name for t in tables.largest_component(ts)] == ["categories", "products"]


def test_name_collisions_merge_or_rename():
    a = tables.Table("t", ["id"], [["1"]], "a.csv")
    b = tables.Table("t", ["id"], [["2"]], "b.csv")
    c = tables.Table("t", ["id", "x"], [["3", "4"]], "c.csv")
    ts = tables.relate([a, b, c])
    assert [(t.name, len(t.rows)) for t in ts] == [("t", 2), ("t_2", 1)]


# ---------------------------------------------------------------------------- retrieval

def test_bm25_hand_computed():
    docs = [["cat", "cat", "dog"], ["dog"], ["bird"]]
    bm = retrieval.BM25(docs, k1=1.5, b=0.75)
    avg = 5 / 3
    idf = math.log(1 + (3 - 1 + 0.5) / (1 + 0.5))
    expect = idf * 2 * 2.5 / (2 + 1.5 * (0.25 + 0.75 * 3 / avg))
    assert bm.scores(["cat"])[0] == np.float64(expect) or abs(bm.scores(["cat"])[0] - expect) < 1e-12
    assert bm.top(["cat", "bird"], 5)[0][0] in (0, 2) and [i for i, _ in bm.top(["dog"], 5)] == [1, 0]
    assert bm.top(["fish"], 5) == []


def test_tfidf_cosine():
    m = retrieval.cosine_matrix(["hotel booking rooms", "flight tickets"], ["hotel booking rooms", "garden plants"])
    assert abs(m[0, 0] - 1) < 1e-9 and m[0, 1] == 0 and m[1, 1] == 0


def test_corpus_search_and_browse(tmp_path):
    (tmp_path / "birds").mkdir()
    (tmp_path / "birds" / "owls.csv").write_text("id,name\n1,barn owl\n")
    (tmp_path / "fish.csv").write_text("id,name\n1,trout\n")
    c = retrieval.Corpus(str(tmp_path))
    hits = c.search("owl birds", 5)
    assert hits[0]["url"] == "birds/owls.csv" and c.topic(hits[0]["url"]) == "birds"
    assert c.browse("fish.csv").startswith(b"id,name")
    try:
        c.browse("../etc/passwd")
        raise AssertionError("escaped the corpus")
    except FileNotFoundError:
        pass


def test_natural_keys_kept_and_unnamed_text_reference_by_containment():
    projects = "- project_id: PJ01\n  name: Site\n- project_id: PJ02\n  name: App\n"
    tasks = "task_id,project_id,assignee,size\nT1,PJ01,MEM01,S\nT2,PJ02,MEM02,M\nT3,PJ02,MEM01,L\n"
    members = "| member_id | name |\n|---|---|\n| MEM01 | Ann |\n| MEM02 | Bo |\n| MEM03 | Cy |\n"
    found = []
    for name, text in (("projects.yaml", projects), ("tasks.csv", tasks), ("members.md", members)):
        found += parsers.parse_document(name, text.encode())[0]
    ts = {t.name: t for t in tables.relate(found)}
    assert ts["projects"].columns == ["project_id", "name"] and ts["projects"].pk == "project_id"
    assert ts["tasks"].fks == [("project_id", "projects", "project_id"), ("assignee", "members", "member_id")]


def test_natural_key_and_reference_by_table_name():
    planets = "- name: Mars\n  order: 4\n- name: Jupiter\n  order: 5\n"
    moons = "moon,planet,discovered\nPhobos,Mars,1877\nIo,Jupiter,1610\nEuropa,Jupiter,\n"
    cities = "| city | country_code |\n|---|---|\n| Lisbon | PT |\n| Porto | PT |\n| Paris | FR |\n"
    countries = "alpha2,name\nPT,Portugal\nFR,France\n"
    elements = "atomic_number,symbol,name\n1,H,Hydrogen\n8,O,Oxygen\n"
    parts = "compound_id,symbol,atom_count\nC1,H,2\nC1,O,1\nC2,H,2\n"
    found = []
    for name, text in (("planets.yaml", planets), ("moons.csv", moons), ("cities.md", cities),
                       ("countries.csv", countries), ("elements.csv", elements), ("compound_elements.csv", parts)):
        found += parsers.parse_document(name, text.encode())[0]
    ts = {t.name: t for t in tables.relate(found)}
    assert (ts["planets"].pk, ts["moons"].pk, ts["countries"].pk) == ("name", "moon", "alpha2")
    assert ts["moons"].fks == [("planet", "planets", "name")]
    assert ts["cities"].fks == [("country_code", "countries", "alpha2")]
    assert ts["elements"].pk == "symbol"  # not atomic_number: compound_elements holds symbols
    assert ts["compound_elements"].fks == [("symbol", "elements", "symbol")]
