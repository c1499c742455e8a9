"""The sandbox: a battery of hostile programs, each contained with a structured error, and the normal paths."""
import os
import sys

import pytest

from lib import example_env, sandbox

FAST = sandbox.Limits(wall_s=5, cpu_s=2, mem_mb=512)
GADGET = "[c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0].__init__.__globals__"

# Modules reached through gadgets are refused by the audit hook, or, inside the chroot jail, simply absent.
GONE = ("forbidden", "exception")
HOSTILE = {  # name: (program, expected error kind or kinds)
    "infinite_loop": ("def main():\n    while True:\n        pass\n", "cpu_limit"),
    "sleep_forever": ("import time\ndef main():\n    time.sleep(60)\n", "timeout"),
    "memory_bomb": ("def main():\n    return len('x' * (2 << 30))\n", "memory"),
    "fork_bomb": (f"def main():\n    g = {GADGET}\n    while True:\n        g['fork']()\n", "forbidden"),
    "os_system": (f"def main():\n    return {GADGET}['system']('touch /tmp/sandbox_pwned')\n", "forbidden"),
    "subprocess": ("import subprocess\ndef main():\n    subprocess.run(['ls'])\n", "import_blocked"),
    "subprocess_gadget": (f"def main():\n    return {GADGET}['sys'].modules['importlib'].import_module('subprocess')\n", GONE),
    "socket_connect": (f"def main():\n    s = {GADGET}['sys'].modules['importlib'].import_module('socket')\n", GONE),
    "write_outside": ("def main():\n    open('/tmp/sandbox_escape.txt', 'w').write('x')\n", "forbidden"),
    "read_passwd": ("def main():\n    return open('/etc/passwd').read()\n", "forbidden"),
    "read_secrets": ("def main():\n    return open('/proc/self/environ').read()\n", "forbidden"),
    "sys_exit": ("def main():\n    raise SystemExit(3)\n", "exit"),
    "deep_recursion": ("def main():\n    def f(n):\n        return f(n + 1)\n    return f(0)\n", "recursion"),
    "huge_output": ("def main():\n    while True:\n        print('x' * 10000)\n", "output_too_large"),
    "huge_result": ("def main():\n    return 'x' * (8 << 20)\n", "output_too_large"),
    "import_trick": ("def main():\n    return __builtins__['__import__']('os').getcwd()\n", "import_blocked"),
    "ctypes_gadget": (f"def main():\n    return {GADGET}['sys'].modules['importlib'].import_module('ctypes')\n", GONE),
    "code_rewrite": ("def main():\n    def f(): pass\n    f.__code__ = main.__code__\n", "forbidden"),
    "hard_exit": (f"def main():\n    {GADGET}['_exit'](7)\n", "crashed"),
    "sqlite_attach": ("import sqlite3\ndef main(db):\n    sqlite3.Connection.set_authorizer(db, None)\n"
                      "    db.execute(\"ATTACH DATABASE '/tmp/sandbox_attach.db' AS x\")\n"
                      "    db.execute('CREATE TABLE x.t (a)')\n", "exception"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_program_is_contained(name, monkeypatch):
    monkeypatch.setenv("LLM_API_KEY", "sk-secret-must-not-leak")
    code, kind = HOSTILE[name]
    db = example_env_bytes() if "def main(db)" in code else None
    # CPU-bound cases get a generous wall clock, so the CPU limit (not a busy machine) decides
    limits = sandbox.Limits(wall_s=60, cpu_s=1, mem_mb=512) if kind == "cpu_limit" else FAST
    r = sandbox.run_program(code, "main", db_bytes=db, limits=limits)
    assert r.get("error") in ((kind,) if isinstance(kind, str) else kind), r
    assert "result" not in r
    assert isinstance(r["message"], str) and r["message"]
    for leaked in ("/tmp/sandbox_pwned", "/tmp/sandbox_escape.txt", "/tmp/sandbox_attach.db"):
        assert not os.path.exists(leaked)


def example_env_bytes():
    import sqlite3
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE t (a)")
    return con.serialize()


def test_environment_is_scrubbed(monkeypatch):
    monkeypatch.setenv("LLM_API_KEY", "sk-secret-must-not-leak")
    r = sandbox.run_program(f"def main():\n    return dict({GADGET}['environ'])\n", "main", limits=FAST)
    assert "LLM_API_KEY" not in r["result"] and "sk-secret" not in str(r)


def test_no_network_even_with_gadgets():
    # The socket module can be neither imported nor reached: the audit hook refuses socket creation too.
    code = (f"def main():\n    g = {GADGET}\n    s = g['sys'].modules.get('socket')\n"
            "    return 'absent' if s is None else 'present'\n")
    assert sandbox.run_program(code, "main", limits=FAST)["result"] == "absent"


def test_normal_program_result_stdout_and_scratch_files():
    code = "import json\ndef main(x, y=2):\n    print('adding')\n    open('note.txt', 'w').write(str(x))\n" \
           "    return {'sum': x + y, 'note': open('data.csv').read().strip()}\n"
    r = sandbox.run_program(code, "main", {"x": 40}, files={"data.csv": "a,b\n"})
    assert r == {"result": {"sum": 42, "note": "a,b"}, "stdout": "adding\n"}


def test_syntax_error_and_missing_entry():
    assert sandbox.run_program("def main(:\n", "main")["error"] == "syntax_error"
    assert sandbox.run_program("x = 1\n", "main")["error"] == "exception"


def test_program_with_tools_and_returned_db(tmp_path):
    env_dir = example_env.build(str(tmp_path / "env"), n_books=10)
    db_bytes = open(os.path.join(env_dir, "db.sqlite"), "rb").read()
    tools = open(os.path.join(env_dir, "tools.py")).read()
    program = ("def solve(tools, db):\n    o = tools.place_order(customer_id='c001', book_id='b0001')\n"
               "    bad = tools.get_book(book_id='nope')\n"
               "    n = db.execute('SELECT count(*) AS n FROM orders').fetchone()['n']\n"
               "    return {'order': o['id'], 'bad': bad['error'], 'orders': n}\n")
    r = sandbox.run_program(program, "solve", db_bytes=db_bytes, tools_source=tools, seed=5, return_db=True)
    assert r["result"]["bad"] == "tool_error" and r["result"]["orders"] == 1
    import sqlite3
    con = sqlite3.connect(":memory:")
    con.deserialize(r["db"])
    assert con.execute("SELECT id FROM orders").fetchall() == [(r["result"]["order"],)]


def test_caller_survives_and_pool_recovers():
    for _ in range(3):
        assert sandbox.run_program(HOSTILE["hard_exit"][0], "main", limits=FAST)["error"] == "crashed"
        assert sandbox.run_program("def main():\n    return 1\n", "main")["result"] == 1
    assert sys.modules["lib.sandbox"] is sandbox  # the test process is intact


def test_trusted_in_process_run_matches_the_sandbox(tmp_path):
    import random
    env_dir = example_env.build(str(tmp_path / "env"), n_books=10)
    db_bytes = open(os.path.join(env_dir, "db.sqlite"), "rb").read()
    tools = open(os.path.join(env_dir, "tools.py")).read()
    program = ("import random\ndef solve(tools, db):\n    o = tools.place_order(customer_id='c002', book_id='b0003')\n"
               "    print('placed')\n    return {'order': o['id'], 'draw': random.random()}\n")
    kw = dict(db_bytes=db_bytes, tools_source=tools, seed=11, return_db=True)
    random.seed(123)
    before = random.random()
    random.seed(123)
    inproc = sandbox.run_program(program, "solve", trusted=True, **kw)
    assert random.random() == before  # the caller's random state is untouched
    assert inproc == sandbox.run_program(program, "solve", **kw)
    assert inproc["stdout"] == "placed\n"
    failing = sandbox.run_program("def solve():\n    raise ValueError('nope')\n", "solve", trusted=True)
    assert failing["error"] == "exception" and "ValueError: nope" in failing["message"]
