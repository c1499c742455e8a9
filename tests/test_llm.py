"""Tests for lib/llm.py against a real scripted HTTP server and a tiny random local transformers model."""

import argparse
import json
import os
import time

import pytest

from lib.chat import extract_json, parse_tool_calls
from lib.llm import HFClient, LLMError, OpenAIClient, add_llm_args, llm_from_args
from scripted_llm_server import ScriptedLLMServer

HELLO = [{"role": "user", "content": "say hello please"}]


def client_for(server, **kw):
    """An OpenAIClient aimed at the scripted server with fast retries."""
    kw = {"model": "m", "api_key": "", "timeout": 5.0, "retries": 3, "backoff": 0.01,
          "sampling": {"temperature": 0.0, "max_tokens": 16}, **kw}
    return OpenAIClient(base_url=server.base_url, **kw)


# ---------------------------------------------------------------- HTTP behaviour

def test_plain_answer(scripted_llm):
    server = scripted_llm(["hello there"])
    out = client_for(server).chat(HELLO)
    assert out == {"content": "hello there", "tool_calls": [], "tool_call_errors": [], "finish_reason": "stop",
                   "usage": {"prompt_tokens": 3, "completion_tokens": 2}, "cached": False}
    assert server.requests == [{"model": "m", "messages": HELLO, "temperature": 0.0, "max_tokens": 16}]
    assert "Authorization" not in server.headers[0]


def test_retries_500_then_success(scripted_llm):
    server = scripted_llm([{"status": 500}, {"status": 500}, "ok"])
    client = client_for(server)
    assert client.chat(HELLO)["content"] == "ok"
    assert len(server.requests) == 3
    assert (client.usage["requests"], client.usage["retries"], client.usage["errors"]) == (3, 2, 0)


def test_retries_429(scripted_llm):
    server = scripted_llm([{"status": 429}, "ok"])
    assert client_for(server).chat(HELLO)["content"] == "ok"
    assert len(server.requests) == 2


def test_400_fails_without_retry(scripted_llm):
    server = scripted_llm([{"status": 400, "message": "bad tool schema"}, "never sent"])
    client = client_for(server)
    with pytest.raises(LLMError) as err:
        client.chat(HELLO)
    assert err.value.kind == "http_400"
    assert "bad tool schema" in str(err.value)
    assert len(server.requests) == 1
    assert client.usage["errors"] == 1


def test_503_gives_up_after_retries(scripted_llm):
    server = scripted_llm(lambda request: {"status": 503})
    client = client_for(server, retries=2)
    with pytest.raises(LLMError) as err:
        client.chat(HELLO)
    assert err.value.kind == "http_503"
    assert len(server.requests) == 3


def test_timeout_on_hang_is_bounded(scripted_llm):
    server = scripted_llm(lambda request: {"hang": 10})
    client = client_for(server, timeout=0.3, retries=1)
    start = time.monotonic()
    with pytest.raises(LLMError) as err:
        client.chat(HELLO)
    elapsed = time.monotonic() - start
    assert err.value.kind == "timeout"
    assert len(server.requests) == 2
    assert 0.6 <= elapsed < 2.0


def test_garbage_is_bad_response_and_not_cached(scripted_llm, tmp_path):
    server = scripted_llm([{"garbage": True}, "ok"])
    client = client_for(server, cache_dir=str(tmp_path))
    with pytest.raises(LLMError) as err:
        client.chat(HELLO)
    assert err.value.kind == "bad_response"
    assert len(server.requests) == 1  # a 200 with a broken body is not retried
    assert os.listdir(tmp_path) == []
    assert client.chat(HELLO)["content"] == "ok"  # nothing was cached, so the server is asked again
    assert len(server.requests) == 2


def test_json_without_choices_is_bad_response(scripted_llm):
    server = scripted_llm([{"body": {"object": "error"}}])
    with pytest.raises(LLMError) as err:
        client_for(server).chat(HELLO)
    assert err.value.kind == "bad_response"


def test_truncated_answer_is_returned_but_not_cached(scripted_llm, tmp_path):
    spec = {"content": "abcdefgh", "truncate": True}
    server = scripted_llm([spec, spec])
    client = client_for(server, cache_dir=str(tmp_path))
    out = client.chat(HELLO)
    assert (out["content"], out["finish_reason"]) == ("abcd", "length")
    assert os.listdir(tmp_path) == []
    client.chat(HELLO)
    assert len(server.requests) == 2
    assert client.usage["truncated"] == 2


