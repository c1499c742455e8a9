"""The inside of a lib.sandbox worker: limits, audit hook, restricted builtins, and the request loop."""
import base64
import builtins
import functools
import importlib
import json
import os
import random
import resource
import select
import struct
import sys
import time
import traceback

if __name__ == "__main__":  # started by lib.sandbox as a script (python -I): make `lib` importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from lib.envs import CLOCK_START, open_episode_db, run_tool
from lib.schemas import describe_function, public_functions

LIB = os.path.dirname(os.path.abspath(__file__))
# What untrusted code may import (top-level names). Everything else raises ImportBlocked.
ALLOWED_IMPORTS = {
    "json", "math", "re", "datetime", "time", "collections", "itertools", "functools", "statistics",
    "decimal", "fractions", "random", "string", "typing", "dataclasses", "enum", "sqlite3", "hashlib",
    "heapq", "bisect", "copy", "operator", "textwrap", "csv", "io", "calendar", "unicodedata",
    "numbers", "abc", "contextlib", "pprint", "uuid", "difflib", "__future__", "zoneinfo",
}

# Modules untrusted code must never load, even indirectly through an allowed module.
DENIED_MODULES = {"ctypes", "_ctypes", "subprocess", "_posixsubprocess", "socket", "_socket", "ssl", "_ssl",
                  "multiprocessing", "_multiprocessing", "pty", "asyncio", "mmap", "urllib", "http", "ftplib",
                  "smtplib", "requests", "pdb", "code", "webbrowser"}
# Audit events refused outright.
DENIED_EVENTS = ("os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "os.kill",
                 "os.killpg", "os.setuid", "os.setgid", "os.chroot", "subprocess.", "socket.", "ctypes.", "pty.",
                 "webbrowser.", "urllib.", "http.", "ftplib.", "smtplib.", "resource.setrlimit",
                 "resource.prlimit", "sys.addaudithook", "sys.setrecursionlimit")
# Audit events allowed only on paths inside the scratch folder.
PATH_EVENTS = {"os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.chmod", "os.chown", "os.truncate",
               "os.link", "os.symlink", "os.utime", "os.listdir", "os.scandir", "os.chdir",
               "shutil.rmtree", "shutil.copyfile", "shutil.copymode", "shutil.move", "shutil.copystat"}
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


def write_frame(fd, obj):
    """Send one length-prefixed JSON message."""
    data = json.dumps(obj).encode()
    view = memoryview(struct.pack(">I", len(data)) + data)
    while view:
        view = view[os.write(fd, view):]


def read_frame(fd, buf, deadline=None, cap=None):
    """Read one length-prefixed JSON message; buf (bytearray) keeps bytes read past it.

    Returns the message, or "eof", "timeout", or ("too_large", size) when cap is exceeded.
    """
    need = 4
    while True:
        if len(buf) >= 4:
            size = struct.unpack(">I", buf[:4])[0]
            if cap is not None and size > cap:
                return ("too_large", size)
            need = 4 + size
            if len(buf) >= need:
                msg = json.loads(bytes(buf[4:need]))
                del buf[:need]
                return msg
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return "timeout"
        chunk = os.read(fd, max(need - len(buf), 65536))
        if not chunk:
            return "eof"
        buf += chunk


class SandboxViolation(PermissionError):
    """Raised inside the worker when untrusted code does something the sandbox refuses."""
    sandbox_kind = "forbidden"


class ImportBlocked(ImportError):
    sandbox_kind = "import_blocked"


class OutputLimit(Exception):
    sandbox_kind = "output_too_large"


class CappedIO:
    """sys.stdout/stderr replacement that keeps at most `cap` characters and then refuses more."""

    def __init__(self, cap):
        self.cap, self.parts, self.size = cap, [], 0

    def write(self, s):
        self.size += len(s)
        if self.size > self.cap:
            raise OutputLimit(f"printed more than {self.cap} characters")
        self.parts.append(s)
        return len(s)

    def flush(self):
        pass

    def take(self):
        text, self.parts, self.size = "".join(self.parts), [], 0
        return text


def enter_jail(scratch):
    """chroot into the scratch folder when privileged (root, or root of a user namespace); True if done."""
    try:
        os.chroot(scratch)
        os.chdir("/")
        return True
    except OSError:
        return False


