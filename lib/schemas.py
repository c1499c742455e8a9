"""Tool schemas: describe a tools module's functions, derive their JSON schemas, validate arguments against them."""
import ast
import hashlib
import inspect
import json
import typing


class SchemaError(Exception):
    """A tool whose signature or docstring gives no usable schema."""


def public_functions(namespace):
    """The tools of a module namespace: public functions defined in it, in source order."""
    fns = [v for k, v in namespace.items() if inspect.isfunction(v) and not k.startswith("_")
           and v.__module__ == namespace.get("__name__")]
    return sorted(fns, key=lambda f: f.__code__.co_firstlineno)


def describe_function(fn):
    """Plain-data description of a tool (name, docstring, parameters with annotation text)."""
    def text(a):
        if isinstance(a, str):
            return a
        return a.__name__ if isinstance(a, type) else repr(a).replace("typing.", "")
    params = list(inspect.signature(fn).parameters.values())[1:]  # the first is the database
    return {"name": fn.__name__, "doc": inspect.getdoc(fn) or "",
            "params": [{"name": p.name, "annotation": text(p.annotation) if p.annotation is not p.empty else "",
                        "required": p.default is p.empty} for p in params]}


_TYPE_NAMES = {"int": int, "float": float, "str": str, "bool": bool, "list": list, "dict": dict, "tuple": tuple,
               "None": type(None), "Any": typing.Any, "Optional": typing.Optional, "Union": typing.Union,
               "List": typing.List, "Dict": typing.Dict, "Tuple": typing.Tuple, "Literal": typing.Literal}


def _safe_annotation(text):
    """Turn annotation text into a type without running untrusted code (names, [], |, constants only)."""
    tree = ast.parse(text, mode="eval")
    for node in ast.walk(tree):
        ok = isinstance(node, (ast.Expression, ast.Name, ast.Subscript, ast.Tuple, ast.Load, ast.Constant,
                               ast.BinOp, ast.BitOr))
        if not ok or (isinstance(node, ast.Name) and node.id not in _TYPE_NAMES):
            raise SchemaError(f"unsupported type annotation {text!r}")
    return eval(compile(tree, "<annotation>", "eval"), {"__builtins__": {}}, dict(_TYPE_NAMES))


def schema_from_description(desc):
    """OpenAI function schema for a described tool, via transformers.utils.get_json_schema."""
    from transformers.utils import get_json_schema  # heavy import, only when schemas are derived

    def shim(*a, **k):
        pass
    try:
        hints = {p["name"]: _safe_annotation(p["annotation"] or "Any") for p in desc["params"]}
        shim.__signature__ = inspect.Signature([
            inspect.Parameter(p["name"], inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=hints[p["name"]],
                              default=inspect.Parameter.empty if p["required"] else None) for p in desc["params"]])
        shim.__name__, shim.__doc__, shim.__annotations__ = desc["name"], desc["doc"], hints
        schema = get_json_schema(shim)
    except Exception as e:  # transformers raises several exception types for bad docstrings/hints
        raise SchemaError(f"tool {desc['name']}: cannot derive its schema: {e}") from None
    schema["function"].pop("return", None)
    return schema


def source_sha(source):
    """Content hash used to key the tools.json schema cache."""
    return hashlib.sha256(source.encode()).hexdigest()


_JSON_TYPES = {"string": str, "integer": int, "number": (int, float), "boolean": bool,
               "array": list, "object": dict, "null": type(None)}


def validate(value, schema, path="arguments"):
    """Check a value against the JSON-schema subset get_json_schema emits; return an error string or None."""
    if value is None and (schema.get("nullable") or schema.get("type") == "null"):
        return None
    types = schema.get("type")
    if types is not None:
        types = types if isinstance(types, list) else [types]
        ok = any(isinstance(value, _JSON_TYPES[t]) and not (isinstance(value, bool) and t in ("integer", "number"))
                 for t in types if t in _JSON_TYPES)
        if not ok:
            return f"{path}: expected {'/'.join(types)}, got {type(value).__name__} {json.dumps(value)[:60]}"
    if "enum" in schema and value not in schema["enum"]:
        return f"{path}: {value!r} is not one of {schema['enum']}"
    if isinstance(value, list) and "items" in schema:
        for i, v in enumerate(value):
            err = validate(v, schema["items"], f"{path}[{i}]")
            if err:
                return err
    if isinstance(value, dict) and "properties" in schema:
        props = schema["properties"]
        for k in schema.get("required", ()):
            if k not in value:
                return f"{path}: missing required argument '{k}'"
        for k, v in value.items():
            sub = props.get(k)
            if sub is None:
                return f"{path}: unknown argument '{k}' (expected one of {sorted(props)})"
            simple = _SIMPLE.get(sub.get("type"))  # fast path for the common flat, scalar arguments
            if simple and type(v) in simple and "enum" not in sub:
                continue
            err = validate(v, sub, f"{path}.{k}")
            if err:
                return err
    return None


_SIMPLE = {"string": (str,), "integer": (int,), "number": (int, float), "boolean": (bool,)}
