"""Rollouts: golden multi-turn token/mask assembly, template checks, parser edge cases, stop reasons,
episode isolation, tool errors, the HF and OpenAI-compatible server generators. Also holds the fixtures
test_grpo.py imports (the bookshop run folder and the shared tiny model)."""
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import torch

from lib import example_env, runfolder
from lib.chat import parse_tool_calls
from lib.envs import Env
from lib.policy import collate, load_policy, token_logprobs
from lib.rollout import ChatFormat, HFGenerator, Rollout, Sampling, ServerGenerator, record, rollout, summarize
from lib.state import diff, state_hash

torch.set_num_threads(1)  # a tiny model: threads only add contention on shared CI cores
ENV_ID = "example-bookshop"
QUERY = 'What does book b0003 cost? Answer with JSON {"price": number}.'


# ---------------------------------------------------------------------------- fixtures (shared with test_grpo.py)
def task_row(env, n, query, calls, expected, answer_format, seed=0):
    """One graph task in the 05 contract format, its reference run on a fresh episode."""
    from lib import rewards
    ep = env.episode(seed=seed)
    for c in calls:
        ep.call(c["name"], c["arguments"])
    d = diff(env.initial_db(), ep.final_db())
    rubric = [{"type": "state", **it} for it in rewards.changes_from_diff(d, {"orders": ["id", "created_at"]})]
    row = {"id": f"{ENV_ID}/graph/{n:03d}", "env_id": ENV_ID, "env_path": f"03_filter/envs/{ENV_ID}", "kind": "graph",
           "query": query, "answer_format": answer_format, "reference": {"calls": calls}, "expected_answer": expected,
           "expected_state_hash": state_hash(ep.final_db()), "rubric": rubric, "verifier": None,
           "difficulty": {"tier": "easy", "calls": len(calls), "distinct_tools": len({c["name"] for c in calls}),
                          "writes": int(bool(d)), "branches": 0, "edges": {"strong": 0, "weak": 0, "independent": 0}},
           "taxonomy": None, "seed": seed, "round": 0, "targets": []}
    ep.close()
    return row


def make_run(run_dir, n_lookup=10, n_order=2):
    """A run folder with the bookshop as a kept env and price look-up / order tasks in 05_tasks/tasks.jsonl."""
    env = Env(example_env.build(os.path.join(run_dir, "03_filter", "envs", ENV_ID)))
    runfolder.write_jsonl(os.path.join(run_dir, "03_filter", "kept.jsonl"), [{"id": ENV_ID, "source": "schema"}])
    rows = []
    for i in range(n_lookup):
        book = f"b{i + 1:04d}"
        price = env.episode().call("get_book", {"book_id": book})["price"]
        rows.append(task_row(env, i, f'What does book {book} cost? Answer with JSON {{"price": number}}.',
                             [{"name": "get_book", "arguments": {"book_id": book}}], {"price": price}, {"price": "number"}))
    for j in range(n_order):
        book, cust = f"b{j + 1:04d}", f"c{j + 1:03d}"
        rows.append(task_row(env, n_lookup + j, f"Place an order of one copy of book {book} for customer {cust}.",
                             [{"name": "place_order", "arguments": {"customer_id": cust, "book_id": book}}], None, None))
    stage = runfolder.Stage(run_dir, "05_tasks", type("Args", (), {})())
    os.makedirs(stage.dir, exist_ok=True)
    stage.write_jsonl("tasks.jsonl", rows, "task")
    stage.finish({"tasks": len(rows)})
    return rows


@pytest.fixture(scope="session")
def env(tmp_path_factory):
    return Env(example_env.build(str(tmp_path_factory.mktemp("env") / ENV_ID)))


@pytest.fixture(scope="session")
def tiny(tmp_path_factory, env):
    """(model, tokenizer, ChatFormat) of one tiny model per session, built from the bookshop's text."""
    texts = [json.dumps(s) for s in env.schemas] + [QUERY]
    model, tok, _ = load_policy("tiny", str(tmp_path_factory.getbasetemp() / "tiny_shared"), texts)
    return model, tok, ChatFormat(tok)


class Scripted:
    """A generator that answers turn k of every rollout with script[k] (text), ending it with <|im_end|>."""

    def __init__(self, fmt, script, finish="stop"):
        self.fmt, self.script, self.finish, self.turn = fmt, script, finish, 0
        self.stop_ids = fmt.stop_ids
        self.sampled = []

    def generate(self, prompts, sampling, max_new, seed=None):
        ids = self.fmt.encode(self.script[min(self.turn, len(self.script) - 1)])
        ids = ids + [self.fmt.eos_id] if self.finish == "stop" else ids
        self.turn += 1
        self.sampled.append(ids)
        return [{"ids": list(ids), "logprobs": [-1.0] * len(ids), "finish": self.finish} for _ in prompts]


