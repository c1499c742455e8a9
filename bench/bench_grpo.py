"""Benchmarks of 06_grpo's machinery: ours vs TRL GRPOTrainer (single-turn), batched vs one-at-a-time multi-turn
rollouts, and the tiny run's learning curve. Prints a markdown table for bench/RESULTS.md.

    python bench/bench_grpo.py --trl-python /tmp/trlvenv/bin/python --run-dir runs/tiny     # ~3 min on 2 cores
single  : the same tiny model (lib/tiny_model), P prompts x G samples, the same max new tokens and reward (share
          of even ids), one optimizer step per batch, no KL, token-level loss, clip 0.2/0.28, 1 thread each;
          steps/s and completion tokens/s over the steps after the first
multi   : <run-dir>'s 05 tasks (up to --episodes) rolled out with lib.rollout, all episodes batched per turn vs
          one episode at a time, same seeds; sampled tokens/s (the model: <run-dir>/06_grpo/final if present)
curve   : <run-dir>/06_grpo/curve.json (held-out success before SFT, after SFT, after GRPO)
"""
import argparse
import importlib
import json
import os
import subprocess
import sys
import tempfile
import time

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from lib import runfolder  # noqa: E402
from lib.envs import Env  # noqa: E402
from lib.policy import load_policy  # noqa: E402
from lib.rollout import ChatFormat, HFGenerator, Rollout, Sampling, rollout  # noqa: E402

grpo = importlib.import_module("06_grpo")
PROMPTS = ["Say something even.", "List a few things.", "Count to ten.", "Describe a book."]


