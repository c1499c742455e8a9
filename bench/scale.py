"""Scale run: the offline pipeline (01 to 05) on 100, 500 and 2,000 themes; wall time, peak memory, cost per environment.

    python bench/scale.py --sizes 100 500 2000 --workers 2 --out /tmp/scale   # about an hour on 2 cores
    python bench/scale.py --sizes 20 --out /tmp/scale_smoke                    # a minute

The shipped corpus covers 51 themes, so for the benchmark only, a seeded generator makes
variants: each variant of a topic folder is a copy whose CSV/TSV data rows are shuffled and
thinned (seeded), mapped in SOURCES.md to a variant of each theme (`<id>-v<k>`). Each size
runs every stage that exists, as a subprocess, and records its wall time and peak RSS.
"""
import argparse
import csv
import io
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STAGES = ["01_mine", "02_build_tools", "03_filter", "04_taxonomy", "05_tasks"]


def covered_themes(corpus, themes):
    """(theme, topic folder) pairs that SOURCES.md maps, in a stable order."""
    sys.path.insert(0, ROOT)
    import importlib
    mine = importlib.import_module("01_mine")
    mapping = mine.source_map(corpus, {t["id"] for t in themes})
    return [(t, mapping[t["id"]]) for t in themes if t["id"] in mapping]


def thin_table(text, rng, delim):
    """Shuffle and drop about 10% of a CSV/TSV's data rows (the header and keys stay valid)."""
    rows = list(csv.reader(io.StringIO(text), delimiter=delim))
    head, body = rows[:1], rows[1:]
    rng.shuffle(body)
    body = body[: max(1, int(len(body) * 0.9))]
    out = io.StringIO()
    csv.writer(out, delimiter=delim, lineterminator="\n").writerows(head + body)
    return out.getvalue()


def make_variants(n, corpus, themes_path, out, seed):
    """Write themes.jsonl and a corpus with n themes (variants of the covered ones)."""
    with open(themes_path) as f:
        themes = [json.loads(line) for line in f if line.strip()]
    pairs = covered_themes(corpus, themes)
    rng = random.Random(seed)
    os.makedirs(os.path.join(out, "corpus"), exist_ok=True)
    rows, lines = [], []
    for i in range(n):
        theme, folder = pairs[i % len(pairs)]
        k = i // len(pairs)
        vfolder = f"{folder}_v{k}"
        dst = os.path.join(out, "corpus", vfolder)
        if not os.path.isdir(dst):
            shutil.copytree(os.path.join(corpus, folder), dst)
            if k > 0:  # variant 0 is the shipped data itself
                for name in sorted(os.listdir(dst)):
                    if name.endswith((".csv", ".tsv")):
                        p = os.path.join(dst, name)
                        text = open(p, encoding="utf-8").read()
                        open(p, "w", encoding="utf-8").write(thin_table(text, rng, "\t" if name.endswith(".tsv") else ","))
        tid = f"{theme['id']}-v{k}"
        rows.append({**theme, "id": tid, "name": f"{theme['name']} ({k})" if k else theme["name"]})
        lines.append(f"| `{vfolder}/` | {tid} |")
    with open(os.path.join(out, "themes.jsonl"), "w") as f:
        f.writelines(json.dumps(r, sort_keys=True) + "\n" for r in sorted(rows, key=lambda r: r["id"]))
    with open(os.path.join(out, "corpus", "SOURCES.md"), "w") as f:
        f.write("# Benchmark corpus variants\n\n| topic folder | theme ids |\n| --- | --- |\n" + "\n".join(lines) + "\n")


def run_stage(stage, run_dir, data, workers, seed):
    """Run one stage as a subprocess; (seconds, peak RSS of the stage's processes in MiB)."""
    cmd = [sys.executable, os.path.join(ROOT, f"{stage}.py"), "--run-dir", run_dir, "--seed", str(seed),
           "--workers", str(workers)]
    if stage == "01_mine":
        cmd += ["--themes", os.path.join(data, "themes.jsonl"), "--corpus", os.path.join(data, "corpus"), "--limit", "0"]
    # Peak RSS of children is a high-water mark over all finished children, so each stage runs in a fresh
    # wrapper process that reports its own children's peak.
    wrapper = ("import resource, subprocess, sys, json; r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL); "
               "print(json.dumps([r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss]))")
    t = time.time()
    res = subprocess.run([sys.executable, "-c", wrapper, *cmd], capture_output=True, text=True, cwd=ROOT)
    code, rss_kb = json.loads(res.stdout.strip().splitlines()[-1])
    if code != 0:
        raise SystemExit(f"{stage} failed ({code}):\n{res.stderr[-3000:]}")
    return time.time() - t, rss_kb / 1024


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[100, 500, 2000], help="theme counts")
    ap.add_argument("--out", default="/tmp/scale", help="work folder (data and runs)")
    ap.add_argument("--workers", type=int, default=2, help="processes per stage")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    stages = [s for s in STAGES if os.path.exists(os.path.join(ROOT, f"{s}.py"))]
    results = []
    for n in args.sizes:
        data, run = os.path.join(args.out, f"data_{n}"), os.path.join(args.out, f"run_{n}")
        shutil.rmtree(data, ignore_errors=True)
        shutil.rmtree(run, ignore_errors=True)
        make_variants(n, os.path.join(ROOT, "data", "corpus"), os.path.join(ROOT, "data", "themes.jsonl"), data, args.seed)
        row = {"themes": n, "stages": {}}
        for s in stages:
            secs, rss = run_stage(s, run, data, args.workers, args.seed)
            row["stages"][s] = {"seconds": round(secs, 1), "peak_rss_mib": round(rss)}
            print(f"{n} themes | {s}: {secs:.1f} s, peak {rss:.0f} MiB", flush=True)
        meta = json.load(open(os.path.join(run, "03_filter", "meta.json")))
        row["envs"] = meta["counts"]["kept"]
        row["seconds"] = round(sum(v["seconds"] for v in row["stages"].values()), 1)
        row["peak_rss_mib"] = max(v["peak_rss_mib"] for v in row["stages"].values())
        row["seconds_per_env"] = round(row["seconds"] / max(1, row["envs"]), 3)
        results.append(row)
    print(f"\nstages: {', '.join(stages)}; workers {args.workers}")
    print("| themes | kept envs | wall | s / env | peak RSS | per stage (s) |\n|---|---|---|---|---|---|")
    for r in results:
        per = ", ".join(f"{s[:2]} {v['seconds']}" for s, v in r["stages"].items())
        print(f"| {r['themes']} | {r['envs']} | {r['seconds'] / 60:.1f} min | {r['seconds_per_env']} | "
              f"{r['peak_rss_mib']} MiB | {per} |")
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