def messages(tools_query=QUERY):
    return [{"role": "system", "content": "sys"}, {"role": "user", "content": tools_query}]


# ---------------------------------------------------------------------------- assembly
def test_tool_suffix_golden(tiny):
    _, _, fmt = tiny
    # hand-written from the Qwen2.5 layout: the newline after the sampled <|im_end|> belongs to the suffix
    assert fmt.suffix_text(['{"a": 1}', '{"b": 2}']) == (
        "\n<|im_start|>user\n<tool_response>\n{\"a\": 1}\n</tool_response>\n<tool_response>\n{\"b\": 2}\n"
        "</tool_response><|im_end|>\n<|im_start|>assistant\n")


def test_golden_multi_turn_assembly(tiny, env):
    _, tok, fmt = tiny
    turns = ['<tool_call>\n{"name": "get_book", "arguments": {"book_id": "b0003"}}\n</tool_call>',
             '<tool_call>\n{"name": "get_book", "arguments": {"book_id": "b0001"}}\n</tool_call>\n'
             '<tool_call>\n{"name": "search_books", "arguments": {"limit": 1}}\n</tool_call>',
             '{"price": 12.5}']
    gen = Scripted(fmt, turns)
    prompt = fmt.prompt_ids(messages(), env.schemas)
    r = Rollout(task_id="t", member=0, ids=list(prompt), prompt_len=len(prompt))
    ep = env.episode(seed=0)
    rollout(gen, fmt, [r], [ep], Sampling(), max_turns=4, max_tokens=1000, max_context=8000)
    assert (r.stop, r.turns, r.calls, r.invalid, r.final_text) == ("answer", 3, 3, 0, '{"price": 12.5}')
    results = [json.dumps(ep.env.functions["get_book"](ep.env.initial_db(), "b0003"))]
    # the exact id sequence: prompt, turn 1 + <|im_end|>, suffix of its one result, turn 2, suffix of two results, turn 3
    r1 = [m["content"] for m in r.messages if m["role"] == "tool"]
    assert r1[0] == results[0]
    want = (prompt + gen.sampled[0] + fmt.suffix_ids(r1[:1]) + gen.sampled[1] + fmt.suffix_ids(r1[1:3])
            + gen.sampled[2])
    assert r.ids == want
    # the loss mask is 1 exactly on the sampled ids
    sampled_pos = []
    pos = len(prompt)
    for k, s in enumerate(gen.sampled):
        sampled_pos += list(range(pos, pos + len(s)))
        pos += len(s) + (len(fmt.suffix_ids(r1[:1])) if k == 0 else len(fmt.suffix_ids(r1[1:3])) if k == 1 else 0)
    assert [i for i, m in enumerate(r.mask) if m] == sampled_pos
    assert len(r.mask) == len(r.ids) == len(r.logprobs)
    # and the text is what the chat template renders for the same history (full-history prefix preservation)
    history = messages() + [{"role": "assistant", "content": turns[0]}, {"role": "tool", "content": r1[0]},
                            {"role": "assistant", "content": turns[1]}, {"role": "tool", "content": r1[1]},
                            {"role": "tool", "content": r1[2]}, {"role": "assistant", "content": turns[2]}]
    assert tok.decode(r.ids) == fmt.render(history, env.schemas)[: -1]  # minus the unsampled final newline
    rec = record(r, 1.0, {"answer:price": 1.0}, 0.5)
    assert rec["ids"] == r.ids and rec["mask"] == r.mask and rec["stop"] == "answer"


def test_template_that_breaks_prefixes_is_refused(tiny):
    _, tok, _ = tiny
    bad = type(tok).from_pretrained(tok.name_or_path)
    # like Qwen3's stock template: earlier assistant turns lose part of their text once a later turn exists
    bad.chat_template = ("{%- for m in messages %}<|im_start|>{{ m.role }}\n{% if m.role == 'assistant' and not loop.last %}"
                         "{{ m.content[:3] }}{% else %}{{ m.content }}{% endif %}<|im_end|>\n{%- endfor %}"
                         "{%- if add_generation_prompt %}<|im_start|>assistant\n{%- endif %}")
    with pytest.raises(ValueError, match="prefix"):
        ChatFormat(bad)