def test_tool_calls_are_normalised(scripted_llm):
    server = scripted_llm([
        {"tool_calls": [{"name": "get_weather", "arguments": {"city": "Paris"}}]},
        {"tool_calls": [{"name": "get_weather", "arguments": '{"city": '}]},
        '<tool_call>{"name": "add", "arguments": {"a": 1, "b": 2}}</tool_call>',
    ])
    client = client_for(server)
    first = client.chat(HELLO)
    assert first["tool_calls"] == [{"name": "get_weather", "arguments": {"city": "Paris"}}]
    assert first["finish_reason"] == "tool_calls"
    assert server.requests[0]["model"] == "m"
    broken = client.chat(HELLO + [{"role": "user", "content": "again"}])
    assert broken["tool_calls"] == [] and len(broken["tool_call_errors"]) == 1
    in_text = client.chat(HELLO + [{"role": "user", "content": "once more"}])
    assert in_text["tool_calls"] == [{"name": "add", "arguments": {"a": 1, "b": 2}}]


def test_tools_are_sent(scripted_llm):
    tools = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]
    server = scripted_llm(["ok"])
    client_for(server).chat(HELLO, tools=tools, temperature=0.5)
    assert server.requests[0]["tools"] == tools
    assert server.requests[0]["temperature"] == 0.5


# ---------------------------------------------------------------- cache

def test_cache_replays_and_keys_on_sampling(scripted_llm, tmp_path):
    server = scripted_llm(["first", "second", "third"])
    client = client_for(server, cache_dir=str(tmp_path))
    a = client.chat(HELLO)
    b = client.chat(HELLO)
    assert len(server.requests) == 1
    assert b == {**a, "cached": True} and b["content"] == "first"
    assert client.chat(HELLO, temperature=0.7)["content"] == "second"  # other sampling, other key
    assert len(server.requests) == 2
    fresh = client_for(server, cache_dir=str(tmp_path))  # a resumed stage
    assert fresh.chat(HELLO) == b
    assert len(server.requests) == 2
    assert sorted(p.suffix for p in tmp_path.iterdir()) == [".json", ".json"]  # no temp files left
    assert (client.usage["calls"], client.usage["cache_hits"], fresh.usage["cache_hits"]) == (3, 1, 1)


def test_api_key_sent_but_never_cached(scripted_llm, tmp_path):
    server = scripted_llm(["ok"])
    client_for(server, api_key="sk-secret-xyz", cache_dir=str(tmp_path)).chat(HELLO)
    assert server.headers[0]["Authorization"] == "Bearer sk-secret-xyz"
    for path in tmp_path.iterdir():
        assert "sk-secret-xyz" not in path.read_text()
        assert json.loads(path.read_text())["request"]["messages"] == HELLO


# ---------------------------------------------------------------- concurrency and accounting

def test_chat_many_is_concurrent_and_ordered(scripted_llm):
    server = scripted_llm(lambda req: {"delay": 0.2, "content": req["messages"][0]["content"].upper()})
    client = client_for(server, workers=8)
    batch = [[{"role": "user", "content": f"q{i}"}] for i in range(16)]
    start = time.monotonic()
    out = client.chat_many(batch)
    elapsed = time.monotonic() - start
    assert [o["content"] for o in out] == [f"Q{i}" for i in range(16)]
    assert elapsed < 1.2  # serial would be 3.2 s, ideal 0.4 s
    assert len(server.requests) == 16


def test_chat_many_turns_failures_into_error_dicts(scripted_llm):
    server = scripted_llm(lambda req: {"status": 400} if req["messages"][0]["content"] == "bad" else "fine")
    out = client_for(server).chat_many([[{"role": "user", "content": c}] for c in ["a", "bad", "c"]], progress=True)
    assert [o.get("content") for o in out] == ["fine", None, "fine"]
    assert out[1]["error"] == "http_400"
    assert len(server.requests) == 3


def test_usage_and_cost_hand_checked(scripted_llm, tmp_path):
    usage = {"prompt_tokens": 1000, "completion_tokens": 250}
    server = scripted_llm([{"status": 500}, {"content": "a", "usage": usage}, {"content": "b", "usage": usage}])
    client = client_for(server, cache_dir=str(tmp_path), price_in=2.0, price_out=8.0)
    client.chat(HELLO)
    client.chat(HELLO)  # cache hit: no tokens, no cost
    client.chat([{"role": "user", "content": "other"}])
    # 2 paid answers: 2000 prompt tokens at $2/1M + 500 completion tokens at $8/1M = $0.004 + $0.004
    assert client.usage == {"model": "m", "calls": 3, "requests": 3, "cache_hits": 1, "retries": 1, "errors": 0,
                            "truncated": 0, "prompt_tokens": 2000, "completion_tokens": 500, "cost_usd": 0.008}


# ---------------------------------------------------------------- configuration

