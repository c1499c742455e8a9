"""LLM client: OpenAI-compatible HTTP or local transformers, with retries, a replay cache and usage accounting."""

import hashlib
import json
import os
import random
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import requests
from tqdm import tqdm

from lib.chat import _normalise_calls, parse_tool_calls


class LLMError(Exception):
    """A chat call that failed for good; kind is timeout, connection, bad_response or http_<code>."""

    def __init__(self, kind, message=""):
        super().__init__(f"{kind}: {message}")
        self.kind = kind


def _result(content, calls, errors, finish_reason, prompt_tokens, completion_tokens):
    """The one dict shape every backend's chat() returns."""
    if not calls and not errors and "<tool_call>" in content:
        calls, errors = parse_tool_calls(content)  # servers without a tool parser leave calls in the text
    return {"content": content, "tool_calls": calls, "tool_call_errors": errors, "finish_reason": finish_reason,
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens}, "cached": False}


def _parse_openai(data):
    """An OpenAI chat.completion body -> our result dict; LLMError("bad_response") if it is not one."""
    try:
        choice = data["choices"][0]
        content, usage = choice["message"].get("content") or "", data.get("usage") or {}
        calls, errors = _normalise_calls([c["function"] for c in choice["message"].get("tool_calls") or []])
        tokens = int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)
    except (KeyError, IndexError, TypeError, AttributeError, ValueError) as e:
        raise LLMError("bad_response", f"unexpected response shape: {e!r}") from None
    if not isinstance(content, str):
        raise LLMError("bad_response", "message.content is not a string")
    return _result(content, calls, errors, choice.get("finish_reason") or "stop", *tokens)


# ---------------------------------------------------------------- cache and accounting

