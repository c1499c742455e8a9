"""06 grpo: multi-turn, multi-environment GRPO of a tool-calling policy on the 05 tasks, in plain PyTorch on accelerate.

Reads  <run>/05_tasks/tasks.jsonl (kind "task": id, env_path, kind, query, reference, expected_answer, ...),
       the environments under <run>/03_filter/envs/ (inline when 03_filter/kept.jsonl says source "schema", else
       sandboxed), and lib/rewards.score for rewards (graph: rubric adapter or --llm judge; program: verifier).
Writes <run>/06_grpo/: metrics.jsonl (one row per SFT/GRPO step and per evaluation), rollouts/step_NNNN.jsonl
       (every rollout: ids, masks, messages, reward parts), checkpoints/step_NNNN/ (save_pretrained + settings +
       trainer_state.pt; the newest is resumed unless --force), final/ (save_pretrained), curve.json
       (held-out success before SFT, after SFT, after GRPO), meta.json last.
Variant (printed at start): group-relative advantages A = (r - mean) / (std + 1e-6) with the POPULATION std
       (--variant drgrpo: A = r - mean and a constant denominator); clip-higher PPO min(ratio*A,
       clip(ratio, 1-0.2, 1+0.28)*A) for both signs of A; optional k3 KL (--beta) to a frozen copy; loss = sum over
       every sampled token of the optimizer step of the per-token objective / the step's sampled-token count
       (global over micro-batches and processes: each backward is scaled by grad_accum * world_size because
       accelerate divides by the first and DDP/ZeRO average over the second); zero-variance groups are counted
       and dropped from the step (tokens and denominator) unless --keep-zero-var. Truncation: see TRUNCATION.
Prompts offer a task-relevant tool subset (the reference's tools + --distractors others) to keep them short.
Departures: Agent-World trains on full histories with a large model; here rollouts are full-history
       token-in/token-out (prefix-preserving template required, checked at start), program tasks get no SFT.
    python 06_grpo.py --run-dir runs/tiny --model tiny --sft-steps 60 --sft-batch 4 --steps 12 --distractors 1   # ~3 min, 2 cores
    accelerate launch --config_file configs/zero2.yaml 06_grpo.py --run-dir runs/full --model Qwen/Qwen2.5-1.5B-Instruct \
        --bf16 --grad-ckpt --group 8 --tasks-per-step 32 --steps 500 --max-new-tokens 512 --max-turns 12
"""
import argparse
import copy
import glob
import json
import math
import os
import shutil
import time

import numpy as np
import torch

from lib import runfolder
from lib.envs import Env
from lib.policy import collate, load_policy, token_logprobs
from lib.rollout import ChatFormat, HFGenerator, Rollout, Sampling, ServerGenerator, record, rollout, summarize

SYSTEM = "You are an agent that solves the user's request by calling the tools, then answers as asked."
# stop reason -> what the rollout gets: "score" (reward as computed), "zero" (reward 0, trained on: the
# model should learn to stop in time), "drop" (excluded: not the policy's fault, or no reward)
TRUNCATION = {"answer": "score", "max_turns": "zero", "length": "zero", "context": "zero", "tool_timeout": "drop"}


# ---------------------------------------------------------------------------- the GRPO math
def group_advantages(rewards, groups, scale_std=True, eps=1e-6):
    """rewards (N,) with NaN = unscored, groups (N,) ids -> (advantages (N,), zero_var (N,) bool).

    Population std (unbiased=False) per group; NaN rewards get advantage 0 and do not enter mean/std.
    A group whose scored rewards are all equal gets exact zeros (r - mean == 0).
    """
    rewards, groups = torch.as_tensor(rewards, dtype=torch.float64), torch.as_tensor(groups)
    adv, zero_var = torch.zeros_like(rewards), torch.zeros(len(rewards), dtype=torch.bool)
    for g in torch.unique(groups):
        idx = (groups == g) & ~torch.isnan(rewards)
        r = rewards[idx]
        if len(r) == 0:
            continue
        centred = r - r.mean()
        std = r.std(unbiased=False) if len(r) > 1 else torch.tensor(0.0, dtype=torch.float64)
        adv[idx] = centred / (std + eps) if scale_std else centred
        zero_var[groups == g] = bool(std == 0)
    return adv.float(), zero_var