def make_audit_hook(scratch, read_roots, jailed):
    """An audit hook enforcing the sandbox's file, process and network rules."""
    def inside(path, roots):
        p = os.path.realpath(os.fsdecode(path))
        if jailed and os.path.isabs(os.fsdecode(path)) and not os.path.exists(p):
            return False  # in the jail, an absolute path to something absent names the world outside
        return any(p == r or p.startswith(r.rstrip(os.sep) + os.sep) for r in roots)

    def hook(event, args):
        if event == "open":
            path, mode, flags = args
            if isinstance(path, int):
                if path > 2:
                    raise SandboxViolation("opening inherited file descriptors is not allowed")
                return
            writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or bool((flags or 0) & WRITE_FLAGS)
            if not inside(path, [scratch] if writing else [scratch] + read_roots):
                raise SandboxViolation(f"{'writing' if writing else 'reading'} {path} is outside the sandbox")
        elif event == "sqlite3.connect":
            db = str(args[0])
            if db not in (":memory:", "") and not inside(db, [scratch]):
                raise SandboxViolation(f"sqlite database {db} is outside the scratch folder")
        elif event.startswith(DENIED_EVENTS):
            raise SandboxViolation(f"{event} is not allowed in the sandbox")
        elif event in PATH_EVENTS:
            paths = [a for a in args if isinstance(a, (str, bytes, os.PathLike))]
            if not all(inside(p, [scratch]) for p in paths):
                raise SandboxViolation(f"{event} outside the scratch folder")
        elif event == "import" and args[0].split(".")[0] in DENIED_MODULES:
            raise SandboxViolation(f"module {args[0]} is not available in the sandbox")
        elif event == "object.__setattr__" and args[1] in ("__code__", "__globals__"):
            raise SandboxViolation("rewriting code objects is not allowed")
    return hook


def guarded_import(name, globals=None, locals=None, fromlist=(), level=0):
    """__import__ for untrusted code: only ALLOWED_IMPORTS."""
    if level != 0 or name.split(".")[0] not in ALLOWED_IMPORTS:
        raise ImportBlocked(f"import of {name!r} is not allowed (allowed: {', '.join(sorted(ALLOWED_IMPORTS))})")
    return builtins.__import__(name, globals, locals, fromlist, level)


SAFE_BUILTINS = {k: v for k, v in vars(builtins).items()
                 if k not in ("breakpoint", "input", "exit", "quit", "help", "copyright", "credits", "license")}
SAFE_BUILTINS["__import__"] = guarded_import


@functools.lru_cache(maxsize=64)
def compiled(source, name):
    """Compile once per source: trusted in-process runs load the same tools and verifiers many times."""
    return compile(source, f"{name}.py", "exec")


def load_untrusted(source, name):
    """Execute a module's source in a fresh namespace with restricted builtins."""
    ns = {"__name__": name, "__builtins__": SAFE_BUILTINS}
    exec(compiled(source, name), ns)
    return ns


def failure(e):
    """Map an exception to the sandbox's structured error."""
    if isinstance(e, SyntaxError):
        return {"error": "syntax_error", "message": f"line {e.lineno}: {e.msg}"}
    if isinstance(e, SystemExit):
        return {"error": "exit", "message": f"the program called exit({e.code})"}
    kind = {MemoryError: "memory", RecursionError: "recursion"}.get(type(e), getattr(e, "sandbox_kind", "exception"))
    frames = [f for f in traceback.extract_tb(e.__traceback__) if not f.filename.startswith(LIB)]  # the program's
    where = "".join(traceback.format_list(frames[-3:]))
    return {"error": kind, "message": f"{type(e).__name__}: {e}" + (f"\n{where}" if where else "")}


class Toolbox:
    """Tools bound to one database, called as tools.name(**kwargs) with the agent's semantics."""

    def __init__(self, functions, db):
        for name, fn in functions.items():
            setattr(self, name, lambda _fn=fn, **kw: run_tool(_fn, db, kw))


