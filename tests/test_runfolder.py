"""The run-folder contract: atomic sorted JSONL, format checks, meta.json last, already-done, resume."""
import json
import os
import subprocess
import sys

import pytest

from lib import runfolder

TOY = os.path.join(os.path.dirname(__file__), "toy_stage.py")


def run_toy(run_dir, *extra, crash_after=None):
    env = dict(os.environ, CRASH_AFTER=str(crash_after if crash_after is not None else -1))
    return subprocess.run([sys.executable, TOY, "--run-dir", str(run_dir), *extra],
                          capture_output=True, text=True, env=env)


def test_jsonl_sorted_and_unique(tmp_path):
    p = tmp_path / "rows.jsonl"
    runfolder.write_jsonl(str(p), [{"id": "b", "x": 1}, {"id": "a", "y": "é"}])
    assert p.read_text(encoding="utf-8") == '{"id":"a","y":"é"}\n{"id":"b","x":1}\n'
    with pytest.raises(ValueError, match="duplicate ids"):
        runfolder.write_jsonl(str(p), [{"id": "a"}, {"id": "a"}])
    assert runfolder.read_jsonl(str(p))[1] == {"id": "b", "x": 1}


def test_reader_checks_stage_finished_and_format(tmp_path):
    res = run_toy(tmp_path, "--n", "3")
    assert res.returncode == 0, res.stderr
    path = str(tmp_path / "00_toy" / "squares.jsonl")
    assert [r["square"] for r in runfolder.read_jsonl(path, "square")] == [0, 1, 4]
    with pytest.raises(runfolder.FormatError, match=r"squares\.jsonl: format 'square/1', this code reads cube/1"):
        runfolder.read_jsonl(path, "cube")
    os.remove(tmp_path / "00_toy" / "meta.json")
    with pytest.raises(runfolder.FormatError, match="has not finished"):
        runfolder.read_jsonl(path, "square")


def test_meta_written_last_with_hashes(tmp_path):
    run_toy(tmp_path, "--n", "4")
    meta = json.loads((tmp_path / "00_toy" / "meta.json").read_text())
    assert meta["counts"] == {"items": 4, "new": 4} and meta["formats"] == {"squares.jsonl": "square/1"}
    assert meta["outputs"]["squares.jsonl"] == runfolder.file_sha(str(tmp_path / "00_toy" / "squares.jsonl"))
    assert meta["args"]["n"] == 4 and meta["seed"] == 0 and "python" in meta["versions"]


def test_rerun_says_already_done_and_force_redoes(tmp_path):
    run_toy(tmp_path, "--n", "3")
    again = run_toy(tmp_path, "--n", "3")
    assert again.returncode == 0 and "already done" in again.stdout
    forced = run_toy(tmp_path, "--n", "3", "--force")
    assert "done: 3 new items" in forced.stdout


def test_interrupted_then_resumed_equals_uninterrupted(tmp_path):
    straight = tmp_path / "straight"
    assert run_toy(straight, "--n", "12").returncode == 0
    broken = tmp_path / "broken"
    first = run_toy(broken, "--n", "12", crash_after=5)
    assert first.returncode != 0 and not (broken / "00_toy" / "meta.json").exists()
    assert not (broken / "00_toy" / "squares.jsonl").exists()
    second = run_toy(broken, "--n", "12")
    assert "done: 7 new items" in second.stdout  # it resumed: only the missing items were redone
    a = (straight / "00_toy" / "squares.jsonl").read_bytes()
    assert a == (broken / "00_toy" / "squares.jsonl").read_bytes()


def test_atomic_write_leaves_nothing_on_failure(tmp_path):
    target = tmp_path / "out.txt"
    with pytest.raises(RuntimeError):
        with runfolder.atomic_path(str(target)) as tmp:
            open(tmp, "w").write("partial")
            raise RuntimeError("interrupted")
    assert os.listdir(tmp_path) == []


def test_item_seed_is_stable():
    assert runfolder.item_seed(0, "env-a") == runfolder.item_seed(0, "env-a") != runfolder.item_seed(1, "env-a")
    assert runfolder.item_seed(0, "x") == 2950975404  # sha256-derived: the same in every process


def test_parallel_keeps_order_on_processes_and_threads():
    square = lambda x: x * x  # noqa: E731  (a closure: forked workers inherit it, nothing is pickled)
    for processes in (True, False):
        assert list(runfolder.parallel(square, range(7), 2, "t", processes, tally=lambda r: r % 2)) == \
            [0, 1, 4, 9, 16, 25, 36]
    assert list(runfolder.parallel(square, [3], 1, "t")) == [9]
