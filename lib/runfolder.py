"""Run folders, the contract between stages: atomic files, sorted JSONL with format checks, resumable parts, meta.json.

<run-dir>/<NN_stage>/ holds one stage's outputs. Data files are written to a temporary name and
renamed into place; per-item results go to work/<id>.json as they finish, so an interrupted
stage resumes where it stopped; meta.json is written last and means "finished".
"""
import hashlib
import json
import multiprocessing
import os
import platform
import re
import shutil
import sys
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager

from tqdm import tqdm

FORMAT_VERSION = 1


class FormatError(Exception):
    """A stage input that is missing, unfinished, or of another format version."""


# ---------------------------------------------------------------------------- files

@contextmanager
def atomic_path(path):
    """Yield a temporary path next to `path`; rename it into place only if the block succeeds."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        if os.path.isdir(tmp):
            shutil.rmtree(tmp, ignore_errors=True)
        elif os.path.exists(tmp):
            os.remove(tmp)


def atomic_write(path, data):
    """Write text or bytes to `path` atomically."""
    with atomic_path(path) as tmp:
        with open(tmp, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)


def file_sha(path):
    """sha256 of a file, or of a folder's files (relative names and contents, sorted)."""
    h = hashlib.sha256()
    if os.path.isdir(path):
        for root, dirs, files in os.walk(path):
            dirs.sort()
            for name in sorted(files):
                p = os.path.join(root, name)
                h.update(os.path.relpath(p, path).encode() + b"\0" + bytes.fromhex(file_sha(p)))
        return h.hexdigest()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def dumps(obj):
    """The project's canonical JSON line: sorted keys, UTF-8, no spaces."""
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def write_jsonl(path, rows):
    """Write rows sorted by their unique `id`, atomically."""
    ids = [r["id"] for r in rows]
    if len(set(ids)) != len(ids):
        dup = sorted({i for i in ids if ids.count(i) > 1})[:5]
        raise ValueError(f"{path}: duplicate ids {dup}")
    atomic_write(path, "".join(dumps(r) + "\n" for r in sorted(rows, key=lambda r: r["id"])))


def read_jsonl(path, kind=None):
    """Read a JSONL file; with `kind`, first check that its stage finished and wrote that format."""
    if kind is not None:
        meta_path = os.path.join(os.path.dirname(path), "meta.json")
        if not os.path.exists(meta_path):
            raise FormatError(f"{path}: its stage has not finished (no {meta_path}); run that stage first")
        with open(meta_path) as f:
            got = json.load(f).get("formats", {}).get(os.path.basename(path))
        if got != f"{kind}/{FORMAT_VERSION}":
            raise FormatError(f"{path}: format {got!r}, this code reads {kind}/{FORMAT_VERSION}")
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as e:
                    raise FormatError(f"{path}:{n}: not JSON ({e})") from None
    return rows


def safe_name(item_id):
    """A file-name-safe, collision-free form of an id."""
    clean = re.sub(r"[^A-Za-z0-9._-]", "_", str(item_id))[:80]
    return clean if clean == str(item_id) else f"{clean}-{hashlib.sha256(str(item_id).encode()).hexdigest()[:8]}"


def item_seed(seed, *parts):
    """A per-item seed from the run seed and stable strings (never Python's hash())."""
    text = "/".join(str(p) for p in (seed,) + parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big")


# ---------------------------------------------------------------------------- stages

class Stage:
    """One stage's output folder: resumable parts, outputs, and meta.json written last."""

    def __init__(self, run_dir, name, args):
        self.name, self.args = name, args
        self.dir = os.path.join(run_dir, name)
        self.work = os.path.join(self.dir, "work")
        self.started = time.time()
        self.inputs, self.formats = {}, {}

    @property
    def finished(self):
        return os.path.exists(os.path.join(self.dir, "meta.json"))

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    def input(self, path):
        """Record an input file or folder (with its content hash) and return the path."""
        if not os.path.exists(path):
            raise FormatError(f"{self.name}: input {path} does not exist")
        self.inputs[path] = file_sha(path)
        return path

    # per-item results, for resuming
    def part_path(self, item_id):
        return os.path.join(self.work, safe_name(item_id) + ".json")

    def has_part(self, item_id):
        return os.path.exists(self.part_path(item_id))

    def save_part(self, item_id, obj):
        atomic_write(self.part_path(item_id), dumps(obj))

    def load_part(self, item_id):
        with open(self.part_path(item_id)) as f:
            return json.load(f)

    def write_jsonl(self, name, rows, kind):
        """Write one of the stage's JSONL outputs and remember its format for meta.json."""
        write_jsonl(self.path(name), rows)
        self.formats[name] = f"{kind}/{FORMAT_VERSION}"

    def record_output(self, name, kind):
        """Declare a non-JSONL output (written by the stage) so meta.json hashes and versions it."""
        self.formats[name] = f"{kind}/{FORMAT_VERSION}"

    def finish(self, counts, **extra):
        """Write meta.json last: the stage is finished. Returns the meta dict."""
        outputs = {n: file_sha(self.path(n)) for n in sorted(self.formats)}
        meta = {"stage": self.name, "format": FORMAT_VERSION, "args": _jsonable(vars(self.args)),
                "seed": getattr(self.args, "seed", None), "inputs": self.inputs, "outputs": outputs,
                "formats": self.formats, "counts": counts, "seconds": round(time.time() - self.started, 2),
                "versions": versions(), **extra}
        atomic_write(self.path("meta.json"), json.dumps(meta, indent=1, sort_keys=True))
        return meta


def begin(args, name):
    """Open a stage's folder; exit early when it already finished (unless --force, which clears it)."""
    stage = Stage(args.run_dir, name, args)
    if getattr(args, "force", False) and os.path.isdir(stage.dir):
        shutil.rmtree(stage.dir)
    if stage.finished:
        print(f"{name}: already done ({stage.path('meta.json')} exists); --force to redo")
        sys.exit(0)
    os.makedirs(stage.work, exist_ok=True)
    return stage


def _jsonable(d):
    return {k: v if isinstance(v, (str, int, float, bool, type(None), list)) else str(v) for k, v in d.items()}


def versions():
    """Versions of Python and the installed libraries that matter for reproducing a run."""
    out = {"python": platform.python_version()}
    for mod in ("numpy", "torch", "transformers", "accelerate"):
        m = sys.modules.get(mod)
        if m is not None:
            out[mod] = getattr(m, "__version__", "?")
    return out


_job = None  # the function parallel() maps; forked workers inherit it, so closures need no pickling


def _run_job(item):
    return _job(item)


def parallel(fn, items, workers, desc, processes=True, tally=None):
    """Yield fn(item) for each item, in order, with a progress bar counting tally(result) (e.g. kept/rejected).

    Per-environment work is CPU-bound Python, so it runs on `workers` forked processes;
    processes=False uses threads instead (for LLM calls, which wait on the network and
    share one client's cache and usage counters).
    """
    global _job
    items, counts = list(items), {}
    if workers <= 1 or len(items) <= 1:
        results, pool = (fn(x) for x in items), None
    else:
        _job = fn
        pool = (ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) if processes
                else ThreadPoolExecutor(workers))
        results = pool.map(_run_job if processes else fn, items)
    try:
        bar = tqdm(results, total=len(items), desc=desc)
        for r in bar:
            if tally is not None:
                key = str(tally(r))
                counts[key] = counts.get(key, 0) + 1
                bar.set_postfix(counts, refresh=False)
            yield r
    finally:
        if pool is not None:
            pool.shutdown()
