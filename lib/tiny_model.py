"""A tiny random-weight Qwen3 causal LM and a byte-level BPE tokenizer with a tool-aware ChatML template, built offline for tests.

build_tiny_model(out_dir, texts) writes a Hugging Face folder that
AutoModelForCausalLM / AutoTokenizer.from_pretrained load with no network:
  config.json, model.safetensors, generation_config.json (greedy, no sampling defaults),
  tokenizer.json, tokenizer_config.json, chat_template.jinja,
  build.json (the build arguments, written last: its presence means "finished").

Tokenizer: byte-level BPE trained in-process on `texts` plus a built-in ChatML/tool-call/JSON
corpus; every byte is in the alphabet, so decode(encode(s)) == s for any string. Seven added
tokens follow the trained vocabulary, as in Qwen2.5: <|endoftext|> (pad), <|im_start|>,
<|im_end|> (eos) are special (dropped by skip_special_tokens); <tool_call>, </tool_call>,
<tool_response>, </tool_response> are single ids but not special, so they survive decoding.

CHAT_TEMPLATE follows the Qwen2.5 layout (tools in the system turn, tool calls as JSON inside
<tool_call> blocks, tool results as a user turn of <tool_response> blocks). Rendering
messages[:k] is a prefix of rendering messages[:k+1] for every k, except inside a run of
consecutive tool messages: they share one user turn, so the turn's closing "<|im_end|>\n"
moves behind the newest tool result. Append a turn's tool results together.
"""
import hashlib
import json
import os
import re
import shutil

SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]  # dropped by skip_special_tokens
TOOL_TOKENS = ["<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>"]  # kept by decode
PAD_TOKEN, EOS_TOKEN = "<|endoftext|>", "<|im_end|>"

TOOLS_HEADER = (
    "# Tools\n\nYou can call the functions below to help with the request. "
    "Their JSON schemas are listed inside <tools></tools>:\n<tools>"
)
TOOLS_FOOTER = (
    "\n</tools>\n\nTo call a function, reply with one JSON object per call, holding its name and "
    "arguments, inside <tool_call></tool_call> tags:\n<tool_call>\n"
    '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>'
)

# ---------------------------------------------------------------------------- chat template
# Jinja; the two fixed texts are spliced in as JSON string literals (valid Jinja literals).
CHAT_TEMPLATE = r"""{#- ChatML with Qwen2.5-style tool calls. Each message renders on its own, so appending one never
    changes earlier output, except that consecutive tool results share one user turn. -#}
{%- if messages and (tools or messages[0].role == 'system') %}
    {{- '<|im_start|>system\n' }}
    {%- if messages[0].role == 'system' %}
        {{- messages[0].content }}
        {%- if tools %}{{- '\n\n' }}{%- endif %}
    {%- endif %}
    {%- if tools %}
        {{- TOOLS_HEADER }}
        {%- for tool in tools %}
            {{- '\n' + (tool | tojson) }}
        {%- endfor %}
        {{- TOOLS_FOOTER }}
    {%- endif %}
    {{- '<|im_end|>\n' }}
{%- endif %}
{%- for message in messages %}
    {%- if message.role == 'system' %}
        {%- if not loop.first %}
            {{- raise_exception('A system message may only come first.') }}
        {%- endif %}
    {%- elif message.role == 'user' %}
        {{- '<|im_start|>user\n' + message.content + '<|im_end|>\n' }}
    {%- elif message.role == 'assistant' %}
        {#- Starts with the generation header, so a sampled turn appends to the prompt unchanged. #}
        {{- '<|im_start|>assistant\n' }}
        {%- set text = message.content or '' %}
        {{- text }}
        {%- for call in message.tool_calls or [] %}
            {%- set fn = call.function if call.function is defined else call %}
            {%- if text or not loop.first %}
                {{- '\n' }}
            {%- endif %}
            {{- '<tool_call>\n{"name": ' + (fn.name | tojson) + ', "arguments": ' }}
            {%- if fn.arguments is string %}
                {{- fn.arguments }}
            {%- else %}
                {{- fn.arguments | tojson }}
            {%- endif %}
            {{- '}\n</tool_call>' }}
        {%- endfor %}
        {{- '<|im_end|>\n' }}
    {%- elif message.role == 'tool' %}
        {%- if loop.first or loop.previtem.role != 'tool' %}
            {{- '<|im_start|>user' }}
        {%- endif %}
        {%- set result = message.content if message.content is string else message.content | tojson %}
        {{- '\n<tool_response>\n' + result + '\n</tool_response>' }}
        {%- if loop.last or loop.nextitem.role != 'tool' %}
            {{- '<|im_end|>\n' }}
        {%- endif %}
    {%- else %}
        {{- raise_exception('Unknown role: ' + message.role) }}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\n' }}
{%- endif %}
""".replace("TOOLS_HEADER", json.dumps(TOOLS_HEADER)).replace("TOOLS_FOOTER", json.dumps(TOOLS_FOOTER))


