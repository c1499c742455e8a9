"""Run an environment's tool_tests.py against its tools.py (in-process when trusted, else in lib.sandbox), split a
tools module into per-tool segments, and score each tool by its tests. Shared by 02's repair loop and 03_filter."""
import ast
import functools
import re
import threading

from lib import sandbox
from lib.envs import CLOCK_START, open_episode_db, run_tool
from lib.schemas import SchemaError, describe_function, public_functions, schema_from_description
from lib.sandbox_worker import ALLOWED_IMPORTS

VIOLATIONS = ("SandboxViolation", "ImportBlocked")  # a tool_error starting with these is an escape attempt
RISKY_NAMES = {"__import__", "eval", "exec", "compile", "open", "globals", "locals", "vars", "getattr", "setattr",
               "delattr", "breakpoint", "__builtins__", "__loader__", "__spec__"}
SANDBOX_LOCK = threading.Lock()  # lib.sandbox's warm pool is not thread-safe: start one worker at a time
BATCH_LIMITS = sandbox.Limits()  # the warm pool's limits: all tests of an environment in one worker
SINGLE_LIMITS = sandbox.Limits(wall_s=3.0, cpu_s=5)  # one test alone, after its batch died

# Appended to the tests module inside the sandbox: runs every test on a fresh copy of the state (the worker's db is
# reset by deserialize, cheaper than one worker per test) and reports pass/fail, the failing line and escape attempts.
RUNNER = '''

def _run_tool_tests(db, tools, names, seed, clock):
    snapshot, out, source = db.serialize(), {}, _TEST_SOURCE.splitlines()
    for name in names:
        db.set_authorizer(None)  # deserialize needs it off; setup() re-arms it
        db.deserialize(snapshot)
        db.setup(seed, clock)
        calls = []
        box = type("Tools", (), {})()
        for tool in [t for t in dir(tools) if not t.startswith("_")]:
            def wrapped(_fn=getattr(tools, tool), **kw):
                calls.append(_fn(**kw))
                return calls[-1]
            setattr(box, tool, wrapped)
        try:
            globals()[name](db, box)
            out[name] = {"ok": True}
        except Exception as e:
            tb, line = e.__traceback__, None
            while tb is not None:
                if tb.tb_frame.f_code.co_filename == "program.py":
                    line = tb.tb_lineno
                tb = tb.tb_next
            where = f" at `{source[line - 1].strip()}`" if line and line <= len(source) else ""
            out[name] = {"ok": False, "error": f"{type(e).__name__}: {str(e)[:300]}{where}"}
        bad = [c["message"][:200] for c in calls if isinstance(c, dict) and c.get("error") == "tool_error"
               and c.get("message", "").startswith(_VIOLATIONS)]
        if bad:
            out[name] = {"ok": False, "error": "sandbox violation: " + bad[0], "violation": True}
    return out
'''


# ---------------------------------------------------------------------------- modules as segments

def segments(source):
    """Top-level pieces of a module: [{name (function or None), public, text, error}], each compiled alone.

    When the module parses, pieces follow its AST; otherwise lines starting a def/import/decorator
    cut it, so one broken function does not take the others down.
    """
    return [dict(s) for s in _segments(source)]  # fresh dicts: callers may change theirs


@functools.lru_cache(maxsize=64)
def _segments(source):
    """segments() of one source text, cached: 03 cuts the same module and tests several times."""
    lines = source.splitlines(keepends=True)
    try:
        tree = ast.parse(source)
        starts = [min([n.lineno] + [d.lineno for d in getattr(n, "decorator_list", [])]) for n in tree.body]
    except SyntaxError:
        starts = [i + 1 for i, ln in enumerate(lines) if re.match(r"(@|def |async def |class |import |from )", ln)]
    starts = sorted(set([1] + starts)) if lines else []
    out = []
    for a, b in zip(starts, starts[1:] + [len(lines) + 1]):
        text = "".join(lines[a - 1:b - 1])
        m = re.search(r"^(?:async\s+)?def\s+(\w+)", text, flags=re.M)
        error = _compile_error(text)
        out.append({"name": m[1] if m else None, "public": bool(m) and not m[1].startswith("_"),
                    "text": text, "error": error if error is None else f"line {a - 1 + error[0]}: {error[1]}"})
    return tuple(out)