def handle(msg, state, out):
    """Serve one request; `state` carries the episode between requests."""
    op = msg["op"]
    if op == "open":
        ns = load_untrusted(msg["source"], "tools")
        state["functions"] = {f.__name__: f for f in public_functions(ns)}
        state["db"] = open_episode_db(base64.b64decode(msg["db"]), msg["seed"], msg["clock_start"])
        random.seed(msg["seed"])
        return {"tools": sorted(state["functions"])}
    if op == "call":
        fn = state["functions"].get(msg["name"])
        if fn is None:
            return {"error": "unknown_tool", "message": msg["name"]}
        result = run_tool(fn, state["db"], msg["arguments"])
        if isinstance(result, dict) and "error" in result and result["error"] == "tool_error":
            for kind in ("SandboxViolation", "ImportBlocked", "OutputLimit", "MemoryError", "RecursionError"):
                if result["message"].startswith(kind):
                    result["error"] = {"SandboxViolation": "forbidden", "ImportBlocked": "import_blocked",
                                       "OutputLimit": "output_too_large", "MemoryError": "memory",
                                       "RecursionError": "recursion"}[kind]
        return {"result": result}
    if op == "dump":
        return {"db": base64.b64encode(state["db"].serialize()).decode()}
    if op == "describe":
        ns = load_untrusted(msg["source"], "tools")
        return {"tools": [describe_function(f) for f in public_functions(ns)]}
    if op == "run":
        for fname, text in msg["files"].items():
            if os.path.basename(fname) != fname:
                return {"error": "forbidden", "message": f"file name {fname!r} must not contain a path"}
            with open(fname, "w") as f:  # the working directory is the scratch folder
                f.write(text)
        db = open_episode_db(base64.b64decode(msg["db"]), msg["seed"], msg["clock_start"] or CLOCK_START) \
            if msg["db"] else None
        random.seed(msg["seed"])
        ns = load_untrusted(msg["code"], "program")
        entry = ns.get(msg["entry"])
        if not callable(entry):
            return {"error": "exception", "message": f"the program defines no function {msg['entry']!r}"}
        kwargs = dict(msg["kwargs"])
        params = entry.__code__.co_varnames[:entry.__code__.co_argcount]
        if db is not None:
            kwargs.update({p: db for p in params if p in ("db", "final_db")})
        if msg["tools_source"] and "tools" in params:
            tools_ns = load_untrusted(msg["tools_source"], "tools")
            kwargs["tools"] = Toolbox({f.__name__: f for f in public_functions(tools_ns)}, db)
        result = entry(**kwargs)
        reply = {"result": json.loads(json.dumps(result, default=str))}
        if msg["return_db"] and db is not None:
            reply["db"] = base64.b64encode(db.serialize()).decode()
        return reply
    return {"error": "exception", "message": f"unknown op {op!r}"}


def main(limits, scratch):
    """Set the limits, arm the hook, then serve length-prefixed JSON requests until stdin closes."""
    inp, out_fd = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)  # C-level writes by the program go nowhere; the protocol has its own fds
    mb = 1 << 20
    resource.setrlimit(resource.RLIMIT_AS, (limits.mem_mb * mb, limits.mem_mb * mb))
    resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_s, limits.cpu_s + 1))
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_mb * mb, limits.file_mb * mb))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    for name in sorted(ALLOWED_IMPORTS):  # load them now: inside the jail the standard library is out of reach
        importlib.import_module(name)
    # The kernel's own fence: in the chroot, no path (not even SQL's ATTACH) reaches outside the scratch folder.
    jailed = enter_jail(scratch)
    if jailed:
        scratch, read_roots = "/", []
    else:
        scratch = os.path.realpath(scratch)
        read_roots = sorted({os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)})
    capture = CappedIO(limits.output_bytes // 2)
    sys.stdout = sys.stderr = capture
    sys.addaudithook(make_audit_hook(scratch, read_roots, jailed))
    state, ctx = {}, {"scratch": scratch}
    buf = bytearray()
    while True:
        msg = read_frame(inp, buf)
        if not isinstance(msg, dict):
            os._exit(0)
        try:
            reply = handle(msg, state, ctx)
        except BaseException as e:  # the program's failure, whatever it is, is the answer
            reply = failure(e)
        try:
            reply["stdout"] = capture.take()
            write_frame(out_fd, reply)
        except (TypeError, ValueError) as e:
            write_frame(out_fd, {"error": "exception", "message": f"unserialisable reply: {e}"})


if __name__ == "__main__":
    from types import SimpleNamespace  # not lib.sandbox.Limits: that module loads subprocess
    main(SimpleNamespace(**json.loads(sys.argv[1])), sys.argv[2])