# ---------------------------------------------------------------------------- parser
@pytest.mark.parametrize("text,calls,n_err", [
    ('<tool_call>\n{"name": "get_book", "arguments": {"book_id": "b1"}}\n</tool_call>',
     [{"name": "get_book", "arguments": {"book_id": "b1"}}], 0),
    ('a<tool_call>{"name": "f", "arguments": {}}</tool_call> b <tool_call>{"name": "g", "arguments": {"x": 1}}</tool_call>',
     [{"name": "f", "arguments": {}}, {"name": "g", "arguments": {"x": 1}}], 0),
    ('<tool_call>{"name": "f", "arguments": {</tool_call>', [], 1),          # malformed JSON
    ('<tool_call>{"arguments": {"x": 1}}</tool_call>', [], 1),              # nameless
    ('<tool_call>{"name": "f", "arguments": "{\\"x\\": 1}"}</tool_call>', [{"name": "f", "arguments": {"x": 1}}], 0),
    ('<tool_call>{"name": "f", "arguments": "not json"}</tool_call>', [], 1),  # string arguments that do not parse
    ('<tool_call>{"name": "f"', [], 1),                                       # unclosed
    ('The price is {"price": 3}.', [], 0),                                    # no call: a final answer
])
def test_parser_edge_cases(text, calls, n_err):
    got, errors = parse_tool_calls(text)
    assert got == calls and len(errors) == n_err


# ---------------------------------------------------------------------------- stops, tools, isolation
def test_stop_reasons_and_tool_errors(tiny, env):
    _, _, fmt = tiny
    prompt = fmt.prompt_ids(messages(), env.schemas)
    new = lambda: Rollout(task_id="t", member=0, ids=list(prompt), prompt_len=len(prompt))  # noqa: E731
    call = '<tool_call>{"name": "get_book", "arguments": {"book_id": "b0002"}}</tool_call>'
    r = new()  # always calls a tool: stops at max_turns
    rollout(Scripted(fmt, [call]), fmt, [r], [env.episode()], Sampling(), max_turns=3, max_context=8000)
    assert (r.stop, r.turns, r.calls) == ("max_turns", 3, 3)
    r = new()  # never emits <|im_end|>: the turn ran out of tokens
    rollout(Scripted(fmt, ["blah"], finish="length"), fmt, [r], [env.episode()], Sampling(), max_context=8000)
    assert r.stop == "length" and r.mask[-1] == 1
    r = new()  # no room left for the tool result
    rollout(Scripted(fmt, [call]), fmt, [r], [env.episode()], Sampling(), max_context=len(prompt) + 40)
    assert r.stop == "context" and len(r.ids) <= len(prompt) + 40
    # malformed call, a tool not offered, bad arguments: observations, counted invalid; long output cut
    bad = ('<tool_call>{"name": </tool_call><tool_call>{"name": "place_order", "arguments": {}}</tool_call>'
           '<tool_call>{"name": "get_book", "arguments": {"book_id": 7}}</tool_call>'
           '<tool_call>{"name": "search_books", "arguments": {"limit": 50}}</tool_call>')
    r = new()
    rollout(Scripted(fmt, [bad, "done"]), fmt, [r], [env.episode()], Sampling(), offered=[{"get_book", "search_books"}],
            max_tool_chars=100, max_context=8000)
    tool = [json.loads(m["content"]) if not m["content"].endswith("(truncated)") else m["content"]
            for m in r.messages if m["role"] == "tool"]
    assert tool[0]["error"] == "parse_error" and tool[1]["error"] == "unknown_tool" and tool[2]["error"] == "invalid_arguments"
    assert tool[3].endswith("...(truncated)") and len(tool[3]) == 100 + len(" ...(truncated)")
    assert (r.invalid, r.calls, r.stop, r.final_text) == (3, 4, "answer", "done")
    s = summarize([r])
    assert s["invalid_rate"] == 0.75 and s["stop_answer"] == 1


def test_episode_isolation(tiny, env):
    _, _, fmt = tiny
    order = '<tool_call>{"name": "place_order", "arguments": {"customer_id": "c001", "book_id": "b0001"}}</tool_call>'
    eps = [env.episode(seed=5) for _ in range(3)]
    start = {state_hash(e.final_db()) for e in eps}
    assert len(start) == 1  # every member of a group starts from the identical state
    prompt = fmt.prompt_ids(messages(), env.schemas)
    rolls = [Rollout(task_id="t", member=g, ids=list(prompt), prompt_len=len(prompt)) for g in range(3)]

    class OneWrites(Scripted):  # only member 0 places the order
        def generate(self, prompts, sampling, max_new, seed=None):
            out = super().generate(prompts, sampling, max_new)
            if self.turn == 1:
                out[1:] = [{"ids": self.fmt.encode("no") + [self.fmt.eos_id], "logprobs": [0.0] * 2, "finish": "stop"}
                           for _ in prompts[1:]]
            return out
    rollout(OneWrites(fmt, [order, "ok"]), fmt, rolls, eps, Sampling(), max_context=8000)
    hashes = [state_hash(e.final_db()) for e in eps]
    assert hashes[0] not in start and hashes[1] == hashes[2] == next(iter(start))
    assert "orders" in diff(env.initial_db(), eps[0].final_db()) and diff(env.initial_db(), eps[1].final_db()) == {}
    assert state_hash(env.initial_db()) == next(iter(start))  # the environment's initial state is untouched


