"""Run untrusted code (LLM-written tools, tests, verifiers, solution programs) in a limited worker process.

Layers, outermost first: a separate process started with `python -I` and a scrubbed
environment (no API keys); rlimits on address space, CPU seconds, file size and core dumps;
a wall-clock deadline enforced by the parent (kill); no network (a fresh network namespace
when running as root, and socket events refused); a scratch folder as the only writable
place; a Python audit hook refusing process creation, sockets, ctypes and file access
outside the scratch folder and the standard library; restricted builtins whose
__import__ admits an allowlist of modules. It is defence in depth for generated code, not
a VM: run the pipeline in a container when the code may be adversarial.

Every failure comes back as {"error": kind, "message": ...}; kinds are timeout, cpu_limit,
memory, recursion, forbidden, import_blocked, output_too_large, syntax_error, exit, crashed,
exception. The worker protocol is 4-byte length-prefixed JSON over stdin/stdout.
"""
import atexit
import base64
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass

from lib.sandbox_worker import read_frame, write_frame

WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sandbox_worker.py")

@dataclass
class Limits:
    """Resource limits of one worker (an episode or a program run)."""
    wall_s: float = 10.0         # per request, enforced by the parent
    cpu_s: int = 30              # CPU seconds over the worker's whole life (SIGXCPU)
    mem_mb: int = 1024           # address space
    output_bytes: int = 1 << 20  # a response (result plus captured stdout) larger than this is refused
    file_mb: int = 16            # largest file the program may write in its scratch folder


class SandboxError(Exception):
    """A sandboxed operation that failed; .kind is one of the error kinds above."""

    def __init__(self, kind, message):
        super().__init__(f"{kind}: {message}")
        self.kind, self.message = kind, message


def _error(kind, message):
    return {"error": kind, "message": str(message)[:4000]}


# ---------------------------------------------------------------------------- parent side

_prefix = None


def isolation_prefix():
    """`unshare` arguments giving a worker fresh network (and, unprivileged, user) namespaces, if this host allows.

    Inside them the worker is offline and may chroot into its scratch folder.
    """
    global _prefix
    if _prefix is None:
        _prefix = []
        for cmd in (["unshare", "--net"], ["unshare", "--user", "--map-root-user", "--net"]):
            if shutil.which("unshare") and subprocess.run(cmd + ["true"], capture_output=True).returncode == 0:
                _prefix = cmd
                break
    return _prefix


class Worker:
    """One sandboxed process; serves the requests of one episode or one program, then is discarded."""

    def __init__(self, limits=None):
        self.limits = limits or Limits()
        self.scratch = tempfile.mkdtemp(prefix="sandbox_")
        env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1"}
        self.proc = subprocess.Popen(
            isolation_prefix() + [sys.executable, "-I", WORKER, json.dumps(asdict(self.limits)), self.scratch],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            cwd=self.scratch, env=env, start_new_session=True)
        self.dead = None  # the error that ended this worker, once it has ended
        self.buf = bytearray()

    def request(self, msg, wall_s=None):
        """Send one request and wait for its response; any failure becomes an error dict."""
        if self.dead:
            return self.dead
        deadline = time.monotonic() + (wall_s or self.limits.wall_s)
        try:
            write_frame(self.proc.stdin.fileno(), msg)
        except (BrokenPipeError, OSError):
            return self._die(self._exit_error())
        msg = read_frame(self.proc.stdout.fileno(), self.buf, deadline, self.limits.output_bytes)
        if isinstance(msg, dict):
            return msg
        if isinstance(msg, tuple):
            return self._die(_error("output_too_large", f"response of {msg[1]} bytes, limit {self.limits.output_bytes}"))
        if msg == "timeout":
            return self._die(_error("timeout", f"no answer within {wall_s or self.limits.wall_s:.1f} s"))
        return self._die(self._exit_error())

    def _exit_error(self):
        """Explain why the process ended."""
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return _error("crashed", "worker stopped answering")
        if code == -signal.SIGXCPU:
            return _error("cpu_limit", f"CPU time limit of {self.limits.cpu_s} s reached")
        if code < 0:
            return _error("crashed", f"worker killed by signal {signal.Signals(-code).name}")
        return _error("crashed", f"worker exited with status {code}")

    def _die(self, err):
        self.dead = err
        self.close()
        return err

    # -- episode operations, as used by lib.envs.Episode
    def call(self, name, arguments):
        """Call one tool of the open episode."""
        r = self.request({"op": "call", "name": name, "arguments": arguments})
        return r["result"] if "result" in r else r

    def dump(self):
        """The episode's current database, serialized."""
        r = self.request({"op": "dump"})
        if "error" in r:
            raise SandboxError(r["error"], r["message"])
        return base64.b64decode(r["db"])

    def close(self):
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                f.close()
            except OSError:
                pass
        shutil.rmtree(self.scratch, ignore_errors=True)