def test_env_vars_configure_client(scripted_llm, monkeypatch):
    server = scripted_llm(["one", "two"])
    monkeypatch.setenv("LLM_BASE_URL", server.base_url)
    monkeypatch.setenv("LLM_MODEL", "env-model")
    monkeypatch.setenv("LLM_API_KEY", "sk-env-key")
    assert OpenAIClient().chat(HELLO)["content"] == "one"
    assert server.requests[0]["model"] == "env-model"
    assert server.headers[0]["Authorization"] == "Bearer sk-env-key"

    parser = argparse.ArgumentParser()
    add_llm_args(parser)
    args = parser.parse_args(["--llm", "openai", "--llm-temperature", "0.3"])
    assert args.llm_api_key is None  # so a stage's meta.json args never hold the key
    client = llm_from_args(args, cache_dir=None)
    assert client.chat(HELLO)["content"] == "two"
    assert server.requests[1]["temperature"] == 0.3 and server.requests[1]["model"] == "env-model"
    assert server.headers[1]["Authorization"] == "Bearer sk-env-key"


def test_llm_from_args_none_and_bad():
    parser = argparse.ArgumentParser()
    add_llm_args(parser)
    assert llm_from_args(parser.parse_args([]), cache_dir=None) is None
    with pytest.raises(ValueError):
        llm_from_args(parser.parse_args(["--llm", "gpt"]), cache_dir=None)


def test_exhausted_script_says_so():
    with ScriptedLLMServer(["only"]) as server:
        client = client_for(server, retries=0)
        client.chat(HELLO)
        with pytest.raises(LLMError, match="script exhausted"):
            client.chat([{"role": "user", "content": "second"}])


# ---------------------------------------------------------------- parsing

@pytest.mark.parametrize("text, expected", [
    ('{"a": 1}', {"a": 1}),
    ('Sure! ```json\n{"a": [1, 2]}\n``` done', {"a": [1, 2]}),
    ('```\n[1, 2]\n```', [1, 2]),
    ('```json\n{broken\n``` then {"b": 2}', {"b": 2}),
    ('text {"s": "a } brace {", "n": {"x": null}} tail }', {"s": "a } brace {", "n": {"x": None}}),
    ('first {not json} then [3, 4]', [3, 4]),
    ("no json here", None),
    ('{"unclosed": 1', None),
    ("", None),
    (None, None),
])
def test_extract_json(text, expected):
    assert extract_json(text) == expected


def test_parse_tool_calls_cases():
    one = '<tool_call>\n{"name": "search", "arguments": {"q": "a}b"}}\n</tool_call>'
    assert parse_tool_calls(one) == ([{"name": "search", "arguments": {"q": "a}b"}}], [])
    two = ('think <tool_call>{"name": "a", "arguments": {}}</tool_call>\n'
           '<tool_call>{"name": "b", "arguments": "{\\"x\\": 1}"}</tool_call>')
    assert parse_tool_calls(two) == ([{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"x": 1}}], [])
    assert parse_tool_calls("plain answer") == ([], [])
    assert parse_tool_calls(None) == ([], [])
    no_args = '<tool_call>{"name": "ping"}</tool_call>'
    assert parse_tool_calls(no_args) == ([{"name": "ping", "arguments": {}}], [])

    calls, errors = parse_tool_calls('<tool_call>{"name": "a", "arguments": {</tool_call>')
    assert calls == [] and len(errors) == 1 and "not a JSON object" in errors[0]
    calls, errors = parse_tool_calls('<tool_call>{"arguments": {"x": 1}}</tool_call>')
    assert calls == [] and "without a name" in errors[0]
    calls, errors = parse_tool_calls('<tool_call>{"name": "a", "arguments": "nope"}</tool_call>')
    assert calls == [] and "arguments" in errors[0]
    calls, errors = parse_tool_calls('<tool_call>{"name": "a", "arguments": [1]}</tool_call>')
    assert calls == [] and len(errors) == 1
    mixed = '<tool_call>{"name": "ok", "arguments": {}}</tool_call><tool_call>{"name": "cut"'
    calls, errors = parse_tool_calls(mixed)
    assert calls == [{"name": "ok", "arguments": {}}] and len(errors) == 1 and "unclosed" in errors[0]


# ---------------------------------------------------------------- local transformers backend