def masked_mean(x, mask):
    """Mean of x over mask == 1 (0 when the mask is empty)."""
    return (x * mask).sum() / mask.sum().clamp(min=1)


def kl_k3(logp, ref_logp):
    """Per-token k3 estimator of KL(pi || ref): exp(ref - logp) - (ref - logp) - 1 >= 0, (B, T)."""
    d = (ref_logp - logp).clamp(-20, 20)
    return d.exp() - d - 1


def policy_loss(logp, old_logp, adv, mask, n_tokens, eps_low=0.2, eps_high=0.28, ref_logp=None, beta=0.0):
    """Clipped surrogate summed over masked tokens / n_tokens (the whole step's count): (loss, stats).

    logp, old_logp, ref_logp, mask: (B, T); adv: (B,). Gradient per unclipped token at ratio 1: -A / n_tokens.
    """
    log_ratio = (logp - old_logp).clamp(-20.0, 20.0)  # exp of a huge log-ratio would overflow
    ratio = log_ratio.exp()
    a = adv[:, None]  # (B, 1): one advantage for every token of a rollout
    objective = torch.min(ratio * a, ratio.clamp(1 - eps_low, 1 + eps_high) * a)
    per_token = -objective
    kl = kl_k3(logp, ref_logp) if ref_logp is not None else torch.zeros_like(logp)
    if beta:
        per_token = per_token + beta * kl
    loss = (per_token * mask).sum() / n_tokens
    with torch.no_grad():  # which side of the trust region clipped (zero gradient there)
        low = ((ratio < 1 - eps_low) & (a < 0)).float()
        high = ((ratio > 1 + eps_high) & (a > 0)).float()
        stats = {"clip_low": (low * mask).sum().item(), "clip_high": (high * mask).sum().item(),
                 "kl": (kl * mask).sum().item(), "tokens": mask.sum().item()}
    return loss, stats


def micro_batches(samples, k):
    """Split samples into exactly k micro-batches of similar lengths (sorted, dealt round-robin); empty ones padded."""
    order = sorted(samples, key=lambda s: len(s["ids"]))
    out = [order[i::k] for i in range(k)]
    dummy = {"ids": [0, 0], "mask": [0, 0], "adv": 0.0, "old_lp": [0.0, 0.0], "ref_lp": [0.0, 0.0]}
    return [mb or [dummy] for mb in out]  # every process must run the same number of backward passes


def sft_loss(logp, batch, adv, n_tokens):
    """Token-mean negative log-likelihood of the sampled-mask tokens over the step."""
    return -(logp * batch["loss_mask"]).sum() / n_tokens, {"tokens": batch["loss_mask"].sum().item()}