# ---------------------------------------------------------------------------- generators
def test_hf_generator_samples_differ_and_ignore_generation_config(tiny, env):
    model, tok, fmt = tiny
    saved = model.generation_config.to_dict()
    model.generation_config.top_k, model.generation_config.temperature = 1, 0.01  # would collapse a group if merged
    try:
        prompt = fmt.prompt_ids(messages(), env.schemas)
        out = HFGenerator(model, tok, fmt.stop_ids).generate([prompt] * 8, Sampling(max_new_tokens=6), [6] * 8, seed=0)
    finally:
        model.generation_config.top_k, model.generation_config.temperature = saved.get("top_k"), saved.get("temperature")
    assert len({o["ids"][0] for o in out}) > 1  # the group differs from its first token on
    assert all(len(o["ids"]) <= 6 and len(o["logprobs"]) == len(o["ids"]) for o in out)
    again = HFGenerator(model, tok, fmt.stop_ids).generate([prompt] * 8, Sampling(max_new_tokens=6), [6] * 8, seed=0)
    assert [o["ids"] for o in out] == [o["ids"] for o in again]  # same seed, same samples


def test_sampler_logprobs_equal_training_forward(tiny, env):
    model, tok, fmt = tiny
    prompts = [fmt.prompt_ids(messages(), env.schemas), fmt.prompt_ids(messages("Hi"), env.schemas[:1])]
    samp = Sampling(temperature=0.7, max_new_tokens=12)
    out = HFGenerator(model, tok, fmt.stop_ids).generate(prompts, samp, [12, 12], seed=1)
    rows = [{"ids": p + o["ids"], "mask": [0] * len(p) + [1] * len(o["ids"])} for p, o in zip(prompts, out)]
    batch = collate(rows, tok.pad_token_id)
    with torch.no_grad():
        lp, _ = token_logprobs(model, batch, temperature=0.7)
    for b, (p, o) in enumerate(zip(prompts, out)):
        got = lp[b, len(p): len(p) + len(o["ids"])]
        assert torch.allclose(got, torch.tensor(o["logprobs"]), atol=1e-4), (got, o["logprobs"])


def test_logprobs_padding_invariant(tiny):
    model, tok, _ = tiny
    a = {"ids": [5, 9, 30, 41, 7, 100, 3], "mask": [0, 0, 0, 1, 1, 1, 1]}
    b = {"ids": [11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22], "mask": [0] * 6 + [1] * 6}
    with torch.no_grad():
        alone = token_logprobs(model, collate([a], tok.pad_token_id))[0][0]
        right = token_logprobs(model, collate([a, b], tok.pad_token_id, side="right"))[0][0, : len(a["ids"])]
        left = token_logprobs(model, collate([b, a], tok.pad_token_id, side="left"))[0][1, -len(a["ids"]):]
    assert torch.allclose(alone, right, atol=1e-5) and torch.allclose(alone, left, atol=1e-5)
    assert (alone[:3] == 0).all() and (alone[3:] < 0).all()


class _Completions(BaseHTTPRequestHandler):
    """A fake OpenAI-compatible /v1/completions (vLLM style): answers ids [40, 41] and stops; records bodies."""
    bodies = []

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.bodies.append(body)
        n = len(self.bodies)
        tokens = ["token_id:40", "token_id:41"] if n == 1 else []
        reply = {"choices": [{"text": "hello", "finish_reason": "stop" if n == 1 else "length",
                              "logprobs": {"tokens": tokens, "token_logprobs": [-0.5, -0.25][: len(tokens)]}}]}
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *a):
        pass


def test_server_generator_token_ids(tiny):
    _, tok, fmt = tiny
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Completions)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        gen = ServerGenerator(f"http://127.0.0.1:{httpd.server_address[1]}/v1", "m", tok, fmt.stop_ids, workers=1)
        samp = Sampling(temperature=0.6, top_p=0.9, top_k=20, max_new_tokens=8)
        first = gen.generate([[1, 2, 3]], samp, [8], seed=7)[0]
        second = gen.generate([[4]], samp, [5])[0]
    finally:
        httpd.shutdown()
    body = _Completions.bodies[0]
    assert body["prompt"] == [1, 2, 3] and body["max_tokens"] == 8 and body["top_k"] == 20 and body["seed"] == 7
    assert body["temperature"] == 0.6 and body["top_p"] == 0.9 and body["return_tokens_as_token_ids"]
    # the server left out the stop token: it is appended, so the training sequence ends the turn as sampled
    assert first == {"ids": [40, 41, fmt.eos_id], "logprobs": [-0.5, -0.25, 0.0], "finish": "stop"}
    assert second["ids"] == fmt.encode("hello") and second["finish"] == "length" and gen.reencoded == 1
