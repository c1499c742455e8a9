"""Rewards shared by 05, 06 and 07: the deterministic rubric adapter, sandboxed verifiers, the state diff check and an LLM judge.

score(task, final_text, final_db, initial_db, judge=None, mode="code") -> (reward in [0, 1] or None, parts).
How a reward is made (the same for rubrics and for template verifiers, which embed these helpers):
  answer parts  one per answer_format key, 0/1: numbers within max(ABS_TOL, REL_TOL * |expected|), integers and
                booleans exact, strings equal after normalising case and whitespace, lists equal as multisets;
                a list or dict where a scalar is expected fails, so stuffing seen values into an answer earns nothing
  state parts   one per required change (diff(initial, final) must hold it, volatile columns only non-null),
                plus "unchanged": no other row of any table changed
  reward        gate * mean(answer parts), gate = 1 iff every state part passes (a task that writes scores 0
                without its change); success iff reward >= SUCCESS, i.e. iff every part passes.
Episodes must be seeded with task["seed"] (env.episode(seed=task["seed"])), as the reference was, so ids and clock
agree; columns filled from db.now()/db.new_id() are still compared as "volatile" (present, any value), because an
agent that makes more calls than the reference sees a later clock.
"""
import hashlib
import inspect
import json
import math
import unicodedata

from lib import state as statelib
from lib.chat import extract_json

SUCCESS = 0.999
ABS_TOL, REL_TOL = 5e-3, 1e-4  # half a cent, or 0.01 % of the expected value, whichever is larger
VOLATILE = "<volatile>"         # a column value set by db.now()/db.new_id(): must exist, any value


# ---------------------------------------------------------------------------- pure checks (also embedded in verifiers)

def norm_text(s):
    """Case-, width- and whitespace-insensitive form of a string."""
    return " ".join(unicodedata.normalize("NFKC", str(s)).casefold().split())


def as_number(x):
    """A finite float from a number or numeric string; None for anything else (bools, lists, dicts)."""
    if isinstance(x, bool) or not isinstance(x, (int, float, str)):
        return None
    try:
        v = float(x)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def value_ok(got, want, kind):
    """One answer value against the expected one, by its answer_format kind."""
    if kind == "list":
        if not isinstance(got, list) or not isinstance(want, list) or len(got) != len(want):
            return False
        pool = list(got)
        for w in want:  # multiset match: each expected element takes one equal answer element
            k = "number" if as_number(w) is not None and not isinstance(w, str) else "string"
            i = next((i for i, g in enumerate(pool) if value_ok(g, w, k)), None)
            if i is None:
                return False
            pool.pop(i)
        return True
    if kind == "boolean":
        return got is want or (isinstance(got, str) and norm_text(got) == str(want).lower())
    if kind in ("number", "integer"):
        g, w = as_number(got), as_number(want)
        if g is None or w is None:
            return False
        return g == w if kind == "integer" else abs(g - w) <= max(ABS_TOL, REL_TOL * abs(w))
    if isinstance(got, (list, dict)) or got is None:
        return False
    return norm_text(got) == norm_text(want)


def answer_parts(answer, expected, answer_format):
    """{"answer:<key>": 0/1} for every answer_format key; all 0 when the answer is not a JSON object."""
    ok = isinstance(answer, dict) and isinstance(expected, dict)
    return {f"answer:{k}": float(ok and k in answer and value_ok(answer[k], expected.get(k), kind))
            for k, kind in sorted((answer_format or {}).items())}


def row_ok(got, want):
    """A diff row against an expected one: same columns, equal values, volatile ones merely non-null."""
    if set(got) != set(want):
        return False
    for c, w in want.items():
        g = got[c]
        if w == VOLATILE:
            if g is None:
                return False
        elif isinstance(w, float) or isinstance(g, float):  # REAL columns: equal up to float noise
            gn, wn = as_number(g), as_number(w)
            if isinstance(g, str) or isinstance(w, str) or gn is None or wn is None \
                    or not math.isclose(gn, wn, rel_tol=1e-9, abs_tol=1e-9):
                return False
        elif g != w:
            return False
    return True