def optimizer_step(acc, model, optimizer, samples, loss_fn, grad_accum, pad_id, temperature=1.0, max_grad_norm=1.0):
    """One optimizer step over samples in exactly grad_accum micro-batches -> summed stats, or None if no tokens.

    loss_fn(logp, batch, adv, n_tokens) -> (loss, stats) with n_tokens the step's sampled tokens over all
    processes, so the summed gradient is that of one global token-mean whatever the split.
    """
    local = sum(sum(s["mask"]) for s in samples)
    n_tokens = acc.reduce(torch.tensor(float(local), device=acc.device), "sum").item()
    if n_tokens == 0:
        return None  # an all-masked step is skipped, never a NaN
    scale = acc.gradient_accumulation_steps * acc.num_processes  # undo accelerate's /accum and DDP's mean
    totals = {}
    for mb in micro_batches(samples, grad_accum):
        batch = {k: v.to(acc.device) for k, v in collate(mb, pad_id, extra=("old_lp", "ref_lp")).items()}
        adv = torch.tensor([s["adv"] for s in mb], device=acc.device)  # (b,)
        with acc.accumulate(model):
            with acc.autocast():
                logp, ent = token_logprobs(model, batch, temperature, entropy=True)  # (b, T) each
            loss, st = loss_fn(logp, batch, adv, n_tokens)
            acc.backward(loss * scale)
            st["entropy"], st["loss"] = (ent * batch["loss_mask"]).sum().item(), loss.item()
            if acc.sync_gradients:  # the last micro-batch: gradients are complete (and all-reduced)
                st["grad_norm"] = float(acc.clip_grad_norm_(model.parameters(), max_grad_norm) or 0.0)
            optimizer.step()  # accelerate's wrapper only steps (and zeroes) on the sync micro-batch
            optimizer.zero_grad()
        for k, v in st.items():
            totals[k] = totals.get(k, 0.0) + v
    totals["loss"] = acc.reduce(torch.tensor(totals["loss"], device=acc.device), "sum").item()
    totals["n_tokens"] = n_tokens
    return totals


# ---------------------------------------------------------------------------- plumbing
def offered_tools(task, env, k, seed):
    """The reference's tools plus k seeded distractors, in the env's order (program tasks: the tools they call)."""
    ref = task.get("reference") or {}
    names = {c["name"] for c in ref.get("calls", [])} | set(task.get("targets") or [])
    names |= {n for n in env.by_name if f"tools.{n}(" in ref.get("program", "")}
    others = sorted(set(env.by_name) - names)
    rng = np.random.default_rng(runfolder.item_seed(seed, task["id"], "tools"))
    names |= set(rng.choice(others, size=min(k, len(others)), replace=False).tolist()) if others else set()
    return [s for s in env.schemas if s["function"]["name"] in names]


def step_tasks(train, step, k, seed):
    """The k tasks of a step: a seeded permutation per epoch, so a resumed run replays the same order."""
    start = step * k
    out = []
    for pos in range(start, start + k):
        epoch, i = divmod(pos, len(train))
        perm = np.random.default_rng(runfolder.item_seed(seed, "epoch", epoch)).permutation(len(train))
        out.append(train[perm[i]])
    return out


def reference_sample(task, env, tools, fmt, max_chars):
    """SFT sample from a graph task's reference: each call its own turn (results executed), then the answer."""
    if task["kind"] != "graph":
        return None
    ids = fmt.prompt_ids([{"role": "system", "content": SYSTEM}, {"role": "user", "content": task["query"]}], tools)
    mask = [0] * len(ids)
    ep = env.episode(seed=task["seed"])  # as the reference was recorded
    turns = [json.dumps({"name": c["name"], "arguments": c["arguments"]}) for c in task["reference"]["calls"]]
    for call, body in zip(task["reference"]["calls"], turns):
        turn = fmt.encode(f"<tool_call>\n{body}\n</tool_call>") + [fmt.eos_id]
        result = json.dumps(ep.call(call["name"], call["arguments"]), ensure_ascii=False)[:max_chars]
        suffix = fmt.suffix_ids([result])
        ids, mask = ids + turn + suffix, mask + [1] * len(turn) + [0] * len(suffix)
    answer = json.dumps(task["expected_answer"]) if task.get("expected_answer") is not None else "Done."
    turn = fmt.encode(answer) + [fmt.eos_id]
    ep.close()
    return {"ids": ids + turn, "mask": mask + [1] * len(turn)}


def save_checkpoint(acc, model, tok, opt, path, state, args):
    """save_pretrained folder + settings.json + trainer_state.pt; older checkpoints removed."""
    acc.wait_for_everyone()
    if acc.is_main_process:
        tmp = os.path.join(os.path.dirname(path), "partial")  # not matched by step_*
        acc.unwrap_model(model).save_pretrained(tmp, safe_serialization=True)
        tok.save_pretrained(tmp)
        with open(os.path.join(tmp, "settings.json"), "w") as f:
            json.dump({"args": runfolder._jsonable(vars(args)), **state}, f, indent=1)
        torch.save({"optimizer": opt.state_dict(), **state}, os.path.join(tmp, "trainer_state.pt"))
        for old in glob.glob(os.path.join(os.path.dirname(path), "step_*")):
            shutil.rmtree(old)
        os.replace(tmp, path)
    acc.wait_for_everyone()


