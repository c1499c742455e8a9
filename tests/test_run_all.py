"""The card's CI smoke test on a tiny model: run_all.sh end to end with two rounds, at the smallest sizes."""
import json
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_run_all_two_rounds_smoke(tmp_path):
    run = tmp_path / "run"
    env = dict(os.environ, RUN=str(run), THEMES="2", ROUNDS="2", SFT_STEPS="2", GRPO_STEPS="1", WORKERS="2")
    res = subprocess.run(["bash", os.path.join(ROOT, "run_all.sh")], env=env, capture_output=True, text=True,
                         timeout=900)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    for stage in ("01_mine", "02_build_tools", "03_filter", "04_taxonomy", "05_tasks", "06_grpo", "07_diagnose"):
        meta = json.loads((run / stage / "meta.json").read_text())  # every stage finished
        assert meta["stage"] == stage
    assert json.loads((run / "03_filter" / "meta.json").read_text())["counts"]["kept"] == 2
    # round 2 trained from round 1's checkpoint on the targeted tasks 07 wrote, and was diagnosed again
    assert (run / "round2" / "06_grpo" / "final" / "config.json").exists()
    assert (run / "round2" / "07_diagnose" / "meta.json").exists()
    tasks = [json.loads(line) for line in (run / "round2" / "05_tasks" / "tasks.jsonl").read_text().splitlines()]
    assert tasks and all((run / "round2" / t["env_path"]).is_dir() for t in tasks)
    assert any(t["round"] == 2 for t in tasks)
    html = (run / "report.html").read_text()
    assert html.count("<svg") >= 3 and "round2" in html
