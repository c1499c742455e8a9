"""06_grpo: advantages and loss on hand-computed values, clip quadrants, micro-batch invariance, determinism,
it learns (a tiny model from chance to near 1 on a trivially learnable reward), and a subprocess run with resume."""
import importlib
import json
import math
import os
import subprocess
import sys

import pytest
import torch

from lib.rollout import HFGenerator, Rollout, Sampling, rollout
from test_rollout import QUERY, env, make_run, messages, tiny  # noqa: F401  (fixtures)

grpo = importlib.import_module("06_grpo")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# ---------------------------------------------------------------------------- advantages
def test_group_advantages_hand_computed():
    adv, zero = grpo.group_advantages([1, 0, 0, 1], [0, 0, 0, 0])
    # mean 0.5, population std 0.5 -> +-1 (times 0.5 / (0.5 + 1e-6))
    assert torch.allclose(adv, torch.tensor([1.0, -1.0, -1.0, 1.0]) * (0.5 / (0.5 + 1e-6)))
    adv, _ = grpo.group_advantages([1, 0, 0, 0], [0, 0, 0, 0])
    # population std sqrt(0.1875) = 0.4330: A = 0.75 / 0.4330 = 1.7321 (the unbiased std would give 1.5)
    assert adv[0].item() == pytest.approx(1.7320, abs=1e-3) and adv[1].item() == pytest.approx(-0.5774, abs=1e-3)
    # a constant group gives exact zeros, no NaN; two interleaved groups never mix
    adv, zero = grpo.group_advantages([0.3, 1, 0.3, 0, 0.3, 1, 0.3, 0], [0, 1, 0, 1, 0, 1, 0, 1])
    assert adv[0::2].tolist() == [0.0] * 4 and zero.tolist() == [True, False] * 4
    assert torch.allclose(adv[1::2], torch.tensor([1.0, -1.0, 1.0, -1.0]), atol=1e-5)
    # an unscored rollout (judge failed) is excluded from mean/std and gets 0
    adv, _ = grpo.group_advantages([1, float("nan"), 0], [0, 0, 0])
    assert torch.allclose(adv, torch.tensor([1.0, 0.0, -1.0]), atol=1e-5)
    adv, _ = grpo.group_advantages([1, 0, 0, 1], [0, 0, 0, 0], scale_std=False)  # Dr.GRPO: r - mean
    assert adv.tolist() == [0.5, -0.5, -0.5, 0.5]