def match_changes(diff, items):
    """(pass per expected change item, number of other changed rows) for a diff from lib.state.diff.

    An item is {"table", "change": "added"|"removed"|"changed", "row": {...}, "key": [...] (changed only)}."""
    pools = {t: {"added": list(d["added"]), "removed": list(d["removed"]),
                 "changed": {json.dumps(c["key"]): c["after"] for c in d["changed"]}} for t, d in diff.items()}
    oks = []
    for it in items:
        pool = pools.get(it["table"], {"added": [], "removed": [], "changed": {}})
        if it["change"] == "changed":
            got = pool["changed"].pop(json.dumps(it["key"]), None)
            oks.append(got is not None and row_ok(got, it["row"]))
        else:
            i = next((i for i, g in enumerate(pool[it["change"]]) if row_ok(g, it["row"])), None)
            oks.append(i is not None)
            if i is not None:
                pool[it["change"]].pop(i)
    other = sum(len(p["added"]) + len(p["removed"]) + len(p["changed"]) for p in pools.values())
    return oks, other


def combine(parts):
    """The reward from named parts: gate (all state:* and unchanged parts pass) times the mean of the other parts."""
    gate = all(v >= 1.0 for k, v in parts.items() if k.startswith("state:") or k == "unchanged")
    rest = [v for k, v in parts.items() if k.startswith(("answer:", "judge:"))]
    return float(gate) * (sum(rest) / len(rest) if rest else 1.0)


def state_parts(diff, items):
    """{"state:<i>": 0/1 per required change, "unchanged": 0/1}."""
    oks, other = match_changes(diff, items)
    parts = {f"state:{i}": float(ok) for i, ok in enumerate(oks)}
    parts["unchanged"] = float(other == 0)
    return parts


def verifier_prelude():
    """Source of lib.state (stdlib only) and the helpers above, for verifiers that run alone in the sandbox."""
    fns = [norm_text, as_number, value_ok, answer_parts, row_ok, match_changes, combine, state_parts]
    head = f"import math\nimport unicodedata\n\nABS_TOL, REL_TOL = {ABS_TOL!r}, {REL_TOL!r}\nVOLATILE = {VOLATILE!r}\n"
    return inspect.getsource(statelib) + "\n\n" + head + "".join("\n\n" + inspect.getsource(f) for f in fns)


def template_verifier(expected_answer, answer_format, changes):
    """A self-contained verify(answer, final_db, initial_db) checking a baked answer and the required changes."""
    return verifier_prelude() + f"""

EXPECTED_ANSWER = json.loads({json.dumps(expected_answer, sort_keys=True)!r})
ANSWER_FORMAT = json.loads({json.dumps(answer_format, sort_keys=True)!r})
CHANGES = json.loads({json.dumps(changes, sort_keys=True)!r})


def verify(answer, final_db, initial_db):
    parts = answer_parts(answer, EXPECTED_ANSWER, ANSWER_FORMAT)
    parts.update(state_parts(diff(initial_db, final_db), CHANGES))
    return combine(parts), parts
"""


def changes_from_diff(diff, volatile=None):
    """Change items (see match_changes) from a reference diff, volatile {table: [columns]} masked."""
    items = []
    for t, d in sorted(diff.items()):
        vol = set((volatile or {}).get(t, ()))
        mask = lambda r: {c: (VOLATILE if c in vol else v) for c, v in r.items()}
        items += [{"table": t, "change": "changed", "key": c["key"], "row": mask(c["after"])} for c in d["changed"]]
        items += [{"table": t, "change": k, "row": mask(r)} for k in ("added", "removed") for r in d[k]]
    return items


# ---------------------------------------------------------------------------- sandboxed verifiers

RUNNER = '''

def _run_verify(final_db, answer, initial_hex):
    import sqlite3
    initial_db = sqlite3.connect(":memory:")
    initial_db.deserialize(bytes.fromhex(initial_hex))
    initial_db.row_factory = lambda cur, row: {d[0]: v for d, v in zip(cur.description, row)}
    score, parts = verify(answer, final_db, initial_db)
    return [float(score), {str(k): float(v) for k, v in parts.items()}]
'''


def run_verifier(source, answer, final_db, initial_db, trusted=False):
    """Run verify(answer, final_db, initial_db) -> (score, parts) or (None, {"error": message}).

    In the sandbox, unless trusted (a verifier 05 built from its own template: see code_origin)."""
    from lib import sandbox
    r = sandbox.run_program(source + RUNNER, "_run_verify", {"answer": answer, "initial_hex": initial_db.serialize().hex()},
                            db_bytes=final_db.serialize(), trusted=trusted)
    if "error" in r:
        return None, {"error": f"{r['error']}: {r['message']}"[:500]}
    score, parts = r["result"]
    return min(1.0, max(0.0, score)), parts