# ---------------------------------------------------------------------------- built-in corpus
def _builtin_corpus():
    """Rendered-looking ChatML/tool-call text and JSON, so tool-call JSON tokenizes compactly."""
    schema = {"type": "function", "function": {
        "name": "search_orders", "description": "Find orders of a customer by status.",
        "parameters": {"type": "object", "properties": {
            "customer_id": {"type": "integer", "description": "The customer id."},
            "status": {"type": "string", "enum": ["open", "shipped", "cancelled"]},
            "limit": {"type": "number", "description": "Maximum rows, 0 = no limit."},
            "include_items": {"type": "boolean"}, "tags": {"type": "array", "items": {"type": "string"}}},
            "required": ["customer_id", "status"]}}}
    call = {"name": "search_orders", "arguments": {"customer_id": 42, "status": "open", "limit": 10}}
    result = {"orders": [{"id": 7, "total": 19.99, "paid": True, "note": None}], "count": 1, "error": ""}
    turns = [
        "system\nYou are a helpful assistant.\n\n" + TOOLS_HEADER + "\n" + json.dumps(schema) + TOOLS_FOOTER,
        "user\nWhich orders of customer 42 are still open?",
        "assistant\n<tool_call>\n" + json.dumps(call) + "\n</tool_call>",
        "user\n<tool_response>\n" + json.dumps(result) + "\n</tool_response>",
        "assistant\nCustomer 42 has 1 open order (id 7, total 19.99).",
    ]
    punctuation = '{"": "", "": [], "": {}, "": 0, "": -1.5, "": true, "": false, "": null}\n[1, 2, 3]\n'
    return "\n".join(turns) + "\n" + punctuation + "0123456789 .,;:!?'\"()[]{}<>/\\|-_=+*&^%$#@~`\n"


# ---------------------------------------------------------------------------- tokenizer
def train_tokenizer(texts, vocab_size=1024, seed=0):
    """Train a byte-level BPE on texts + the built-in corpus; len(result) <= vocab_size, 7 added tokens last.

    BPE training has no randomness (ties break on pair ids), so `seed` changes nothing; it is
    accepted so every builder here takes one. Special-token strings in texts are cut out before
    training so no merges are spent on them.
    """
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    added = SPECIAL_TOKENS + TOOL_TOKENS
    assert vocab_size >= 256 + len(added), "vocab_size must hold the 256 bytes and 7 added tokens"
    cut = re.compile("|".join(re.escape(t) for t in added))
    # The built-in corpus is repeated so its JSON/tool-call merges come early whatever texts holds.
    corpus = [piece for text in list(texts) + [_builtin_corpus()] * 4 for piece in cut.split(text) if piece]

    tok = Tokenizer(models.BPE())
    # GPT-2 split regex, then bytes -> printable chars; no normalizer, so any string round-trips.
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size - len(added), min_frequency=2, show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), special_tokens=[])
    tok.train_from_iterator(corpus, trainer)
    tok.add_special_tokens([AddedToken(t, special=True, normalized=False) for t in SPECIAL_TOKENS])
    tok.add_tokens([AddedToken(t, special=False, normalized=False) for t in TOOL_TOKENS])

    return PreTrainedTokenizerFast(
        tokenizer_object=tok, eos_token=EOS_TOKEN, pad_token=PAD_TOKEN,
        extra_special_tokens=["<|im_start|>"], clean_up_tokenization_spaces=False,
        chat_template=CHAT_TEMPLATE)


# ---------------------------------------------------------------------------- model
def _build_args(texts, **kw):
    """What identifies a build: the keyword arguments and a hash of the texts."""
    blob = json.dumps(list(texts), ensure_ascii=False).encode("utf-8")
    return {**kw, "texts_sha256": hashlib.sha256(blob).hexdigest()}


def build_tiny_model(out_dir, texts, *, vocab_size=1024, hidden=64, layers=2, heads=4, kv_heads=2,
                     intermediate=128, max_positions=4096, seed=0):
    """Write tokenizer + random Qwen3 (weights seeded by `seed`) to out_dir; reuse a finished identical build."""
    import torch
    from transformers import GenerationConfig, Qwen3Config, Qwen3ForCausalLM

    texts = list(texts)
    args = _build_args(texts, vocab_size=vocab_size, hidden=hidden, layers=layers, heads=heads,
                       kv_heads=kv_heads, intermediate=intermediate, max_positions=max_positions, seed=seed)
    out_dir = os.path.abspath(out_dir)
    meta_path = os.path.join(out_dir, "build.json")
    if os.path.exists(meta_path):
        with open(meta_path) as f:
            if json.load(f)["args"] == args:
                return out_dir  # already built with these arguments
    elif os.path.isdir(out_dir) and os.listdir(out_dir):
        raise FileExistsError(f"{out_dir} is not empty and holds no tiny-model build.json")

    tokenizer = train_tokenizer(texts, vocab_size=vocab_size, seed=seed)
    tokenizer.model_max_length = max_positions
    pad_id, eos_id = tokenizer.convert_tokens_to_ids([PAD_TOKEN, EOS_TOKEN])
    config = Qwen3Config(
        vocab_size=len(tokenizer),  # exactly the tokenizer: no logits for ids it cannot decode
        hidden_size=hidden, intermediate_size=intermediate, num_hidden_layers=layers,
        num_attention_heads=heads, num_key_value_heads=kv_heads, head_dim=hidden // heads,
        max_position_embeddings=max_positions, tie_word_embeddings=True,
        bos_token_id=None, eos_token_id=eos_id, pad_token_id=pad_id, dtype="float32")
    with torch.random.fork_rng(devices=[]):  # seed the init without touching the caller's RNG
        torch.manual_seed(seed)
        model = Qwen3ForCausalLM(config)
    # Greedy by default; sampling settings must come from the caller, never from this file.
    model.generation_config = GenerationConfig(do_sample=False, eos_token_id=eos_id, pad_token_id=pad_id)

    tmp_dir = f"{out_dir}.tmp{os.getpid()}"
    shutil.rmtree(tmp_dir, ignore_errors=True)
    model.save_pretrained(tmp_dir)
    tokenizer.save_pretrained(tmp_dir)
    n_params = sum(p.numel() for p in model.parameters())
    with open(os.path.join(tmp_dir, "build.json"), "w") as f:
        json.dump({"args": args, "n_params": n_params, "vocab": len(tokenizer)}, f, indent=1)
    shutil.rmtree(out_dir, ignore_errors=True)
    os.replace(tmp_dir, out_dir)
    return out_dir
