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
