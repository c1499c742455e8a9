"""Multi-turn, turn-synchronous batched agent rollouts, token in / token out, behind a small generator interface.

A rollout's `ids` are the prompt ids, then for every turn the ids the generator sampled (loss
mask 1, including the turn's <|im_end|>) and the template-rendered tool-result suffix (mask 0:
newline, user header, <tool_response> blocks, assistant header). Sampled ids are never decoded
and re-encoded. Generators: HFGenerator (transformers generate, left padding, KV cache) and
ServerGenerator (an OpenAI-compatible /v1/completions server such as vLLM or SGLang, prompts
sent as token ids). Both return, per prompt, {"ids", "logprobs", "finish": "stop"|"length"}.
Stop reasons of a rollout: answer (a turn without tool calls), length (a turn or the episode's
token budget ran out mid-turn), max_turns, context (no room for another turn), tool_timeout.
"""
import json
import math
import time
from concurrent.futures import ThreadPoolExecutor, TimeoutError as FutureTimeout
from dataclasses import dataclass, field

from lib.chat import parse_tool_calls
from lib.envs import error

STOP_REASONS = ("answer", "length", "max_turns", "context", "tool_timeout")


@dataclass
class Sampling:
    """Explicit sampling settings; nothing is taken from a model's generation_config.json."""
    temperature: float = 1.0  # 0 = greedy
    top_p: float = 1.0
    top_k: int = 0  # 0 = off
    repetition_penalty: float = 1.0
    max_new_tokens: int = 64  # per turn


@dataclass
class Rollout:
    """One episode's token sequence, masks and bookkeeping."""
    task_id: str
    member: int  # index inside its group
    ids: list
    prompt_len: int
    group: int = 0  # the group's slot in its batch (a task can appear twice in one step)
    mask: list = field(default_factory=list)  # 1 on sampled ids, 0 elsewhere (same length as ids)
    logprobs: list = field(default_factory=list)  # sampler's log-prob per id (0.0 where mask is 0)
    turns: int = 0
    calls: int = 0
    invalid: int = 0  # unparseable calls, unknown/unoffered tools, invalid arguments
    stop: str = ""
    final_text: str = ""
    messages: list = field(default_factory=list)  # assistant/tool messages, for logs

    def __post_init__(self):
        self.mask = self.mask or [0] * len(self.ids)
        self.logprobs = self.logprobs or [0.0] * len(self.ids)

    @property
    def sampled(self):
        return sum(self.mask)