def ours_single(model_path, prompts, G, L, steps, lr):
    """Our loop, single-turn: lib.rollout + group_advantages + policy_loss + optimizer_step."""
    from accelerate import Accelerator
    model, tok, _ = load_policy(model_path, "", [])
    fmt = ChatFormat(tok)
    acc = Accelerator(cpu=True)
    opt = torch.optim.AdamW(model.parameters(), lr=lr)
    model, opt = acc.prepare(model, opt)
    gen = HFGenerator(acc.unwrap_model(model), tok, fmt.stop_ids)
    ids = [fmt.encode(p) for p in prompts]
    loss_fn = lambda lp, b, a, n: grpo.policy_loss(lp, lp.detach(), a, b["loss_mask"], n)  # noqa: E731
    times, tokens = [], 0
    for step in range(steps):
        rolls = [Rollout(task_id=str(i), member=g, ids=list(p), prompt_len=len(p)) for i, p in enumerate(ids) for g in range(G)]
        rollout(gen, fmt, rolls, [None] * len(rolls), Sampling(max_new_tokens=L), max_turns=1, seed=step)
        rewards = [sum(t % 2 == 0 for t in r.ids[r.prompt_len:]) / max(r.sampled, 1) for r in rolls]
        adv, _ = grpo.group_advantages(rewards, [i // G for i in range(len(rolls))])
        samples = [{"ids": r.ids, "mask": r.mask, "adv": a} for r, a in zip(rolls, adv.tolist())]
        grpo.optimizer_step(acc, model, opt, samples, loss_fn, 1, tok.pad_token_id)
        times.append(time.time())
        tokens += sum(r.sampled for r in rolls) if step else 0
    dt = times[-1] - times[0]
    return {"steps_per_s": (steps - 1) / dt, "tokens_per_s": tokens / dt}


def multi_turn(run_dir, model_path, n, G, seed=0):
    """Sampled tokens/s of batched (all episodes per turn) vs sequential (one episode at a time) rollouts."""
    tasks = runfolder.read_jsonl(os.path.join(run_dir, "05_tasks", "tasks.jsonl"), "task")[:n]
    envs = {t["env_path"]: Env(os.path.join(run_dir, t["env_path"])) for t in tasks}
    model, tok, _ = load_policy(model_path, "", [])
    fmt = ChatFormat(tok)
    gen = HFGenerator(model, tok, fmt.stop_ids)
    samp = Sampling(max_new_tokens=48)
    jobs = []
    for t in tasks:
        tools = grpo.offered_tools(t, envs[t["env_path"]], 2, seed)
        prompt = fmt.prompt_ids([{"role": "system", "content": grpo.SYSTEM}, {"role": "user", "content": t["query"]}], tools)
        jobs += [(t, prompt, {s["function"]["name"] for s in tools})] * G

    def play(batch, k):
        rolls = [Rollout(task_id=t["id"], member=0, ids=list(p), prompt_len=len(p)) for t, p, _ in batch]
        eps = [envs[t["env_path"]].episode(seed=t["seed"]) for t, _, _ in batch]
        rollout(gen, fmt, rolls, eps, samp, offered=[o for _, _, o in batch], max_turns=4, max_tokens=160, seed=k)
        return rolls

    t0 = time.time()
    batched = play(jobs, 0)
    t_b = time.time() - t0
    t0 = time.time()
    seq = [r for k, j in enumerate(jobs) for r in play([j], 0)]
    t_s = time.time() - t0
    tok_b, tok_s = sum(r.sampled for r in batched), sum(r.sampled for r in seq)
    return {"episodes": len(jobs), "turns_per_episode": sum(r.turns for r in batched) / len(jobs),
            "batched_tokens_per_s": tok_b / t_b, "sequential_tokens_per_s": tok_s / t_s,
            "speedup": (tok_b / t_b) / (tok_s / t_s)}


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--run-dir", default="runs/tiny", help="run folder with 05_tasks/ (and 06_grpo/ for the curve)")
    p.add_argument("--trl-python", default=sys.executable, help="a Python with trl installed ('' = skip TRL)")
    p.add_argument("--group", type=int, default=8, help="G")
    p.add_argument("--max-new-tokens", type=int, default=32)
    p.add_argument("--steps", type=int, default=12)
    p.add_argument("--episodes", type=int, default=8, help="tasks for the multi-turn comparison (x G episodes)")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.set_num_threads(1)

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        model_path = load_policy("tiny", tmp, PROMPTS, seed=args.seed)[2]
        fmt = ChatFormat(load_policy(model_path, "", [])[1])
        prompts = [fmt.render([{"role": "user", "content": q}], gen=True) for q in PROMPTS]
        ours = ours_single(model_path, prompts, args.group, args.max_new_tokens, args.steps, 1e-3)
        rows.append(("single-turn, ours", ours))
        if args.trl_python:
            with open(os.path.join(tmp, "prompts.json"), "w") as f:
                json.dump(prompts, f)
            cmd = [args.trl_python, os.path.join(ROOT, "bench", "bench_trl.py"), "--model", model_path,
                   "--prompts-json", f.name, "--group", str(args.group), "--max-new-tokens", str(args.max_new_tokens),
                   "--steps", str(args.steps)]
            out = subprocess.run(cmd, capture_output=True, text=True)
            if out.returncode == 0:
                trl_row = json.loads(out.stdout.strip().splitlines()[-1])
                rows.append((f"single-turn, TRL {trl_row['trl']} GRPOTrainer", trl_row))
                rows.append(("single-turn, ours / TRL", {k: ours[k] / trl_row[k] for k in ("steps_per_s", "tokens_per_s")}))
            else:
                rows.append(("single-turn, TRL", {"error": out.stderr.strip().splitlines()[-1:]}))
    final = os.path.join(args.run_dir, "06_grpo", "final")
    mt_model = final if os.path.isdir(final) else load_policy("tiny", tempfile.mkdtemp(), PROMPTS)[2]
    rows.append((f"multi-turn rollouts ({'06 final' if mt_model == final else 'random tiny'})",
                 multi_turn(args.run_dir, mt_model, args.episodes, 4, args.seed)))
    curve = os.path.join(args.run_dir, "06_grpo", "curve.json")
    if os.path.exists(curve):
        rows.append(("tiny run held-out success", {k: v["success"] for k, v in json.load(open(curve)).items()}))
    print("| benchmark | result |\n|---|---|")
    for name, r in rows:
        print(f"| {name} | " + ", ".join(f"{k} {v:.3g}" if isinstance(v, float) else f"{k} {v}" for k, v in r.items()) + " |")
