"""Tiny offline model: determinism, byte-level round trip, added tokens, loading, golden chat template."""
import json
import os

import pytest
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

from lib import tiny_model

TEXTS = [
    '{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", '
    '"properties": {"city": {"type": "string"}}, "required": ["city"]}}}',
    '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>',
    "What is the weather in Paris today?",
    "Cancel order 17 for customer 42, then tell me the refund.",
]

TOOLS = [{"type": "function", "function": {
    "name": "get_weather", "description": "Get the weather for a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]

CONVERSATION = [
    {"role": "system", "content": "You are a helpful assistant."},
    {"role": "user", "content": "Weather in Paris?"},
    {"role": "assistant", "content": "", "tool_calls": [
        {"type": "function", "function": {"name": "get_weather", "arguments": {"city": "Paris"}}}]},
    {"role": "tool", "content": '{"temp_c": 21}'},
    {"role": "assistant", "content": "It is 21 °C in Paris."},
]

# Written by hand from the Qwen2.5 layout, not produced by the template.
GOLDEN = (
    "<|im_start|>system\nYou are a helpful assistant.\n\n"
    "# Tools\n\n"
    "You can call the functions below to help with the request. "
    "Their JSON schemas are listed inside <tools></tools>:\n"
    "<tools>\n"
    '{"type": "function", "function": {"name": "get_weather", "description": "Get the weather for a city.", '
    '"parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}\n'
    "</tools>\n\n"
    "To call a function, reply with one JSON object per call, holding its name and arguments, "
    "inside <tool_call></tool_call> tags:\n"
    "<tool_call>\n"
    '{"name": <function-name>, "arguments": <args-json-object>}\n'
    "</tool_call><|im_end|>\n"
    "<|im_start|>user\nWeather in Paris?<|im_end|>\n"
    "<|im_start|>assistant\n<tool_call>\n"
    '{"name": "get_weather", "arguments": {"city": "Paris"}}\n'
    "</tool_call><|im_end|>\n"
    "<|im_start|>user\n<tool_response>\n"
    '{"temp_c": 21}\n'
    "</tool_response><|im_end|>\n"
    "<|im_start|>assistant\nIt is 21 °C in Paris.<|im_end|>\n"
)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """One build, loaded back offline: (path, tokenizer, model)."""
    path = tiny_model.build_tiny_model(tmp_path_factory.mktemp("tiny") / "model", TEXTS)
    return path, AutoTokenizer.from_pretrained(path), AutoModelForCausalLM.from_pretrained(path)


def render(tok, messages, **kw):
    return tok.apply_chat_template(messages, tools=TOOLS, tokenize=False, **kw)


# ---------------------------------------------------------------------------- determinism
def test_same_seed_same_bytes_and_weights(built, tmp_path):
    path, _, model = built
    again = tiny_model.build_tiny_model(tmp_path / "again", TEXTS)
    with open(os.path.join(path, "tokenizer.json"), "rb") as a, open(os.path.join(again, "tokenizer.json"), "rb") as b:
        assert a.read() == b.read()
    other = AutoModelForCausalLM.from_pretrained(again).state_dict()
    ref = model.state_dict()
    assert ref.keys() == other.keys()
    assert all(torch.equal(ref[k], other[k]) for k in ref)


def test_other_seed_other_weights_same_tokenizer(built, tmp_path):
    path, _, model = built
    seeded = tiny_model.build_tiny_model(tmp_path / "seed1", TEXTS, seed=1)
    with open(os.path.join(path, "tokenizer.json"), "rb") as a, open(os.path.join(seeded, "tokenizer.json"), "rb") as b:
        assert a.read() == b.read()
    w0 = model.model.embed_tokens.weight
    w1 = AutoModelForCausalLM.from_pretrained(seeded).model.embed_tokens.weight
    assert w0.shape == w1.shape and not torch.equal(w0, w1)


def test_idempotent_and_refuses_foreign_folder(built, tmp_path):
    path, _, _ = built
    weights = os.path.join(path, "model.safetensors")
    before = os.stat(weights).st_mtime_ns
    assert tiny_model.build_tiny_model(path, TEXTS) == str(path)
    assert os.stat(weights).st_mtime_ns == before  # reused, not rewritten
    (tmp_path / "foreign").mkdir()
    (tmp_path / "foreign" / "notes.txt").write_text("keep me")
    with pytest.raises(FileExistsError):
        tiny_model.build_tiny_model(tmp_path / "foreign", TEXTS)


# ---------------------------------------------------------------------------- tokenizer
@pytest.mark.parametrize("text", [
    "plain ascii , spaced . punctuation ;",
    '{"name": "get_weather", "arguments": {"city": "São Paulo", "days": [1, 2.5, -3e4], "ok": null}}',
    "unicode: 日本語 한국어 العربية Ελληνικά e\u0301 🙂👍🏽 \u200b",
    "  leading and trailing spaces, tabs\tand\r\nwindows newlines\n\n\n",
    "control \x00\x01\x7f bytes and a backslash \\ and quotes '\"",
])
def test_round_trip(built, text):
    _, tok, _ = built
    ids = tok.encode(text)
    assert tok.decode(ids) == text


def test_added_tokens_are_single_ids(built):
    _, tok, _ = built
    vocab = tok.get_vocab()
    for t in tiny_model.SPECIAL_TOKENS + tiny_model.TOOL_TOKENS:
        assert tok.encode(t) == [vocab[t]]
    assert tok.eos_token == "<|im_end|>" and tok.eos_token_id == vocab["<|im_end|>"]
    assert tok.pad_token == "<|endoftext|>" and tok.pad_token_id != tok.eos_token_id
    assert tok.bos_token is None
    # Inside text, not split; a partial tag is ordinary text.
    ids = tok.encode("a<tool_call>b<|im_end|>")
    assert vocab["<tool_call>"] in ids and ids[-1] == tok.eos_token_id
    assert vocab["<|im_end|>"] not in tok.encode("<|im_end")


def test_skip_special_tokens_keeps_tool_tags(built):
    _, tok, _ = built
    ids = tok.encode('<|im_start|>assistant\n<tool_call>\n{"name": "f"}\n</tool_call><|im_end|>')
    assert tok.decode(ids, skip_special_tokens=True) == 'assistant\n<tool_call>\n{"name": "f"}\n</tool_call>'


def test_tool_call_json_is_compact(built):
    _, tok, _ = built
    ids = tok.encode('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>')
    # 80 characters, 21 ids: every piece of the GPT-2 split is a single token.
    assert [tok.decode([i]) for i in ids] == [
        "<tool_call>", "\n", '{"', "name", '":', ' "', "get", "_", "weather", '",', ' "', "arguments", '":',
        ' {"', "city", '":', ' "', "Paris", '"}}', "\n", "</tool_call>"]


# ---------------------------------------------------------------------------- model
def test_loads_and_forwards(built):
    _, tok, model = built
    assert model.config.model_type == "qwen3" and model.config.tie_word_embeddings
    assert model.lm_head.weight.data_ptr() == model.model.embed_tokens.weight.data_ptr()
    assert model.config.vocab_size == len(tok)
    ids = torch.tensor([tok.encode("hello <tool_call>"), tok.encode("bye <|im_end|>")])  # (B, T)
    with torch.no_grad():
        logits = model(input_ids=ids, attention_mask=torch.ones_like(ids)).logits
    assert logits.shape == (2, ids.shape[1], len(tok))
    assert torch.isfinite(logits).all()


def test_parameter_count(built):
    _, tok, model = built
    # Per layer: q 64*64 + k 64*32 + v 64*32 + o 64*64 = 12288, q/k norms 16+16,
    # MLP 3*64*128 = 24576, two RMSNorms 64+64 -> 37024. Two layers + final norm 64 = 74112.
    # Tied embeddings count once: 64 * vocab.
    assert sum(p.numel() for p in model.parameters()) == 64 * len(tok) + 74112


def test_generation_config_has_no_sampling_defaults(built):
    path, tok, model = built
    with open(os.path.join(path, "generation_config.json")) as f:
        gen = json.load(f)
    assert gen.get("do_sample", False) is False
    assert not {"temperature", "top_k", "top_p", "min_p", "repetition_penalty"} & gen.keys()
    assert gen["eos_token_id"] == tok.eos_token_id and gen["pad_token_id"] == tok.pad_token_id
    assert model.generation_config.do_sample is False


# ---------------------------------------------------------------------------- chat template
def test_golden_render(built):
    _, tok, _ = built
    assert tok.chat_template == tiny_model.CHAT_TEMPLATE
    assert render(tok, CONVERSATION) == GOLDEN


def test_prefix_preserving_every_k(built):
    _, tok, _ = built
    for k in range(1, len(CONVERSATION)):  # transformers refuses an empty conversation
        short, longer = render(tok, CONVERSATION[:k]), render(tok, CONVERSATION[: k + 1])
        assert longer.startswith(short), k
        # Token level too: every boundary sits before <|im_start|>, so ids extend as well.
        assert tok.encode(longer)[: len(tok.encode(short))] == tok.encode(short), k


def test_generation_prompt_is_the_assistant_header(built):
    _, tok, _ = built
    header = "<|im_start|>assistant\n"
    for k in range(1, len(CONVERSATION) + 1):
        prompt = render(tok, CONVERSATION[:k], add_generation_prompt=True)
        assert prompt == render(tok, CONVERSATION[:k]) + header
        if k < len(CONVERSATION) and CONVERSATION[k]["role"] == "assistant":
            assert render(tok, CONVERSATION[: k + 1]).startswith(prompt)  # sampled turn extends the prompt


def test_parallel_calls_and_grouped_tool_results(built):
    _, tok, _ = built
    messages = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "Checking.", "tool_calls": [
            {"name": "a", "arguments": '{"x": 1}'},  # arguments already a JSON string
            {"type": "function", "function": {"name": "b", "arguments": {}}}]},
        {"role": "tool", "content": "r1"},
        {"role": "tool", "content": "r2"},
    ]
    out = tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
    assert out == (
        "<|im_start|>user\nhi<|im_end|>\n"
        '<|im_start|>assistant\nChecking.\n<tool_call>\n{"name": "a", "arguments": {"x": 1}}\n</tool_call>\n'
        '<tool_call>\n{"name": "b", "arguments": {}}\n</tool_call><|im_end|>\n'
        "<|im_start|>user\n<tool_response>\nr1\n</tool_response>\n<tool_response>\nr2\n</tool_response><|im_end|>\n"
        "<|im_start|>assistant\n"
    )
    # The documented exception: a second tool result reopens the first one's turn.
    one = tok.apply_chat_template(messages[:3], tokenize=False)
    two = tok.apply_chat_template(messages, tokenize=False)
    assert not two.startswith(one) and two.startswith(one[: -len("<|im_end|>\n")])


def test_bad_roles_raise(built):
    _, tok, _ = built
    with pytest.raises(Exception, match="Unknown role"):
        tok.apply_chat_template([{"role": "robot", "content": "x"}], tokenize=False)
    with pytest.raises(Exception, match="only come first"):
        tok.apply_chat_template([{"role": "user", "content": "x"}, {"role": "system", "content": "y"}],
                                tokenize=False)