@functools.lru_cache(maxsize=4096)
def _compile_error(text):
    """(line, message) of the SyntaxError compiling one piece alone raises, or None (cached: pieces recur)."""
    try:
        compile(text, "tools.py", "exec")
    except SyntaxError as e:
        return e.lineno or 1, e.msg
    return None


def compilable(source):
    """(the module without its pieces that do not compile, {function or "line N": syntax error})."""
    segs = segments(source)
    broken = {(s["name"] or s["error"].split(":")[0]): s["error"] for s in segs if s["error"]}
    return "".join(s["text"] for s in segs if not s["error"]), broken


def risky(text):
    """Why a piece of untrusted code looks like an escape attempt (static check, before running it), or None."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in RISKY_NAMES:
            return f"uses {node.id}"
        if isinstance(node, ast.Attribute) and node.attr.startswith("__") and node.attr != "__name__":
            return f"touches {node.attr}"
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            bad = [m for m in mods if m.split(".")[0] not in ALLOWED_IMPORTS]
            if bad:
                return f"imports {bad[0]}"
    return None


def test_names(tests_source):
    """Names of the test functions of a tests module, in source order (empty when it does not parse)."""
    try:
        tree = ast.parse(tests_source)
    except SyntaxError:
        return []
    return [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]


def tool_of(test, tools):
    """The tool a test belongs to: the longest tool name that test_<name>[_...] starts with, or None."""
    rest = test[len("test_"):]
    hits = [t for t in tools if rest == t or rest.startswith(t + "_")]
    return max(hits, key=len) if hits else None


def scores(results, tools):
    """{tool: {"passed", "total", "violation"}} from per-test results."""
    out = {t: {"passed": 0, "total": 0, "violation": False} for t in tools}
    for test, r in results.items():
        t = tool_of(test, tools)
        if t is not None:
            out[t]["total"] += 1
            out[t]["passed"] += bool(r["ok"])
            out[t]["violation"] |= bool(r.get("violation"))
    return out


# ---------------------------------------------------------------------------- running tests

def _failure(e, tests_source):
    """'Kind: message at `line`' for an exception raised by a trusted test."""
    tb, line = e.__traceback__, None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "tool_tests.py":
            line = tb.tb_lineno
        tb = tb.tb_next
    src = tests_source.splitlines()
    where = f" at `{src[line - 1].strip()}`" if line and line <= len(src) else ""
    return f"{type(e).__name__}: {str(e)[:300]}{where}"


class _Tools:
    """tools.name(**kw) bound to one database, with the agent's semantics (a transaction, errors as dicts)."""

    def __init__(self, functions, db):
        for name, fn in functions.items():
            setattr(self, name, lambda _fn=fn, **kw: run_tool(_fn, db, kw))


def run_trusted(tools_source, tests_source, db_bytes, seed=0, clock=CLOCK_START):
    """Run every test in-process on a fresh episode; only for code this project generated."""
    tools_ns, tests_ns = {"__name__": "tools"}, {"__name__": "tool_tests"}
    exec(compile(tools_source, "tools.py", "exec"), tools_ns)
    exec(compile(tests_source, "tool_tests.py", "exec"), tests_ns)
    functions = {f.__name__: f for f in public_functions(tools_ns)}
    out = {}
    for name in test_names(tests_source):
        db = open_episode_db(db_bytes, seed, clock)
        try:
            tests_ns[name](db, _Tools(functions, db))
            out[name] = {"ok": True}
        except Exception as e:  # any failure of a test is its result
            out[name] = {"ok": False, "error": _failure(e, tests_source)}
        db.close()
    return out