# ---------------------------------------------------------------------------- loss
def test_policy_loss_hand_computed_and_gradient():
    logp = torch.tensor([[-1.0, -2.0, -3.0], [-0.5, -0.5, -9.0]], requires_grad=True)
    mask = torch.tensor([[1.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
    adv = torch.tensor([2.0, -1.0])
    loss, st = grpo.policy_loss(logp, logp.detach(), adv, mask, n_tokens=3.0)
    assert loss.item() == pytest.approx(-(2 + 2 - 1) / 3)  # ratio 1: -sum(A over sampled tokens) / N
    loss.backward()
    # gradient per sampled token is -A / N, zero on unmasked tokens
    assert torch.allclose(logp.grad, torch.tensor([[-2 / 3, -2 / 3, 0.0], [1 / 3, 0.0, 0.0]]))
    assert st["tokens"] == 3 and st["clip_low"] == st["clip_high"] == 0
    # k3 KL: log(ref/pi) = log 0.5 -> 0.5 - log 0.5 - 1 = 0.19315 per token
    kl = grpo.kl_k3(torch.zeros(1, 2), torch.full((1, 2), math.log(0.5)))
    assert torch.allclose(kl, torch.full((1, 2), 0.5 + math.log(2) - 1))
    loss, st = grpo.policy_loss(torch.zeros(1, 2), torch.zeros(1, 2), torch.zeros(1), torch.ones(1, 2), 2.0,
                                ref_logp=torch.full((1, 2), math.log(0.5)), beta=0.1)
    assert loss.item() == pytest.approx(0.1 * (0.5 + math.log(2) - 1)) and st["kl"] == pytest.approx(2 * 0.19315, abs=1e-4)


@pytest.mark.parametrize("ratio,a,zero_grad,clipped", [
    (1.5, 1.0, True, "high"),   # A > 0, ratio above 1 + 0.28: clipped, no gradient
    (1.2, 1.0, False, None),    # A > 0 inside the range
    (0.5, 1.0, False, None),    # A > 0, ratio below 1 - 0.2: min keeps the unclipped term
    (0.5, -1.0, True, "low"),   # A < 0, ratio below 1 - 0.2: clipped, no gradient
    (1.5, -1.0, False, None),   # A < 0, ratio above the range: unclipped (the trust region is NOT inverted)
    (0.9, -1.0, False, None),
])
def test_clip_quadrants(ratio, a, zero_grad, clipped):
    logp = torch.tensor([[math.log(ratio)]], requires_grad=True)
    loss, st = grpo.policy_loss(logp, torch.zeros(1, 1), torch.tensor([a]), torch.ones(1, 1), 1.0, 0.2, 0.28)
    loss.backward()
    assert (logp.grad.abs().item() == 0.0) == zero_grad
    if not zero_grad:
        assert logp.grad.item() == pytest.approx(-a * ratio)  # d(-ratio * A)/dlogp
    assert st["clip_high"] == (clipped == "high") and st["clip_low"] == (clipped == "low")


def _grads_after_step(model, samples, k):
    """Parameters after one SGD(lr=1) optimizer_step with k micro-batches (so they expose the summed gradient)."""
    from accelerate import Accelerator
    from accelerate.state import AcceleratorState, GradientState
    AcceleratorState._reset_state(True)
    GradientState._reset_state()
    acc = Accelerator(cpu=True, gradient_accumulation_steps=k)
    net = type(model)(model.config)
    net.load_state_dict(model.state_dict())
    opt = torch.optim.SGD(net.parameters(), lr=1.0)
    net, opt = acc.prepare(net, opt)
    loss_fn = lambda lp, b, a, n: grpo.policy_loss(lp, lp.detach(), a, b["loss_mask"], n)  # noqa: E731
    st = grpo.optimizer_step(acc, net, opt, samples, loss_fn, k, pad_id=0, max_grad_norm=1e9)
    return [p.detach().clone() for p in net.parameters()], st


def test_micro_batch_invariance(tiny):
    model, _, _ = tiny
    g = torch.Generator().manual_seed(0)
    samples = []
    for n, adv in zip([7, 12, 9, 15], [1.0, -0.5, 2.0, -1.5]):  # unequal lengths and masks
        ids = torch.randint(0, 600, (n,), generator=g).tolist()
        samples.append({"ids": ids, "mask": [0] * (n // 2) + [1] * (n - n // 2), "adv": adv})
    full, st = _grads_after_step(model, samples, 1)
    assert st["n_tokens"] == sum(sum(s["mask"]) for s in samples)
    for k in (2, 4):
        got, _ = _grads_after_step(model, samples, k)
        assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(full, got)), f"micro-batches {k}"


def test_all_masked_step_is_skipped(tiny):
    model, _, _ = tiny
    _, st = _grads_after_step(model, [{"ids": [1, 2, 3], "mask": [0, 0, 0], "adv": 1.0}], 1)
    assert st is None


def test_micro_batches_sorted_and_padded():
    s = [{"ids": [0] * n, "mask": [1] * n} for n in (5, 1, 3)]
    mbs = grpo.micro_batches(s, 4)
    assert [[len(x["ids"]) for x in mb] for mb in mbs] == [[1], [3], [5], [2]]  # the last is a zero-mask dummy
    assert sum(mbs[3][0]["mask"]) == 0


# ---------------------------------------------------------------------------- it learns, and is deterministic
def _single_turn_step(model, tok, fmt, opt, acc, prompts, target, step, G=8):
    """Sample G completions per prompt through lib.rollout, reward = share of sampled ids in `target`, one update."""
    rolls = [Rollout(task_id=str(i), member=g, ids=list(p), prompt_len=len(p)) for i, p in enumerate(prompts) for g in range(G)]
    gen = HFGenerator(model, tok, [])  # no stop ids: every completion has the full length
    rollout(gen, fmt, rolls, [None] * len(rolls), Sampling(max_new_tokens=6), max_turns=1, seed=step)
    rewards = [sum(t in target for t in r.ids[r.prompt_len:]) / 6 for r in rolls]
    adv, _ = grpo.group_advantages(rewards, [i // G for i in range(len(rolls))])
    samples = [{"ids": r.ids, "mask": r.mask, "adv": a} for r, a in zip(rolls, adv.tolist())]
    loss_fn = lambda lp, b, a, n: grpo.policy_loss(lp, lp.detach(), a, b["loss_mask"], n)  # noqa: E731
    st = grpo.optimizer_step(acc, model, opt, samples, loss_fn, 1, tok.pad_token_id)
    return sum(rewards) / len(rewards), st["loss"], rolls


def _fresh(tiny_model, lr):
    from accelerate import Accelerator
    from accelerate.state import AcceleratorState, GradientState
    AcceleratorState._reset_state(True)
    GradientState._reset_state()
    acc = Accelerator(cpu=True)
    torch.manual_seed(0)
    net = type(tiny_model)(tiny_model.config)
    opt = torch.optim.AdamW(net.parameters(), lr=lr)
    net, opt = acc.prepare(net, opt)
    return net, opt, acc


def test_it_learns(tiny):
    model, tok, fmt = tiny
    net, opt, acc = _fresh(model, 2e-2)
    target = set(range(0, len(tok), 2)) - set(fmt.stop_ids)  # even ids: chance ~0.5
    prompts = [fmt.encode("<|im_start|>user\nsay even things<|im_end|>\n<|im_start|>assistant\n"),
               fmt.encode("<|im_start|>user\nmore<|im_end|>\n<|im_start|>assistant\n")]
    curve = [_single_turn_step(net, tok, fmt, opt, acc, prompts, target, s)[0] for s in range(30)]
    assert sum(curve[:3]) / 3 < 0.7, curve  # starts near chance
    assert sum(curve[-3:]) / 3 > 0.9, curve  # ends near 1


def test_same_seed_same_rollouts_same_first_loss(tiny):
    model, tok, fmt = tiny
    prompts = [fmt.encode("<|im_start|>user\nhello<|im_end|>\n<|im_start|>assistant\n")]
    target = set(range(0, len(tok), 3))
    runs = []
    for _ in range(2):
        net, opt, acc = _fresh(model, 1e-3)
        r, loss, rolls = _single_turn_step(net, tok, fmt, opt, acc, prompts, target, step=0)
        runs.append((r, loss, [x.ids for x in rolls]))
    assert runs[0] == runs[1]


# ---------------------------------------------------------------------------- task order, tools, SFT sample
def test_step_tasks_replay_and_offered_tools(env):
    train = [{"id": f"t{i}"} for i in range(5)]
    a = [t["id"] for s in range(4) for t in grpo.step_tasks(train, s, 3, seed=1)]
    assert a == [t["id"] for s in range(4) for t in grpo.step_tasks(train, s, 3, seed=1)]
    assert sorted(a[:5]) == [f"t{i}" for i in range(5)]  # an epoch visits every task once
    task = {"id": "x", "reference": {"calls": [{"name": "place_order", "arguments": {}}]}}
    names = [s["function"]["name"] for s in grpo.offered_tools(task, env, 1, seed=0)]
    assert "place_order" in names and len(names) == 2


def test_reference_sample_masks_only_model_turns(tiny, env, tmp_path):
    _, tok, fmt = tiny
    rows = make_run(str(tmp_path), n_lookup=1, n_order=0)
    s = grpo.reference_sample(rows[0], env, env.schemas, fmt, 600)
    text = tok.decode([t for t, m in zip(s["ids"], s["mask"]) if m])
    assert text == ('<tool_call>\n{"name": "get_book", "arguments": {"book_id": "b0001"}}\n</tool_call><|im_end|>'
                    + json.dumps(rows[0]["expected_answer"]) + "<|im_end|>")
    assert "<tool_response>" in tok.decode(s["ids"]) and grpo.reference_sample({**rows[0], "kind": "program"}, env, [], fmt, 9) is None


# ---------------------------------------------------------------------------- the stage, end to end (uses lib.rewards)
def _run(run_dir, *extra):
    cmd = [sys.executable, "06_grpo.py", "--run-dir", run_dir, "--model", "tiny", "--device", "cpu", "--group", "2",
           "--tasks-per-step", "2", "--max-new-tokens", "16", "--max-tokens", "32", "--max-turns", "2",
           "--eval-tasks", "2", "--sft-batch", "4", *extra]
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300,
                         env={**os.environ, "OMP_NUM_THREADS": "1"})
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    return out.stdout


def test_stage_runs_and_resumes(tmp_path):
    pytest.importorskip("lib.rewards")
    a, b = str(tmp_path / "a"), str(tmp_path / "b")
    make_run(a), make_run(b)
    log = _run(a, "--sft-steps", "3", "--steps", "2")
    assert "06_grpo: grpo | adv (r-mean)/(pop std+1e-6)" in log and "step 2/2 | reward" in log
    rows = [json.loads(x) for x in open(os.path.join(a, "06_grpo", "metrics.jsonl"))]
    assert [r.get("eval") for r in rows if "eval" in r] == ["before_sft", "after_sft", "after_grpo"]
    assert [r["step"] for r in rows if "step" in r] == [1, 2] and sum("sft_step" in r for r in rows) == 3
    recs = [json.loads(x) for x in open(os.path.join(a, "06_grpo", "rollouts", "step_0002.jsonl"))]
    assert len(recs) == 4 and all(len(r["ids"]) == len(r["mask"]) for r in recs)
    assert set(json.load(open(os.path.join(a, "06_grpo", "curve.json")))) == {"before_sft", "after_sft", "after_grpo"}
    assert os.path.exists(os.path.join(a, "06_grpo", "final", "model.safetensors"))
    assert "already done" in _run(a, "--steps", "2")
    # interrupted after step 1 (simulated: meta.json removed), then resumed: step 2 replays the same rollouts
    _run(b, "--sft-steps", "3", "--steps", "1")
    os.remove(os.path.join(b, "06_grpo", "meta.json"))
    assert "resumed from" in _run(b, "--sft-steps", "3", "--steps", "2")
    again = [json.loads(x) for x in open(os.path.join(b, "06_grpo", "rollouts", "step_0002.jsonl"))]
    assert [r["ids"] for r in again] == [r["ids"] for r in recs]


def test_program_tasks_are_offered_the_tools_their_program_calls(env):
    grpo = importlib.import_module("06_grpo")
    task = {"id": "t/program/000", "reference": {"program": "def solve(tools):\n    return tools.get_book(book_id='b1')\n"},
            "targets": []}
    names = [s["function"]["name"] for s in grpo.offered_tools(task, env, 0, seed=0)]
    assert names == ["get_book"]