# ---------------------------------------------------------------------------- the LLM judge

JUDGE_PROMPT = """You grade an AI agent's work on a user's request in a database-backed environment.
You get the request, the agent's final answer, the database changes the agent made, the changes and answer of a
reference solution, and numbered rubric items. Judge each item strictly from this evidence; an answer that lists
many candidate values where one is asked for fails. Reply with JSON only:
{"items": [{"id": <item number>, "pass": true|false}], "reason": "<one sentence>"}"""


class Judge:
    """An LLM grader with a fixed prompt at temperature 0, cached by (task, final-state hash, answer, items)."""

    def __init__(self, client):
        self.client, self.cache = client, {}

    def grade(self, task, final_text, final_db, evidence, items):
        """[pass per item] or None when the model's reply cannot be used."""
        key = hashlib.sha256(json.dumps([task["id"], statelib.state_hash(final_db), final_text, items],
                                        sort_keys=True).encode()).hexdigest()
        if key in self.cache:
            return self.cache[key]
        user = json.dumps({"request": task["query"], "agent_answer": final_text, **evidence,
                           "rubric": [{"id": i, "text": t} for i, t in enumerate(items)]}, sort_keys=True, default=str)
        from lib.llm import LLMError
        try:
            reply = self.client.chat([{"role": "system", "content": JUDGE_PROMPT}, {"role": "user", "content": user[:24000]}],
                                     temperature=0.0)
        except LLMError:
            return None
        got = extract_json(reply["content"])
        verdicts = {v.get("id"): v.get("pass") for v in (got or {}).get("items", []) if isinstance(v, dict)} \
            if isinstance(got, dict) and isinstance(got.get("items"), list) else {}
        out = [verdicts.get(i) is True for i in range(len(items))] if len(verdicts) == len(items) else None
        self.cache[key] = out
        return out


# ---------------------------------------------------------------------------- score

def parse_answer(task, final_text):
    """(answer object or None, format part or None when the task asks for no answer)."""
    if not task.get("answer_format"):
        return None, None
    answer = extract_json(final_text)
    return (answer, 1.0) if isinstance(answer, dict) else (None, 0.0)


def score(task, final_text, final_db, initial_db, judge=None, mode="code"):
    """(reward in [0, 1] or None when a judge or verifier could not score, {part: value}) for one finished episode.

    mode "code": rubric items (graph tasks) or the sandboxed verifier (program tasks); llm rubric items are
    graded only when a judge is given. mode "sql" (AWM): code collects the evidence (answer, state diff against
    the reference's), the judge decides; it needs a judge."""
    if final_db.in_transaction:  # serialize() (verifiers) omits uncommitted changes; every path must see one state
        final_db.commit()
    answer, fmt = parse_answer(task, final_text)
    if mode == "sql":
        if judge is None:
            raise ValueError("mode 'sql' needs a judge")
        d = statelib.diff(initial_db, final_db)
        ev = {"agent_changes": d, "reference_answer": task.get("expected_answer"),
              "reference_changes": [it for it in task.get("rubric") or [] if it["type"] == "state"]}
        verdict = judge.grade(task, final_text, final_db, ev, ["The agent fulfilled the request: the answer and the "
                                                               "database changes are those a correct solution gives."])
        return (None, {}) if verdict is None else (float(verdict[0]), {"judge:0": float(verdict[0])})
    if task.get("verifier"):
        reward, parts = run_verifier(task["verifier"], answer, final_db, initial_db,
                                     trusted=task.get("code_origin") == "template")
    else:
        rubric = task.get("rubric") or []
        parts = answer_parts(answer, task.get("expected_answer"), task.get("answer_format"))
        parts.update(state_parts(statelib.diff(initial_db, final_db),
                                 [it for it in rubric if it["type"] == "state"]))
        texts = [it["text"] for it in rubric if it["type"] == "llm"]
        if texts and judge is not None:
            verdict = judge.grade(task, final_text, final_db, {"reference_answer": task.get("expected_answer")}, texts)
            if verdict is None:
                return None, parts
            parts.update({f"judge:{i}": float(v) for i, v in enumerate(verdict)})
        reward = combine(parts)
    if fmt is not None:
        parts = {**parts, "format": fmt}
    return reward, parts
