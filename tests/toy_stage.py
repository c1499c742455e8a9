"""A minimal stage following the run-folder contract, used by tests/test_runfolder.py (a test fixture).

It squares items 0..n-1, one part per item; CRASH_AFTER=k makes it die after k new items.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from lib import runfolder  # noqa: E402

if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--run-dir", required=True)
    ap.add_argument("--n", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--force", action="store_true")
    args = ap.parse_args()
    stage = runfolder.begin(args, "00_toy")
    crash_after, done = int(os.environ.get("CRASH_AFTER", "-1")), 0
    for i in range(args.n):
        item = f"item-{i:03d}"
        if stage.has_part(item):
            continue
        if done == crash_after:
            sys.exit(f"simulated crash after {done} items")
        stage.save_part(item, {"id": item, "square": i * i, "noise": runfolder.item_seed(args.seed, item)})
        done += 1
    rows = [stage.load_part(f"item-{i:03d}") for i in range(args.n)]
    stage.write_jsonl("squares.jsonl", rows[::-1], "square")  # written sorted whatever the order here
    stage.finish({"items": len(rows), "new": done})
    print(f"done: {done} new items")