_pool = []  # started workers waiting for work: their interpreter boots while the caller does other things
POOL_SIZE = 2
_pool_pid = os.getpid()


def acquire(limits=None):
    """A fresh worker, from the warm pool when the limits are the defaults."""
    global _pool_pid
    if _pool_pid != os.getpid():  # a forked child must not share its parent's started workers
        _pool.clear()
        _pool_pid = os.getpid()
    if limits is not None and limits != Limits():
        return Worker(limits)
    w = _pool.pop() if _pool else Worker()
    while len(_pool) < POOL_SIZE:
        _pool.append(Worker())
    return w


def _drain_pool():
    while _pool:
        _pool.pop().close()


atexit.register(_drain_pool)


def open_episode(source, db_bytes, seed, clock_start, limits=None):
    """A worker holding one episode: the tools module loaded, the database copied into memory."""
    w = acquire(limits)
    r = w.request({"op": "open", "source": source, "db": base64.b64encode(db_bytes).decode(),
                   "seed": seed, "clock_start": clock_start})
    if "error" in r:
        w.close()
        raise SandboxError(r["error"], r["message"])
    return w


def describe_tools(source, limits=None):
    """Load a tools module in a worker and describe its public functions (see lib.schemas.describe_function)."""
    w = acquire(limits)
    try:
        r = w.request({"op": "describe", "source": source})
    finally:
        w.close()
    if "error" in r:
        raise SandboxError(r["error"], r["message"])
    return r["tools"]


def run_program(code, entry, kwargs=None, db_bytes=None, tools_source=None, seed=0,
                clock_start=None, files=None, return_db=False, limits=None, trusted=False):
    """Run `entry(**kwargs)` from `code` in a fresh worker; never raises.

    Parameters of `entry` named db / final_db receive the database copied from `db_bytes`,
    and one named tools receives the tools of `tools_source` bound to that database (each
    call a transaction, errors as dicts, as the agent sees them). `files` ({name: text}) are
    written into the scratch folder first. Returns {"result", "stdout"[, "db"]} or an error dict.
    trusted=True (code this project generated from its own templates) runs the same request
    in-process, without limits: same results, no process start.
    """
    msg = {"op": "run", "code": code, "entry": entry, "kwargs": kwargs or {}, "seed": seed,
           "tools_source": tools_source, "files": files or {}, "return_db": return_db,
           "clock_start": clock_start, "db": base64.b64encode(db_bytes).decode() if db_bytes else None}
    if trusted:
        r = run_trusted(msg)
    else:
        w = acquire(limits)
        try:
            r = w.request(msg)
        finally:
            w.close()
    if return_db and "db" in r:
        r["db"] = base64.b64decode(r["db"])
    return r


def run_trusted(msg):
    """Serve one "run" request in this process (the worker's own code path, minus the limits)."""
    import contextlib
    import io
    from lib.sandbox_worker import failure, handle
    if msg["files"]:
        raise ValueError("trusted runs take no files: they would be written into the current directory")
    import random
    out, rng_state = io.StringIO(), random.getstate()  # handle() seeds the random module: keep ours
    try:
        with contextlib.redirect_stdout(out):
            reply = handle(msg, {}, {})
    except Exception as e:  # the program's own failure is its answer, as in a worker
        reply = failure(e)
    finally:
        random.setstate(rng_state)
    reply["stdout"] = out.getvalue()
    return json.loads(json.dumps(reply))
