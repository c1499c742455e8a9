"""The chat and tool-call format: JSON and Qwen/Hermes <tool_call> extraction from model text, never raising."""
import json
import re


def _loads(text):
    """json.loads that returns (ok, value) instead of raising."""
    try:
        return True, json.loads(text)
    except (ValueError, RecursionError):
        return False, None


def extract_json(text):
    """First JSON value in text: a fenced ```json block, else the first {...} or [...] that parses; None if none."""
    if not isinstance(text, str):
        return None
    for block in re.findall(r"```(?:json)?[ \t]*\n?(.*?)```", text, flags=re.DOTALL):
        ok, value = _loads(block.strip())
        if ok:
            return value
    decoder = json.JSONDecoder()
    for m in re.finditer(r"[{\[]", text):
        try:  # raw_decode stops at the closing bracket and knows braces inside strings don't count
            return decoder.raw_decode(text, m.start())[0]
        except (ValueError, RecursionError):
            continue
    return None


def _normalise_calls(objs):
    """[{"name", "arguments": dict or JSON string}] -> (calls with dict arguments, errors)."""
    calls, errors = [], []
    for obj in objs:
        name, args = obj.get("name"), obj.get("arguments")
        # OpenAI sends arguments as a JSON string; a missing one means no arguments
        ok, args = _loads(args or "{}") if isinstance(args, str) else (True, {} if args is None else args)
        if not isinstance(name, str) or not name:
            errors.append(f"tool call without a name: {json.dumps(obj)[:120]}")
        elif not ok or not isinstance(args, dict):
            errors.append(f"{name}: arguments are not a JSON object")
        else:
            calls.append({"name": name, "arguments": args})
    return calls, errors


def parse_tool_calls(text):
    """Qwen/Hermes <tool_call>{"name", "arguments"}</tool_call> blocks -> (calls, errors); never raises."""
    objs, errors = [], []
    for part in (text.split("<tool_call>")[1:] if isinstance(text, str) else []):
        body, closed, _ = part.partition("</tool_call>")
        ok, obj = _loads(body.strip())
        if not closed:
            errors.append(f"unclosed <tool_call>: {body[:120]}")
        elif not ok or not isinstance(obj, dict):
            errors.append(f"tool call is not a JSON object: {body[:120]}")
        else:
            objs.append(obj)
    calls, bad = _normalise_calls(objs)
    return calls, errors + bad


def assistant_call(call_id, name, arguments, content=""):
    """An OpenAI assistant message making one tool call (arguments as JSON text)."""
    return {"role": "assistant", "content": content, "tool_calls": [{"id": call_id, "type": "function", "function": {
        "name": name, "arguments": json.dumps(arguments, ensure_ascii=False, sort_keys=True)}}]}


def to_openai(messages):
    """Messages in the Hermes text format (06's rollouts) -> the OpenAI format, for APIs that check tool-call ids.

    <tool_call> blocks in assistant text become tool_calls; the tool replies that follow get their calls'
    ids in order. lib.rollout.run_calls puts unparseable blocks' error observations first: those become
    user messages, since no call id exists for them. Messages already in the OpenAI format pass through."""
    out, pending, skip, n = [], [], 0, 0
    for m in messages:
        m = dict(m)
        if m["role"] == "assistant" and not m.get("tool_calls") and "<tool_call>" in (m.get("content") or ""):
            calls, errors = parse_tool_calls(m["content"])
            m = {"role": "assistant", "content": m["content"].split("<tool_call>")[0].strip(), "tool_calls": []}
            for c in calls:
                n += 1
                m["tool_calls"].append(assistant_call(f"call_{n}", c["name"], c["arguments"])["tool_calls"][0])
            skip = len(errors)
            if not m["tool_calls"]:
                del m["tool_calls"]
        if m["role"] == "assistant" and m.get("tool_calls"):
            pending = [c["id"] for c in m["tool_calls"]]
        elif m["role"] == "tool" and not m.get("tool_call_id"):
            if skip:
                skip -= 1
                m = {"role": "user", "content": f"Tool call error: {m['content']}"}
            else:
                m["tool_call_id"] = pending.pop(0) if pending else f"call_{n}"
        if not isinstance(m.get("content"), str):
            m["content"] = "" if m.get("content") is None else json.dumps(m["content"], ensure_ascii=False)
        out.append(m)
    return out
