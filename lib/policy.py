"""The policy: load an HF causal LM (or build the tiny one), batch token sequences, per-token log-probs of sampled ids."""
import os

import torch


def load_policy(model_arg, build_dir, texts, dtype=torch.float32, seed=0):
    """(model, tokenizer, path): `tiny` builds lib/tiny_model into build_dir from `texts`; anything else is an HF path."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    path = model_arg
    if model_arg == "tiny":
        from lib.tiny_model import build_tiny_model
        path = build_tiny_model(os.path.join(build_dir, "tiny_model"), texts, seed=seed)
    tok = AutoTokenizer.from_pretrained(path)
    model = AutoModelForCausalLM.from_pretrained(path, dtype=dtype)
    if tok.pad_token_id is None:
        tok.pad_token = tok.eos_token
    return model, tok, path


def collate(rows, pad_id, side="right", extra=()):
    """rows: dicts with "ids", "mask" (+ per-token lists named in extra) -> padded (B, T) tensors.

    attention_mask marks real tokens, loss_mask sampled ones; padding is never inferred from pad_id.
    position_ids count real tokens only, so a left-padded row sees the same positions as alone.
    """
    width = max(len(r["ids"]) for r in rows)
    out = {k: [] for k in ("input_ids", "attention_mask", "loss_mask", *extra)}
    for r in rows:
        n = width - len(r["ids"])
        fill = (lambda xs, v: [v] * n + list(xs)) if side == "left" else (lambda xs, v: list(xs) + [v] * n)
        out["input_ids"].append(fill(r["ids"], pad_id))
        out["attention_mask"].append(fill([1] * len(r["ids"]), 0))
        out["loss_mask"].append(fill(r["mask"], 0))
        for k in extra:
            out[k].append(fill(r.get(k) or [0.0] * len(r["ids"]), 0.0))  # absent = zeros
    batch = {k: torch.tensor(v, dtype=torch.float32 if k in extra else torch.long) for k, v in out.items()}
    batch["loss_mask"] = batch["loss_mask"].float()
    batch["position_ids"] = (batch["attention_mask"].cumsum(-1) - 1).clamp(min=0)  # (B, T)
    return batch


def token_logprobs(model, batch, temperature=1.0, entropy=False):
    """log p(ids[b, t] | ids[b, <t]) at every position with loss_mask 1, else 0: (B, T); plus entropy (B, T) or None.

    Logits are computed only from the first sampled position on (HF's logits_to_keep with an index
    tensor), so the (B, T, V) tensor of a long tool-laden prompt is never built. Logits are divided
    by the sampling temperature, as the sampler did.
    """
    ids, mask = batch["input_ids"], batch["loss_mask"]
    B, T = ids.shape
    first = int(mask.any(0).float().argmax()) if mask.any() else T - 1
    start = max(first - 1, 0)  # the logit at position t predicts token t + 1
    keep = torch.arange(start, T - 1, device=ids.device)
    out = model(input_ids=ids, attention_mask=batch["attention_mask"], position_ids=batch["position_ids"],
                logits_to_keep=keep, use_cache=False)
    logits = out.logits.float() / temperature  # (B, K, V), K = T - 1 - start
    targets = ids[:, start + 1:]  # (B, K)
    logp = torch.log_softmax(logits, -1)
    lp = logp.gather(-1, targets.unsqueeze(-1)).squeeze(-1)  # (B, K)
    full = torch.zeros(B, T, dtype=lp.dtype, device=ids.device)
    full[:, start + 1:] = lp
    full = full * mask
    ent = None
    if entropy:
        with torch.no_grad():
            e = -(logp.exp() * logp).sum(-1)  # (B, K)
            ent = torch.zeros(B, T, device=ids.device)
            ent[:, start + 1:] = e
            ent = ent * mask
    return full, ent