# ---------------------------------------------------------------------------- main
if __name__ == "__main__":
    from accelerate import Accelerator
    from accelerate.utils import gather_object, set_seed

    from lib.llm import add_llm_args, llm_from_args

    p = argparse.ArgumentParser(description=__doc__.split("\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    # I/O
    p.add_argument("--run-dir", required=True, help="run folder holding 05_tasks/ and 03_filter/")
    p.add_argument("--limit", type=int, default=0, help="use at most this many tasks (0 = all)")
    p.add_argument("--force", action="store_true", help="start over (otherwise resume from the newest checkpoint)")
    p.add_argument("--print-rollouts", type=int, default=1, help="full rollouts printed per logged step")
    # Model
    p.add_argument("--model", default="tiny", help="tiny (built from the run's text) | HF model path")
    p.add_argument("--device", default="auto", help="auto (accelerate decides) | cpu")
    p.add_argument("--bf16", action="store_true", help="bf16 mixed precision (GPU)")
    p.add_argument("--grad-ckpt", action="store_true", help="gradient checkpointing for training forwards")
    # Sampling
    p.add_argument("--group", type=int, default=4, help="rollouts per task (G)")
    p.add_argument("--temperature", type=float, default=1.0, help="sampling temperature (also divides training logits)")
    p.add_argument("--top-p", type=float, default=1.0, help="nucleus sampling (1 = off)")
    p.add_argument("--top-k", type=int, default=0, help="top-k sampling (0 = off)")
    p.add_argument("--max-new-tokens", type=int, default=48, help="sampled tokens per turn")
    p.add_argument("--max-tokens", type=int, default=160, help="sampled tokens per episode")
    p.add_argument("--max-turns", type=int, default=4, help="assistant turns per episode")
    p.add_argument("--max-context", type=int, default=4096, help="prompt + episode tokens")
    p.add_argument("--distractors", type=int, default=2, help="tools offered beyond the reference's")
    p.add_argument("--tool-timeout", type=float, default=10.0, help="seconds for one turn's tool calls")
    p.add_argument("--max-tool-chars", type=int, default=400, help="tool results are cut to this many characters")
    p.add_argument("--generator", default="hf", help="hf (transformers generate) | server (OpenAI-compatible /v1/completions)")
    p.add_argument("--server-url", default="http://localhost:8000/v1", help="--generator server: base URL")
    p.add_argument("--server-model", default="", help="--generator server: served model name")
    # Optimization
    p.add_argument("--steps", type=int, default=20, help="GRPO steps (one rollout batch each)")
    p.add_argument("--tasks-per-step", type=int, default=4, help="tasks per step (over all processes)")
    p.add_argument("--lr", type=float, default=1e-3, help="GRPO learning rate (AdamW)")
    p.add_argument("--variant", default="grpo", choices=["grpo", "drgrpo"], help="advantage/denominator variant")
    p.add_argument("--eps-low", type=float, default=0.2, help="clip 1 - eps_low")
    p.add_argument("--eps-high", type=float, default=0.28, help="clip 1 + eps_high (clip-higher)")
    p.add_argument("--beta", type=float, default=0.0, help="k3 KL weight to a frozen reference (0 = none, no copy)")
    p.add_argument("--ppo-epochs", type=int, default=1, help="optimizer steps per rollout batch (>1 recomputes old log-probs)")
    p.add_argument("--grad-accum", type=int, default=1, help="micro-batches per optimizer step (per process)")
    p.add_argument("--keep-zero-var", action="store_true", help="keep zero-variance groups in the loss denominator")
    p.add_argument("--max-grad-norm", type=float, default=1.0, help="gradient clipping")
    p.add_argument("--sft-steps", type=int, default=0, help="supervised warm-up steps on reference trajectories")
    p.add_argument("--sft-batch", type=int, default=8, help="reference trajectories per SFT step")
    p.add_argument("--sft-lr", type=float, default=3e-3, help="SFT learning rate")
    # Runtime
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=8, help="threads running tool calls")
    p.add_argument("--eval-tasks", type=int, default=8, help="held-out tasks (every 5th by id hash; 0 = no eval)")
    p.add_argument("--save-every", type=int, default=10, help="checkpoint every N GRPO steps")
    add_llm_args(p)
    args = p.parse_args()

    acc = Accelerator(cpu=args.device == "cpu", mixed_precision="bf16" if args.bf16 else "no",
                      gradient_accumulation_steps=args.grad_accum)
    set_seed(args.seed)
    if args.model == "tiny" and "OMP_NUM_THREADS" not in os.environ:
        torch.set_num_threads(1)  # a tiny model gains nothing from intra-op threads and loses much on shared cores
    stage = runfolder.begin(args, "06_grpo") if acc.is_main_process else runfolder.Stage(args.run_dir, "06_grpo", args)
    acc.wait_for_everyone()
    say = acc.print
    say(f"06_grpo: {args.variant} | adv {'(r-mean)/(pop std+1e-6)' if args.variant == 'grpo' else 'r-mean'} | "
        f"loss {'global token-mean per step' if args.variant == 'grpo' else 'sum / (rollouts * max_tokens)'} | "
        f"clip [{1 - args.eps_low:.2f}, {1 + args.eps_high:.2f}] | KL {'k3 beta=%g' % args.beta if args.beta else 'none'} | "
        f"zero-var groups {'kept' if args.keep_zero_var else 'dropped'} | ppo epochs {args.ppo_epochs} | "
        f"G {args.group} | {acc.num_processes} process(es), grad accum {args.grad_accum} | truncation {TRUNCATION}")

    # ---- load tasks, environments, split
    from lib import rewards  # the 05 engineer's module: score(task, final_text, final_db, initial_db, judge)
    tasks = runfolder.read_jsonl(stage.input(os.path.join(args.run_dir, "05_tasks", "tasks.jsonl")), "task")
    # a task whose reference needs more tool turns than --max-turns allows (one turn is the answer) cannot succeed
    feasible = [t for t in tasks if t["difficulty"]["calls"] + 1 <= args.max_turns]
    say(f"tasks: {len(feasible)} of {len(tasks)} solvable within {args.max_turns} turns")
    tasks = feasible[: args.limit] if args.limit else feasible
    kept_path = os.path.join(args.run_dir, "03_filter", "kept.jsonl")
    trusted = {r["id"] for r in runfolder.read_jsonl(kept_path) if r.get("source") == "schema"} if os.path.exists(kept_path) else set()
    envs = {}
    for t in tasks:
        if t["env_path"] not in envs:
            envs[t["env_path"]] = Env(os.path.join(args.run_dir, t["env_path"]), sandbox=t["env_id"] not in trusted)
    tools_of = {t["id"]: offered_tools(t, envs[t["env_path"]], args.distractors, args.seed) for t in tasks}
    held = [t for t in tasks if runfolder.item_seed(args.seed, t["id"], "split") % 5 == 0][: args.eval_tasks]
    train = [t for t in tasks if t not in held]
    judge = rewards.Judge(llm_from_args(args, stage.path("llm_cache"))) if args.llm != "none" else None
    say(f"tasks: {len(train)} train, {len(held)} held-out, {len(envs)} environments; tools offered per task "
        f"{np.mean([len(v) for v in tools_of.values()]):.1f} (of {np.mean([len(e.schemas) for e in envs.values()]):.0f})")

    # ---- policy, resume
    ckpts = sorted(glob.glob(stage.path("checkpoints", "step_*")))
    texts = [SYSTEM] + [json.dumps(s) for e in envs.values() for s in e.schemas] + [t["query"] for t in tasks]
    model, tok, path = load_policy(ckpts[-1] if ckpts else args.model, stage.dir, texts, seed=args.seed)
    fmt = ChatFormat(tok)  # raises if the template cannot be assembled token-in/token-out
    if args.grad_ckpt:
        model.gradient_checkpointing_enable()
    ref_model = copy.deepcopy(model).eval().requires_grad_(False).to(acc.device) if args.beta else None
    sft_opt = torch.optim.AdamW(model.parameters(), lr=args.sft_lr, weight_decay=0.0)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.0, betas=(0.9, 0.99))
    model, opt, sft_opt = acc.prepare(model, opt, sft_opt)
    state = {"sft_done": 0, "step": 0, "curve": {}}
    if ckpts:
        saved = torch.load(os.path.join(ckpts[-1], "trainer_state.pt"), weights_only=False)
        (opt if saved["step"] else sft_opt).load_state_dict(saved["optimizer"])
        state = {k: saved[k] for k in state}
        say(f"resumed from {ckpts[-1]}: sft {state['sft_done']}, step {state['step']}")
    sampling = Sampling(args.temperature, args.top_p, args.top_k, 1.0, args.max_new_tokens)
    gen_model = acc.unwrap_model(model)
    generator = (ServerGenerator(args.server_url, args.server_model, tok, fmt.stop_ids) if args.generator == "server"
                 else HFGenerator(gen_model, tok, fmt.stop_ids))
    limits = dict(max_turns=args.max_turns, max_tokens=args.max_tokens, max_context=args.max_context,
                  tool_timeout=args.tool_timeout, max_tool_chars=args.max_tool_chars, workers=args.workers)
    metrics_path = stage.path("metrics.jsonl")
    step_args = (args.grad_accum, tok.pad_token_id, args.temperature, args.max_grad_norm)

    def log(row):
        """Append one metrics row (main process)."""
        if acc.is_main_process:
            with open(metrics_path, "a") as f:
                f.write(runfolder.dumps(row) + "\n")

    def play(batch, group, samp, seed):
        """Roll out `group` episodes per task, score them -> (rollouts, rewards (NaN = excluded), parts, stats)."""
        rolls, eps, offered, owners = [], [], [], []
        for slot, t in enumerate(batch):
            env, tools = envs[t["env_path"]], tools_of[t["id"]]
            prompt = fmt.prompt_ids([{"role": "system", "content": SYSTEM}, {"role": "user", "content": t["query"]}], tools)
            for g in range(group):  # every member starts from the same state, with the same id generator
                rolls.append(Rollout(task_id=t["id"], member=g, group=slot, ids=list(prompt), prompt_len=len(prompt)))
                eps.append(env.episode(seed=t["seed"]))  # lib.rewards: seed episodes with task["seed"]
                offered.append({s["function"]["name"] for s in tools})
                owners.append(t)
        st = rollout(generator, fmt, rolls, eps, samp, offered=offered, seed=seed, **limits)
        rewards_, parts = [], []
        for r, ep, t in zip(rolls, eps, owners):
            policy = TRUNCATION[r.stop]
            reward, part = (float("nan"), {}) if policy == "drop" else rewards.score(
                t, r.final_text, ep.final_db(), envs[t["env_path"]].initial_db(), judge=judge)
            rewards_.append(float("nan") if reward is None else 0.0 if policy == "zero" else float(reward))
            parts.append(part)
            ep.close()
        return rolls, rewards_, parts, st

    def evaluate(name):
        """Greedy held-out success, one episode per task, recorded in the curve."""
        if not held:
            return
        mine = held[acc.process_index::acc.num_processes]
        rolls, rs, _, _ = play(mine, 1, Sampling(0.0, 1.0, 0, 1.0, args.max_new_tokens), args.seed) if mine else ([], [], [], {})
        rs = gather_object([0.0 if math.isnan(r) else r for r in rs])
        state["curve"][name] = {"success": float(np.mean([r >= rewards.SUCCESS for r in rs])), "reward": float(np.mean(rs)), "n": len(rs)}
        say(f"eval {name}: held-out success {state['curve'][name]['success']:.2f}, reward {state['curve'][name]['reward']:.3f} (n={len(rs)})")
        log({"eval": name, **state["curve"][name]})

    def grpo_loss(logp, batch, adv, n_tokens):
        """The clipped objective of this micro-batch (old/ref log-probs precomputed per sample)."""
        old = batch["old_lp"] if args.ppo_epochs > 1 else logp.detach()
        ref = batch["ref_lp"] if args.beta else None
        return policy_loss(logp, old, adv, batch["loss_mask"], n_tokens, args.eps_low, args.eps_high, ref, args.beta)

    @torch.no_grad()
    def fill_logprobs(samples, net, key):
        """Per-token log-probs of samples under net with the training forward (old policy or reference)."""
        for s in samples:
            batch = {k: v.to(acc.device) for k, v in collate([s], tok.pad_token_id).items()}
            with acc.autocast():
                s[key] = token_logprobs(net, batch, args.temperature)[0][0].float().tolist()

    # ---- SFT warm-up on reference trajectories
    if not ckpts:
        evaluate("before_sft")
    if args.sft_steps and state["sft_done"] < args.sft_steps:
        refs = [s for s in (reference_sample(t, envs[t["env_path"]], tools_of[t["id"]], fmt, args.max_tool_chars)
                            for t in train) if s and len(s["ids"]) <= args.max_context]
        say(f"sft: {len(refs)} reference trajectories ({sum(sum(s['mask']) for s in refs)} target tokens)")
        model.train()
        t_sft = time.time()
        for k in range(state["sft_done"], args.sft_steps):
            rng = np.random.default_rng(runfolder.item_seed(args.seed, "sft", k))
            pick = [refs[i] for i in rng.choice(len(refs), size=min(args.sft_batch, len(refs)), replace=False)]
            mine = [dict(s, adv=0.0) for s in pick[acc.process_index::acc.num_processes]]
            st = optimizer_step(acc, model, sft_opt, mine, sft_loss, *step_args)
            if st:
                log({"sft_step": k + 1, "nll": round(st["loss"], 4), "grad_norm": round(st.get("grad_norm", 0), 4),
                     "s": round(time.time() - t_sft, 2)})
                if (k + 1) % 10 == 0 or k + 1 == args.sft_steps or k == 0:
                    say(f"sft {k + 1}/{args.sft_steps} | nll/token {st['loss']:.3f} | grad norm {st.get('grad_norm', 0):.2f}")
        state["sft_done"] = args.sft_steps
        evaluate("after_sft")

    # ---- GRPO
    model.train()
    per_proc = max(1, args.tasks_per_step // acc.num_processes)
    for step in range(state["step"], args.steps):
        t0 = time.time()
        batch = step_tasks(train, step, per_proc * acc.num_processes, args.seed)[acc.process_index::acc.num_processes]
        rolls, rs, parts, st = play(batch, args.group, sampling, runfolder.item_seed(args.seed, "step", step, acc.process_index))
        t_roll = time.time() - t0
        groups = [i // args.group for i in range(len(rolls))]
        adv, zero_var = group_advantages(rs, groups, scale_std=args.variant == "grpo")
        samples = [{"ids": r.ids, "mask": r.mask, "adv": float(a), "sampler_lp": r.logprobs}
                   for r, rw, a, z in zip(rolls, rs, adv.tolist(), zero_var.tolist())
                   if not math.isnan(rw) and (args.keep_zero_var or not z)]
        if args.ppo_epochs > 1:
            fill_logprobs(samples, model, "old_lp")  # same forward code as the update
        if args.beta:
            fill_logprobs(samples, ref_model, "ref_lp")
        for s in samples:
            s.setdefault("old_lp", [0.0] * len(s["ids"]))
            s.setdefault("ref_lp", [0.0] * len(s["ids"]))
        loss_fn = grpo_loss
        if args.variant == "drgrpo":  # constant denominator: every rollout counted at its full token budget
            denom = float(len(rolls) * acc.num_processes * args.max_tokens)
            loss_fn = lambda lp, b, a, n: grpo_loss(lp, b, a, denom)  # noqa: E731
        stats = None
        for _ in range(args.ppo_epochs):
            stats = optimizer_step(acc, model, opt, samples, loss_fn, *step_args) or stats
        # ---- log
        scored = [r for r in rs if not math.isnan(r)]
        keys = sorted({k for p_ in parts for k in p_})
        row = {"step": step + 1, "reward": float(np.mean(scored)) if scored else None,
               "success": float(np.mean([r >= rewards.SUCCESS for r in scored])) if scored else None,
               **{f"part_{k}": float(np.mean([p_[k] for p_ in parts if k in p_])) for k in keys},
               "zero_var_groups": int(zero_var[:: args.group].sum()), "groups": len(batch), "trained": len(samples),
               "tokens_per_s": st["gen_tokens"] / max(t_roll, 1e-9), "rollout_s": t_roll, "step_s": time.time() - t0,
               **summarize(rolls)}
        if stats:
            n = max(stats["n_tokens"], 1)
            row.update(loss=stats["loss"], kl=stats["kl"] / n, entropy=stats["entropy"] / n, grad_norm=stats.get("grad_norm"),
                       clip_low=stats["clip_low"] / n, clip_high=stats["clip_high"] / n)
        else:
            row.update(skipped=True)
        row = {k: round(v, 4) if isinstance(v, float) else v for k, v in row.items()}
        log(row)
        say(f"step {step + 1}/{args.steps} | reward {row['reward']} | success {row['success']} | kl {row.get('kl')} | "
            f"entropy {row.get('entropy')} | clip {row.get('clip_low')}/{row.get('clip_high')} | grad {row.get('grad_norm')} | "
            f"{row['tokens_per_s']:.0f} tok/s | turns {row['turns']:.1f} | invalid {row['invalid_rate']:.2f} | "
            f"stops a{row['stop_answer']}/l{row['stop_length']}/t{row['stop_max_turns']}/c{row['stop_context']} | "
            f"zero-var {row['zero_var_groups']}/{row['groups']}")
        recs = gather_object([record(r, None if math.isnan(rw) else rw, p_, float(a))
                              for r, rw, p_, a in zip(rolls, rs, parts, adv.tolist())])
        if acc.is_main_process:
            runfolder.write_jsonl(stage.path("rollouts", f"step_{step + 1:04d}.jsonl"), recs)
            for rec in recs[: args.print_rollouts]:
                say(f"  [{rec['id']}] reward {rec['reward']} stop {rec['stop']}: " +
                    " || ".join(m["content"][:160].replace("\n", " ") for m in rec["messages"]))
        state["step"] = step + 1
        if (step + 1) % args.save_every == 0 and step + 1 < args.steps:
            save_checkpoint(acc, model, tok, opt, stage.path("checkpoints", f"step_{step + 1:04d}"), state, args)

    # ---- evaluate, save, finish
    evaluate("after_grpo")
    save_checkpoint(acc, model, tok, opt, stage.path("checkpoints", f"step_{state['step']:04d}"), state, args)
    if acc.is_main_process:
        acc.unwrap_model(model).save_pretrained(stage.path("final"))
        tok.save_pretrained(stage.path("final"))
        runfolder.atomic_write(stage.path("curve.json"), json.dumps(state["curve"], indent=1))
        stage.finish({"tasks": len(tasks), "train": len(train), "held_out": len(held), "steps": state["step"],
                      "sft_steps": state["sft_done"]}, curve=state["curve"])
        say(f"06_grpo: done; curve {json.dumps(state['curve'])}; outputs in {stage.dir}")