# ---------------------------------------------------------------------------- chat format
class ChatFormat:
    """Prompt ids and tool-result suffix ids from a tokenizer's chat template, checked for prefix preservation."""

    def __init__(self, tokenizer):
        self.tok = tokenizer
        self.eos = tokenizer.eos_token  # the end-of-turn token, e.g. <|im_end|>
        self.eos_id = tokenizer.convert_tokens_to_ids(self.eos)
        self.stop_ids = [self.eos_id] + [t for t in (tokenizer.pad_token_id,) if t not in (None, self.eos_id)]  # eos first
        self.check()

    def render(self, messages, tools=None, gen=False):
        return self.tok.apply_chat_template(messages, tools=tools, tokenize=False, add_generation_prompt=gen)

    def encode(self, text):
        return self.tok(text, add_special_tokens=False)["input_ids"]

    def prompt_ids(self, messages, tools):
        """Ids of the conversation so far plus the assistant generation header."""
        return self.encode(self.render(messages, tools, gen=True))

    def suffix_text(self, results):
        """Template text that follows a sampled end-of-turn token when a turn's tool results are appended."""
        base = [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}]
        full = self.render(base + [{"role": "tool", "content": r} for r in results], gen=True)
        base_text = self.render(base)
        cut = base_text.rfind(self.eos) + len(self.eos)  # the newline after <|im_end|> was never sampled
        if cut < len(self.eos) or not full.startswith(base_text[:cut]):
            raise ValueError("chat template: appending tool results changes earlier text")
        return full[cut:]

    def suffix_ids(self, results):
        return self.encode(self.suffix_text(results))

    def check(self):
        """Token-in/token-out must reproduce the template: prompt + sampled turn + suffix == rendered history."""
        tools = [{"type": "function", "function": {"name": "f", "description": "d", "parameters": {
            "type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}}}]
        msgs = [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}]
        turn = '<tool_call>\n{"name": "f", "arguments": {"x": "1"}}\n</tool_call>'
        results = ['{"a": 1}', '{"b": 2}']
        built = self.render(msgs, tools, gen=True) + turn + self.eos + self.suffix_text(results)
        history = msgs + [{"role": "assistant", "content": turn}] + [{"role": "tool", "content": r} for r in results]
        if self.render(history, tools, gen=True) != built:
            raise ValueError("chat template does not preserve prefixes (e.g. Qwen3 drops earlier <think> blocks): "
                             "token-in/token-out assembly would train on a history the model never sees")


# ---------------------------------------------------------------------------- generators
def _trim(ids, stop_ids, limit):
    """Cut a sampled row after its first stop id (kept) or at `limit`; returns (ids, finish)."""
    for i, t in enumerate(ids[:limit]):
        if t in stop_ids:
            return ids[: i + 1], "stop"
    return ids[:limit], "length"


class HFGenerator:
    """Batched transformers generate: left padding, KV cache, eval mode, explicit sampling, per-token log-probs."""

    def __init__(self, model, tokenizer, stop_ids):
        self.model, self.tok, self.stop_ids = model, tokenizer, list(stop_ids)

    def generate(self, prompts, sampling, max_new, seed=None):
        """prompts: list of id lists; max_new: per-prompt new-token limits -> list of {"ids", "logprobs", "finish"}."""
        import torch
        from transformers import GenerationConfig

        model = self.model
        device = next(model.parameters()).device
        width = max(len(p) for p in prompts)
        pad = self.tok.pad_token_id
        # (B, width) left-padded so every row's next token sits at the same column
        input_ids = torch.tensor([[pad] * (width - len(p)) + list(p) for p in prompts], device=device)
        attn = torch.tensor([[0] * (width - len(p)) + [1] * len(p) for p in prompts], device=device)
        greedy = sampling.temperature <= 0
        config = GenerationConfig(
            do_sample=not greedy, temperature=None if greedy else sampling.temperature,
            top_p=None if greedy else sampling.top_p, top_k=None if greedy else sampling.top_k,
            repetition_penalty=sampling.repetition_penalty, max_new_tokens=max(max_new),
            eos_token_id=self.stop_ids, pad_token_id=pad, use_cache=True,
            return_dict_in_generate=True, output_logits=True)
        was_training = model.training
        model.eval()  # in train mode with gradient checkpointing HF disables the KV cache
        with torch.no_grad(), torch.random.fork_rng(devices=[] if device.type == "cpu" else [device]):
            if seed is not None:
                torch.manual_seed(seed)
            out = model.generate(input_ids=input_ids, attention_mask=attn, generation_config=config)
        model.train(was_training)
        new = out.sequences[:, width:]  # (B, steps)
        # raw logits (before top-k/top-p) / temperature: the distribution the training forward computes
        logits = torch.stack(out.logits, 1).float() / (1.0 if greedy else sampling.temperature)  # (B, steps, V)
        lp = torch.log_softmax(logits, -1).gather(-1, new.unsqueeze(-1)).squeeze(-1)
        rows = []
        for b in range(len(prompts)):
            ids, finish = _trim(new[b].tolist(), self.stop_ids, max_new[b])
            rows.append({"ids": ids, "logprobs": lp[b, : len(ids)].tolist(), "finish": finish})
        return rows


class ServerGenerator:
    """An OpenAI-compatible /v1/completions server (vLLM, SGLang) sampling from token-id prompts.

    Asks for token ids back (vLLM's return_tokens_as_token_ids: tokens "token_id:123"); a server
    that returns only text gets its text re-encoded, which is not token-exact (counted in .reencoded).
    """

    def __init__(self, base_url, model, tokenizer, stop_ids, api_key="EMPTY", timeout=300.0, workers=64):
        import requests
        self.url, self.model, self.tok, self.stop_ids = base_url.rstrip("/") + "/completions", model, tokenizer, list(stop_ids)
        self.session, self.timeout, self.workers, self.reencoded = requests.Session(), timeout, workers, 0
        self.session.headers["Authorization"] = f"Bearer {api_key}"

    def _one(self, prompt, sampling, max_new, seed):
        body = {"model": self.model, "prompt": list(prompt), "max_tokens": max_new, "logprobs": 0,
                "temperature": max(sampling.temperature, 0.0), "top_p": sampling.top_p,
                "top_k": sampling.top_k if sampling.top_k > 0 else -1,
                "repetition_penalty": sampling.repetition_penalty, "stop_token_ids": self.stop_ids,
                "skip_special_tokens": False, "return_tokens_as_token_ids": True, "seed": seed}
        r = self.session.post(self.url, json=body, timeout=self.timeout)
        r.raise_for_status()
        choice = r.json()["choices"][0]
        lp = choice.get("logprobs") or {}
        tokens, values = lp.get("tokens") or [], lp.get("token_logprobs") or []
        if tokens and all(isinstance(t, str) and t.startswith("token_id:") for t in tokens):
            ids = [int(t.split(":", 1)[1]) for t in tokens]
        else:
            self.reencoded += 1
            ids, values = self.tok(choice.get("text", ""), add_special_tokens=False)["input_ids"], []
        values = [v if v is not None else 0.0 for v in values] + [0.0] * (len(ids) - len(values))
        finish = "length" if choice.get("finish_reason") == "length" else "stop"
        if finish == "stop" and (not ids or ids[-1] not in self.stop_ids):
            ids, values = ids + [self.stop_ids[0]], values + [0.0]  # servers may leave out the stop token
        return {"ids": ids, "logprobs": values[: len(ids)], "finish": finish}

    def generate(self, prompts, sampling, max_new, seed=None):
        with ThreadPoolExecutor(min(self.workers, len(prompts))) as pool:
            futures = [pool.submit(self._one, p, sampling, m, None if seed is None else seed + i)
                       for i, (p, m) in enumerate(zip(prompts, max_new))]
            return [f.result() for f in futures]


# ---------------------------------------------------------------------------- tools
def run_calls(episode, calls, errors, offered, max_chars):
    """Execute one turn's calls in order on one episode -> (tool message contents, invalid count); never raises."""
    out, invalid = [], len(errors)
    for msg in errors:  # unparseable blocks become observations the model can learn from
        out.append(json.dumps(error("parse_error", msg)))
    for c in calls:
        if offered is not None and c["name"] not in offered:
            result = error("unknown_tool", f"no tool named {c['name']!r} is offered")
        else:
            result = episode.call(c["name"], c["arguments"])
        if isinstance(result, dict) and result.get("error") in ("unknown_tool", "invalid_arguments"):
            invalid += 1
        text = json.dumps(result, ensure_ascii=False)
        out.append(text if len(text) <= max_chars else text[:max_chars] + " ...(truncated)")
    return out, invalid


# ---------------------------------------------------------------------------- the rollout loop
def rollout(generator, fmt, rollouts, episodes, sampling, *, max_turns=4, max_tokens=512, max_context=4096,
            offered=None, tool_timeout=10.0, max_tool_chars=2000, workers=8, seed=None):
    """Advance every rollout to a stop, one batched generate per turn over the active ones; returns stats.

    rollouts[i] starts as its prompt (Rollout(ids=prompt, prompt_len=len(prompt))) and runs in
    episodes[i]; offered[i] is the set of tool names its prompt offered (None = any).
    max_tokens bounds the sampled ids of one episode; max_context bounds len(ids).
    """
    stats = {"gen_s": 0.0, "tool_s": 0.0, "gen_tokens": 0}
    active = list(range(len(rollouts)))
    with ThreadPoolExecutor(workers) as pool:
        for turn in range(max_turns):
            room = {i: min(sampling.max_new_tokens, max_tokens - rollouts[i].sampled,
                           max_context - len(rollouts[i].ids)) for i in active}
            for i in [i for i in active if room[i] <= 0]:
                rollouts[i].stop = "context" if len(rollouts[i].ids) >= max_context else "length"
            active = [i for i in active if room[i] > 0]
            if not active:
                break
            t0 = time.time()
            outs = generator.generate([rollouts[i].ids for i in active], sampling, [room[i] for i in active],
                                      seed=None if seed is None else seed * 1000 + turn)
            stats["gen_s"] += time.time() - t0
            pending = {}
            for i, out in zip(active, outs):
                r = rollouts[i]
                r.ids += out["ids"]
                r.mask += [1] * len(out["ids"])
                r.logprobs += out["logprobs"]
                r.turns += 1
                stats["gen_tokens"] += len(out["ids"])
                text = fmt.tok.decode([t for t in out["ids"] if t not in generator.stop_ids], skip_special_tokens=False)
                r.messages.append({"role": "assistant", "content": text})
                calls, errors = parse_tool_calls(text)
                if out["finish"] == "length":
                    r.stop = "length"
                elif not calls and not errors:
                    r.stop, r.final_text = "answer", text
                else:
                    r.calls += len(calls) + len(errors)
                    pending[i] = pool.submit(run_calls, episodes[i], calls, errors,
                                             None if offered is None else offered[i], max_tool_chars)
            t0 = time.time()
            for i, fut in pending.items():  # episodes run concurrently, each one's calls in order
                r = rollouts[i]
                try:
                    results, invalid = fut.result(timeout=tool_timeout)
                except FutureTimeout:
                    r.stop = "tool_timeout"
                    continue
                r.invalid += invalid
                r.messages += [{"role": "tool", "content": c} for c in results]
                suffix = fmt.suffix_ids(results)
                if len(r.ids) + len(suffix) >= max_context:
                    r.stop = "context"
                    continue
                r.ids += suffix
                r.mask += [0] * len(suffix)
                r.logprobs += [0.0] * len(suffix)
            stats["tool_s"] += time.time() - t0
            active = [i for i in active if not rollouts[i].stop]
        for i in active:
            rollouts[i].stop = "max_turns"
    return stats


def summarize(rollouts):
    """Counts for the step log: turns, calls, invalid-call rate, stop reasons."""
    n = max(len(rollouts), 1)
    calls = sum(r.calls for r in rollouts)
    out = {"turns": sum(r.turns for r in rollouts) / n, "calls": calls / n,
           "invalid_rate": sum(r.invalid for r in rollouts) / calls if calls else 0.0,
           "sampled_tokens": sum(r.sampled for r in rollouts)}
    out.update({f"stop_{s}": sum(r.stop == s for r in rollouts) for s in STOP_REASONS})
    return out


def record(r, reward=None, parts=None, advantage=None):
    """A JSON-able row for rollouts/<step>.jsonl (ids kept, so the training tokens can be audited)."""
    return {"id": f"{r.group:04d}:{r.task_id}#{r.member}", "task_id": r.task_id, "member": r.member, "stop": r.stop,
            "turns": r.turns, "calls": r.calls, "invalid": r.invalid, "final_text": r.final_text,
            "reward": None if reward is None or (isinstance(reward, float) and math.isnan(reward)) else reward,
            "parts": parts or {}, "advantage": advantage, "messages": r.messages,
            "prompt_len": r.prompt_len, "ids": r.ids, "mask": r.mask}
