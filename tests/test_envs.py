"""The environment runtime: schemas, validation, episodes, determinism, isolation, state hash and diff."""
import json
import sqlite3

import pytest

from lib import envs, example_env, schemas, state


@pytest.fixture(scope="module")
def env_dir(tmp_path_factory):
    return example_env.build(str(tmp_path_factory.mktemp("env") / "bookshop"), n_books=40)


@pytest.fixture(scope="module")
def env(env_dir):
    return envs.Env(env_dir)


def test_schema_derived_from_docstring(env):
    s = env.by_name["place_order"]["function"]
    assert s["parameters"]["required"] == ["customer_id", "book_id"]
    assert s["parameters"]["properties"]["quantity"] == {"type": "integer", "description": "How many copies (at least 1)."}
    assert "db" not in s["parameters"]["properties"]
    assert [t["function"]["name"] for t in env.schemas] == ["get_book", "search_books", "place_order", "cancel_order"]


def test_validation_errors_are_structured(env):
    ep = env.episode()
    assert ep.call("get_book", {"book_id": 7}) == {
        "error": "invalid_arguments", "message": "arguments.book_id: expected string, got int 7"}
    assert ep.call("get_book", {})["message"] == "arguments: missing required argument 'book_id'"
    assert ep.call("get_book", "{not json")["error"] == "invalid_arguments"
    assert ep.call("search_books", {"limit": True})["error"] == "invalid_arguments"  # bool is not an integer
    assert ep.call("search_books", {"author": None})  != []  # nullable accepts null
    assert ep.call("fly", {})["error"] == "unknown_tool"
    assert ep.call("get_book", {"book_id": "zzz"}) == {"error": "tool_error", "message": "ValueError: no book with id 'zzz'"}


def test_failed_write_rolls_back(env):
    ep = env.episode()
    before = state.state_hash(ep.final_db())
    assert ep.call("place_order", {"customer_id": "c001", "book_id": "b0001", "quantity": 10**6})["error"] == "tool_error"
    assert state.state_hash(ep.final_db()) == before


def _script(ep):
    out = [ep.call("place_order", {"customer_id": "c002", "book_id": "b0003", "quantity": 1}),
           ep.call("search_books", {"max_price": 30.0, "limit": 3})]
    out.append(ep.call("cancel_order", {"order_id": out[0]["id"]}))
    return out


def test_same_calls_same_seed_identical_bytes(env):
    a, b = env.episode(seed=3), env.episode(seed=3)
    ra, rb = _script(a), _script(b)
    assert json.dumps(ra) == json.dumps(rb)
    assert a.final_db().serialize() == b.final_db().serialize()
    assert ra[0]["created_at"] == "2025-06-02T09:00:01Z"  # frozen clock, one tick per call
    assert env.episode(seed=4).call("place_order", {"customer_id": "c002", "book_id": "b0003"})["id"] != ra[0]["id"]


def test_episode_isolation(env, env_dir):
    a, b = env.episode(), env.episode()
    initial = state.state_hash(env.initial_db())
    a.call("place_order", {"customer_id": "c001", "book_id": "b0002"})
    assert state.state_hash(a.final_db()) != initial
    assert state.state_hash(b.final_db()) == initial
    assert state.state_hash(envs.Env(env_dir).initial_db()) == initial  # the file on disk is untouched


def test_state_hash_ignores_row_order():
    def db(rows):
        con = sqlite3.connect(":memory:")
        con.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
        con.executemany("INSERT INTO t VALUES (?, ?)", rows)
        return con
    assert state.state_hash(db([(1, "a"), (2, "b")])) == state.state_hash(db([(2, "b"), (1, "a")]))
    assert state.state_hash(db([(1, "a")])) != state.state_hash(db([(1, "b")]))


def test_diff_hand_checked():
    a, b = sqlite3.connect(":memory:"), sqlite3.connect(":memory:")
    for con in (a, b):
        con.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
        con.execute("CREATE TABLE log (msg TEXT)")
    a.executemany("INSERT INTO t VALUES (?, ?)", [(1, "x"), (2, "y")])
    b.executemany("INSERT INTO t VALUES (?, ?)", [(1, "x"), (2, "z"), (3, "w")])
    a.executemany("INSERT INTO log VALUES (?)", [("m",), ("m",)])
    b.executemany("INSERT INTO log VALUES (?)", [("m",)])
    assert state.diff(a, b) == {
        "log": {"added": [], "removed": [{"msg": "m"}], "changed": []},
        "t": {"added": [{"id": 3, "v": "w"}], "removed": [],
              "changed": [{"key": [2], "before": {"id": 2, "v": "y"}, "after": {"id": 2, "v": "z"}}]}}
    assert state.diff(a, a) == {}


def test_format_checks_name_the_file(tmp_path, env_dir):
    bad = tmp_path / "db.sqlite"
    con = sqlite3.connect(bad)
    con.execute("CREATE TABLE _meta (key TEXT PRIMARY KEY, value TEXT)")
    con.execute("INSERT INTO _meta VALUES ('format_version', '99')")
    con.commit()
    with pytest.raises(envs.EnvFormatError, match=r"db\.sqlite: format_version '99', expected 1"):
        envs.read_db_bytes(str(bad))
    with pytest.raises(envs.EnvFormatError, match="does not match env.json id"):
        envs.read_db_bytes(env_dir + "/db.sqlite", "other-env")
    with pytest.raises(envs.EnvFormatError, match="env.json"):
        envs.Env(str(tmp_path))


def test_sandboxed_episode_matches_inline(env_dir, env):
    sb = envs.Env(env_dir, sandbox=True)
    assert sb.schemas == env.schemas
    a, b = env.episode(seed=9), sb.episode(seed=9)
    try:
        assert json.dumps(_script(a)) == json.dumps(_script(b))
        assert a.call("get_book", {"book_id": "nope"}) == b.call("get_book", {"book_id": "nope"})
        assert a.final_db().serialize() == b.final_db().serialize()
    finally:
        b.close()


def test_schema_derived_in_sandbox_without_cache(env_dir, tmp_path):
    import shutil
    d = tmp_path / "copy"
    shutil.copytree(env_dir, d)
    (d / "tools.json").unlink()
    sb = envs.Env(str(d), sandbox=True)
    assert sb.schemas == envs.Env(env_dir).schemas
    assert json.loads((d / "tools.json").read_text())["tools_sha256"] == schemas.source_sha((d / "tools.py").read_text())


def test_untyped_annotation_is_refused():
    with pytest.raises(schemas.SchemaError, match="unsupported type annotation"):
        schemas.schema_from_description({"name": "f", "doc": "F.\n\nArgs:\n    x: An x.",
                                      "params": [{"name": "x", "annotation": "__import__('os')", "required": True}]})