def cache_key(model, messages, tools, sampling):
    """sha256 of the canonical JSON request, so the same request always finds the same file."""
    request = {"model": model, "messages": messages, "tools": tools, "sampling": sampling}
    blob = json.dumps(request, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()


def _cache_load(cache_dir, key):
    """The cached result for key with cached=True, or None."""
    if not cache_dir:
        return None
    try:
        with open(os.path.join(cache_dir, key + ".json"), encoding="utf-8") as f:
            result = json.load(f)["response"]
    except (OSError, ValueError, KeyError):
        return None  # missing or half-written by a crashed older version: ask again
    return {**result, "cached": True}


def _cache_save(cache_dir, key, request, result):
    """Write one cache file atomically (temp + os.replace) so a killed run never leaves half a file."""
    if not cache_dir or result["finish_reason"] == "length":
        return  # a cut answer is not worth replaying: a rerun gets a chance at a whole one
    os.makedirs(cache_dir, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=cache_dir, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump({"request": request, "response": {**result, "cached": False}}, f, ensure_ascii=False)
    os.replace(tmp, os.path.join(cache_dir, key + ".json"))


class Usage:
    """Thread-safe counters of tokens, requests, cache hits, retries and errors, priced per 1M tokens."""

    def __init__(self, model, price_in=0.0, price_out=0.0):
        self.model, self.price_in, self.price_out = model, price_in, price_out
        self.lock = threading.Lock()
        self.counts = dict(calls=0, requests=0, cache_hits=0, retries=0, errors=0, truncated=0,
                           prompt_tokens=0, completion_tokens=0)

    def add(self, **deltas):
        """Add to the named counters."""
        with self.lock:
            for k, v in deltas.items():
                self.counts[k] += v

    def as_dict(self):
        """Counters plus cost in USD, ready for a stage's meta.json."""
        with self.lock:
            c = dict(self.counts)
        cost = (c["prompt_tokens"] * self.price_in + c["completion_tokens"] * self.price_out) / 1e6
        return {"model": self.model, **c, "cost_usd": round(cost, 6)}


def _chat_cached(client, messages, tools, sampling, ask):
    """Shared chat() body: merge sampling, replay from cache or call ask(params), count, cache."""
    params = {**client.sampling, **sampling}
    key = cache_key(client.model, messages, tools, params)
    client.stats.add(calls=1)
    hit = _cache_load(client.cache_dir, key)
    if hit is not None:
        client.stats.add(cache_hits=1)
        return hit
    try:
        result = ask(params)
    except LLMError:
        client.stats.add(errors=1)
        raise
    u = result["usage"]
    client.stats.add(prompt_tokens=u["prompt_tokens"], completion_tokens=u["completion_tokens"],
                     truncated=int(result["finish_reason"] == "length"))
    request = {"model": client.model, "messages": messages, "tools": tools, "sampling": params}
    _cache_save(client.cache_dir, key, request, result)
    return result


def _chat_many(chat, batch, workers, progress, kwargs):
    """Run chat over a batch on a thread pool, in order; a failed item becomes {"error", "message"}."""
    def one(messages):
        try:
            return chat(messages, **kwargs)
        except LLMError as e:
            return {"error": e.kind, "message": str(e)}
    with ThreadPoolExecutor(max(1, workers)) as pool:
        return list(tqdm(pool.map(one, batch), total=len(batch), desc="llm", disable=not progress))


# ---------------------------------------------------------------- backends

class OpenAIClient:
    """Client for any OpenAI-compatible /v1/chat/completions server (vLLM, SGLang, OpenAI, ...)."""

    def __init__(self, base_url=None, model=None, api_key=None, timeout=60.0, retries=3, backoff=1.0,
                 workers=8, cache_dir=None, sampling=None, price_in=0.0, price_out=0.0):
        self.base_url = (base_url or os.environ.get("LLM_BASE_URL", "http://localhost:8000/v1")).rstrip("/")
        self.model = model or os.environ.get("LLM_MODEL", "")
        # the key lives only in the session headers: never in args, the cache or meta.json
        key = api_key if api_key is not None else os.environ.get("LLM_API_KEY", "")
        self.timeout, self.retries, self.backoff, self.workers = timeout, retries, backoff, workers
        self.cache_dir, self.sampling = cache_dir, dict(sampling or {})
        self.stats = Usage(self.model, price_in, price_out)
        self.session = requests.Session()
        # one pooled connection per worker, else threads queue on the pool and concurrency is lost
        adapter = requests.adapters.HTTPAdapter(pool_connections=1, pool_maxsize=max(10, workers))
        self.session.mount("http://", adapter)
        self.session.mount("https://", adapter)
        if key:
            self.session.headers["Authorization"] = f"Bearer {key}"
        # read proxy and CA settings from the environment once here, not on every request (~0.4 ms each)
        env = self.session.merge_environment_settings(self.base_url, {}, None, None, None)
        self.session.proxies, self.session.verify, self.session.trust_env = env["proxies"], env["verify"], False

    @property
    def usage(self):
        """Token, request and cost counters as a dict."""
        return self.stats.as_dict()

    def _post(self, body):
        """One HTTP attempt -> result dict, or LLMError naming what went wrong."""
        try:
            r = self.session.post(self.base_url + "/chat/completions", json=body, timeout=self.timeout)
        except requests.Timeout as e:
            raise LLMError("timeout", str(e)) from None
        except (requests.ConnectionError, requests.exceptions.ChunkedEncodingError) as e:
            raise LLMError("connection", str(e)) from None
        if r.status_code >= 400:
            raise LLMError(f"http_{r.status_code}", r.text[:300])
        try:
            data = r.json()
        except ValueError:
            raise LLMError("bad_response", f"body is not JSON: {r.text[:200]!r}") from None
        return _parse_openai(data)

    def _ask(self, messages, tools, params):
        """POST with retries: exponential backoff with jitter seeded by the request, so reruns wait alike."""
        body = {"model": self.model, "messages": messages, **params}
        if tools:
            body["tools"] = tools
        seed = cache_key(self.model, messages, tools, params)
        for attempt in range(self.retries + 1):
            self.stats.add(requests=1)
            try:
                return self._post(body)
            except LLMError as e:
                retryable = e.kind in ("timeout", "connection", "http_429") or e.kind.startswith("http_5")
                if not retryable or attempt == self.retries:
                    raise
            self.stats.add(retries=1)
            jitter = 0.5 + 0.5 * random.Random(f"{seed}/{attempt}").random()
            time.sleep(min(self.backoff * 2 ** attempt, 60.0) * jitter)

    def chat(self, messages, tools=None, **sampling):
        """One chat completion -> {"content", "tool_calls", "tool_call_errors", "finish_reason", "usage", "cached"}."""
        return _chat_cached(self, messages, tools, sampling, lambda p: self._ask(messages, tools, p))

    def chat_many(self, batch, tools=None, progress=False, **sampling):
        """chat() over a list of message lists on `workers` threads; order kept, failures as error dicts."""
        return _chat_many(self.chat, batch, self.workers, progress, dict(tools=tools, **sampling))


class HFClient:
    """Local transformers model with the same chat() interface; generation runs one request at a time."""

    def __init__(self, path, device=None, cache_dir=None, sampling=None, price_in=0.0, price_out=0.0):
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer, GenerationConfig
        auto = "cuda" if torch.cuda.is_available() else "cpu"
        self.device, self.model = auto if device in (None, "auto") else device, f"hf:{path}"
        self.cache_dir, self.sampling, self.workers = cache_dir, dict(sampling or {}), 1
        self.stats = Usage(self.model, price_in, price_out)
        self.tokenizer = AutoTokenizer.from_pretrained(path)
        self.net = AutoModelForCausalLM.from_pretrained(path, dtype="auto").to(self.device).eval()
        gc = self.net.generation_config
        self.eos = gc.eos_token_id if gc.eos_token_id is not None else self.tokenizer.eos_token_id
        self.pad = gc.pad_token_id if gc.pad_token_id is not None else self.tokenizer.pad_token_id
        # generate() fills every unset field from the checkpoint's generation_config (e.g. Qwen's
        # temperature 0.7, repetition_penalty 1.05); a blank one makes our explicit config the whole truth
        self.net.generation_config = GenerationConfig()
        self.lock = threading.Lock()

    @property
    def usage(self):
        """Token, request and cost counters as a dict."""
        return self.stats.as_dict()

    def _generate(self, messages, tools, params):
        """Template, generate and decode only the new tokens."""
        import torch
        from transformers import GenerationConfig
        extra = set(params) - {"temperature", "top_p", "top_k", "max_tokens", "seed"}
        if extra:
            raise ValueError(f"HFClient does not support sampling params {sorted(extra)}")
        temperature = float(params.get("temperature", 0.0))
        sample = temperature > 0  # temperature 0 means greedy, as on OpenAI servers
        gen = GenerationConfig(max_new_tokens=int(params.get("max_tokens", 512)), min_new_tokens=0,
                               do_sample=sample, num_beams=1, temperature=temperature if sample else 1.0,
                               top_p=float(params.get("top_p", 1.0)), top_k=int(params.get("top_k", 0)),
                               repetition_penalty=1.0, eos_token_id=self.eos, pad_token_id=self.pad)
        enc = self.tokenizer.apply_chat_template(messages, tools=tools, add_generation_prompt=True,
                                                 return_tensors="pt", return_dict=True).to(self.device)
        n_in = enc["input_ids"].shape[1]
        with self.lock, torch.no_grad():
            if sample:
                torch.manual_seed(int(params.get("seed", 0)))  # same request, same sample
            out = self.net.generate(**enc, generation_config=gen)
        new = out[0, n_in:].tolist()  # (T_new,)
        stopped = bool(new) and new[-1] in (self.eos if isinstance(self.eos, list) else [self.eos])
        text = self.tokenizer.decode(new, skip_special_tokens=True)
        calls, errors = parse_tool_calls(text)
        finish = "length" if len(new) == gen.max_new_tokens and not stopped else "tool_calls" if calls else "stop"
        self.stats.add(requests=1)
        return _result(text, calls, errors, finish, n_in, len(new))

    def chat(self, messages, tools=None, **sampling):
        """One chat completion, same dict as OpenAIClient.chat."""
        return _chat_cached(self, messages, tools, sampling, lambda p: self._generate(messages, tools, p))

    def chat_many(self, batch, tools=None, progress=False, **sampling):
        """chat() over a list of message lists, in order (sequential: one model, one device)."""
        return _chat_many(self.chat, batch, 1, progress, dict(tools=tools, **sampling))


# ---------------------------------------------------------------- command line

def add_llm_args(parser):
    """Add the shared --llm* flags; defaults come from LLM_BASE_URL / LLM_MODEL."""
    g = parser.add_argument_group("LLM")
    g.add_argument("--llm", default="none",
                   help="none (offline programmatic path) | openai | hf:PATH (local transformers model)")
    g.add_argument("--llm-base-url", default=os.environ.get("LLM_BASE_URL", "http://localhost:8000/v1"),
                   help="OpenAI-compatible base URL, ending in /v1 (env LLM_BASE_URL)")
    g.add_argument("--llm-model", default=os.environ.get("LLM_MODEL", ""), help="model name (env LLM_MODEL)")
    g.add_argument("--llm-api-key", default=None,
                   help="API key; prefer env LLM_API_KEY so the key stays out of meta.json")
    g.add_argument("--llm-timeout", type=float, default=120.0, help="seconds per HTTP attempt")
    g.add_argument("--llm-retries", type=int, default=3, help="retries after the first attempt (0 = none)")
    g.add_argument("--llm-temperature", type=float, default=0.0, help="sampling temperature (0 = greedy)")
    g.add_argument("--llm-max-tokens", type=int, default=1024, help="max new tokens per answer")
    g.add_argument("--llm-price-in", type=float, default=0.0, help="USD per 1M prompt tokens")
    g.add_argument("--llm-price-out", type=float, default=0.0, help="USD per 1M completion tokens")


def llm_from_args(args, cache_dir):
    """Client built from add_llm_args flags, or None for --llm none; cache_dir None disables the cache."""
    sampling = {"temperature": args.llm_temperature, "max_tokens": args.llm_max_tokens}
    prices = dict(price_in=args.llm_price_in, price_out=args.llm_price_out)
    if args.llm == "none":
        return None
    if args.llm == "openai":
        return OpenAIClient(args.llm_base_url, args.llm_model, args.llm_api_key, timeout=args.llm_timeout,
                            retries=args.llm_retries, workers=getattr(args, "workers", 8),
                            cache_dir=cache_dir, sampling=sampling, **prices)
    if args.llm.startswith("hf:"):
        return HFClient(args.llm[3:], device=getattr(args, "device", None), cache_dir=cache_dir,
                        sampling=sampling, **prices)
    raise ValueError(f"--llm must be none, openai or hf:PATH, got {args.llm!r}")