def run_sandboxed(tools_source, tests_source, db_bytes, seed=0, clock=CLOCK_START):
    """Run every test in lib.sandbox: one worker for all, then one per test if that worker died."""
    names = test_names(tests_source)
    if not names:
        return {}, "the tests module does not parse or defines no test_ functions"
    code = f"{tests_source}\n_TEST_SOURCE = {tests_source!r}\n_VIOLATIONS = {VIOLATIONS!r}\n{RUNNER}"

    def run(batch, limits):
        with SANDBOX_LOCK:
            return sandbox.run_program(code, "_run_tool_tests", {"names": batch, "seed": seed, "clock": clock},
                                       db_bytes=db_bytes, tools_source=tools_source or "# empty\n", seed=seed,
                                       limits=limits)
    r = run(names, BATCH_LIMITS)
    if "result" in r:
        return r["result"], None
    if r["error"] not in ("timeout", "crashed", "cpu_limit", "memory", "output_too_large", "recursion"):
        return {}, f"{r['error']}: {r['message'][:500]}"  # the modules do not load: every test would fail alike
    out = {}
    for name in names:  # a test that hangs or crashes the worker fails alone
        r = run([name], SINGLE_LIMITS)
        out[name] = r["result"][name] if "result" in r else {"ok": False, "error": f"{r['error']}: {r['message'][:200]}"}
    return out, None


def run_tests(tools_source, tests_source, db_bytes, trusted=False, seed=0, clock=CLOCK_START):
    """({test: {"ok", "error"?, "violation"?}}, load error or None); untrusted code only ever runs in the sandbox."""
    if not trusted:
        return run_sandboxed(tools_source, tests_source, db_bytes, seed, clock)
    try:
        return run_trusted(tools_source, tests_source, db_bytes, seed, clock), None
    except Exception as e:  # a generated module that does not load is a generator bug, reported like a load error
        return {}, f"{type(e).__name__}: {e}"


# ---------------------------------------------------------------------------- describing tools

WRITE_SQL = re.compile(r"\b(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM|REPLACE\s+INTO)\s+[\"`\[]?(\w+)", re.I)


def describe(source, trusted):
    """(tool descriptions, load error or None): trusted code is imported here, untrusted only in the sandbox."""
    if trusted:
        ns = {"__name__": "tools"}
        try:
            exec(compile(source, "tools.py", "exec"), ns)
        except Exception as e:  # a broken generated module
            return [], f"{type(e).__name__}: {e}"
        return [describe_function(f) for f in public_functions(ns)], None
    try:
        with SANDBOX_LOCK:
            return sandbox.describe_tools(source), None
    except sandbox.SandboxError as e:
        return [], f"{e.kind}: {e.message[:500]}"


def schemas(descs):
    """({name: OpenAI schema}, {name: why its schema cannot be derived})."""
    good, bad = {}, {}
    for d in descs:
        try:
            good[d["name"]] = schema_from_description(d)
        except SchemaError as e:
            bad[d["name"]] = str(e)
    return good, bad


def written_tables(source):
    """{function: tables its SQL writes, following calls to other functions of the module} (static, by regex)."""
    direct, calls = {}, {}
    for seg in segments(source):
        if seg["name"] and not seg["error"]:
            tree = ast.parse(seg["text"])
            strings = " ".join(n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str))
            direct[seg["name"]] = {m.lower() for m in WRITE_SQL.findall(strings)}
            calls[seg["name"]] = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    out = {}
    for name in direct:
        seen, stack = set(), [name]
        while stack:
            f = stack.pop()
            if f in direct and f not in seen:
                seen.add(f)
                stack += sorted(calls[f])
        out[name] = sorted(set().union(*(direct[f] for f in seen)))
    return out