CHATML = (
    "{%- if tools %}<|im_start|>system\n# Tools\n<tools>\n"
    "{%- for tool in tools %}{{ tool | tojson }}\n{% endfor %}</tools>\n"
    'Call a tool as <tool_call>{"name": ..., "arguments": ...}</tool_call><|im_end|>\n{% endif %}'
    "{%- for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}"
    "{%- if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


def build_tiny_qwen(path):
    """A random 2-layer Qwen3 with an in-process BPE tokenizer, saved like a real checkpoint."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import GenerationConfig, PreTrainedTokenizerFast, Qwen3Config, Qwen3ForCausalLM
    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=320, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  special_tokens=["<|endoftext|>", "<|im_start|>", "<|im_end|>"])
    bpe.train_from_iterator(["hello world, the weather in Paris is nice", "call a tool with JSON arguments",
                             "user assistant system tools"] * 4, trainer)
    tok = PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token="<|im_end|>", pad_token="<|endoftext|>",
                                  chat_template=CHATML)
    tok.add_tokens(["<tool_call>", "</tool_call>"])
    tok.save_pretrained(path)
    config = Qwen3Config(vocab_size=len(tok), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, head_dim=8, max_position_embeddings=512,
                         tie_word_embeddings=True, eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id)
    torch.manual_seed(0)
    model = Qwen3ForCausalLM(config)
    # hostile checkpoint defaults: if the client merged them, greedy decoding would change
    model.generation_config = GenerationConfig(do_sample=True, temperature=0.05, top_k=3, repetition_penalty=5.0,
                                               max_new_tokens=2, eos_token_id=tok.eos_token_id)
    model.save_pretrained(path)
    return tok, model


def manual_greedy(model, ids, n):
    """Argmax decoding by hand, no generate(): the reference for temperature 0."""
    import torch
    new = []
    with torch.no_grad():
        for _ in range(n):
            nxt = int(model(torch.tensor([ids + new])).logits[0, -1].argmax())
            new.append(nxt)
            if nxt == model.config.eos_token_id:
                break
    return new


def test_hf_client_is_deterministic_and_ignores_checkpoint_defaults(tmp_path):
    tok, model = build_tiny_qwen(tmp_path / "tiny")
    client = HFClient(str(tmp_path / "tiny"), device="cpu")
    msgs = [{"role": "user", "content": "hello world"}]
    a = client.chat(msgs, temperature=0, max_tokens=8)
    b = client.chat(msgs, temperature=0, max_tokens=8)
    assert isinstance(a["content"], str) and a == b
    prompt = tok.apply_chat_template(msgs, add_generation_prompt=True, tokenize=True, return_dict=True)["input_ids"]
    expected = manual_greedy(model.eval(), list(prompt), 8)
    assert a["content"] == tok.decode(expected, skip_special_tokens=True)
    assert a["usage"] == {"prompt_tokens": len(prompt), "completion_tokens": len(expected)}
    assert a["finish_reason"] == ("length" if len(expected) == 8 else "stop")

    tools = [{"type": "function", "function": {"name": "get_weather", "description": "weather",
                                               "parameters": {"type": "object", "properties": {}}}}]
    with_tools = client.chat(msgs, tools=tools, temperature=0, max_tokens=4)
    assert with_tools["usage"]["prompt_tokens"] > len(prompt)  # the template rendered the tools

    s1 = client.chat(msgs, temperature=1.0, max_tokens=6, seed=3)
    s2 = client.chat(msgs, temperature=1.0, max_tokens=6, seed=3)
    assert s1 == s2
    with pytest.raises(ValueError):
        client.chat(msgs, stop=["x"])
    assert client.usage["calls"] == 6 and client.usage["requests"] == 5


def test_to_openai_gives_every_tool_reply_its_call_id():
    from lib.chat import to_openai
    msgs = [{"role": "user", "content": "q"},
            {"role": "assistant", "content": 'ok <tool_call>{"name": "a", "arguments": {"x": 1}}</tool_call>'
                                             '<tool_call>{"name": oops}</tool_call>'
                                             '<tool_call>{"name": "b", "arguments": {}}</tool_call>'},
            {"role": "tool", "content": '{"error": "parse_error"}'},  # run_calls: parse errors first
            {"role": "tool", "content": "1"}, {"role": "tool", "content": "2"},
            {"role": "assistant", "content": "done"}]
    out = to_openai(msgs)
    assert [m["role"] for m in out] == ["user", "assistant", "user", "tool", "tool", "assistant"]
    assert [c["id"] for c in out[1]["tool_calls"]] == ["call_1", "call_2"]
    assert out[1]["tool_calls"][0]["function"] == {"name": "a", "arguments": '{"x": 1}'}
    assert out[1]["content"] == "ok" and out[2]["content"].startswith("Tool call error:")
    assert [(m["tool_call_id"], m["content"]) for m in out[3:5]] == [("call_1", "1"), ("call_2", "2")]
    assert out[5] == {"role": "assistant", "content": "done"}
