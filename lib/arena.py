"""Evaluation plumbing for 07_diagnose: arena sampling, message- and token-level episodes, the error taxonomy, Wilson intervals, diagnosis."""
import json
import math
import random
import re
from collections import Counter

from lib import rewards, runfolder
from lib import state as statelib
from lib.chat import extract_json, parse_tool_calls, to_openai

# The error taxonomy, in precedence order: a failed rollout's primary error is the first kind that holds.
# Call-level mistakes come first (they are causes), then limits, then outcome-level failures.
ERRORS = ("malformed_call",        # an assistant <tool_call> block that does not parse (observation parse_error)
          "unknown_tool",          # a call naming a tool that is not offered (observation unknown_tool)
          "invalid_arguments",     # arguments rejected by the schema, and no later call of that tool succeeded
          "tool_error_ignored",    # the tool ran and failed (tool_error, constraint_violation, sandbox kinds ...),
                                   #   and no later call of that tool succeeded
          "ran_out_of_turns",      # the episode stopped on a limit (max_turns, length, context, tool_timeout)
          "gave_up",               # a final message without a parseable answer where one is asked, or no
                                   #   successful call at all where the reference makes calls
          "missing_state_change",  # a required change failed (state:<i> = 0) and the final state equals the initial
          "wrong_state_change",    # the final state differs from the initial and a state:<i> or "unchanged" part is 0
          "wrong_answer",          # a parseable answer with a wrong value (answer:<key> = 0)
          "other")                 # failed for a reason none of the above explains (e.g. an LLM-written verifier's parts)
CALL_KINDS = ("parse_error", "unknown_tool", "invalid_arguments")  # every other observation error is an execution error
WRITE_OPS = re.compile(r"^(create|update|delete|add|remove|set|place|cancel|ship|refund|close|open|approve|reject|"
                       r"complete|assign|mark|book|register|enroll|submit|return|transition)_")


# ---------------------------------------------------------------------------- statistics

def wilson(k, n, z=1.96):
    """Wilson score interval (lo, hi) of k successes in n trials; (0, 1) when n = 0."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)


def rate(rows):
    """{"n", "success", "rate", "lo", "hi", "reward"} of eval rows."""
    k, n = sum(r["success"] for r in rows), len(rows)
    lo, hi = wilson(k, n)
    return {"n": n, "success": k, "rate": round(k / n, 4) if n else 0.0, "lo": round(lo, 4), "hi": round(hi, 4),
            "reward": round(sum(r["reward"] or 0.0 for r in rows) / n, 4) if n else 0.0}


def scores(rows):
    """Success with Wilson intervals per task, environment and category."""
    out = {}
    for level, key in (("task", "task_id"), ("env", "env_id"), ("category", "category")):
        groups = {}
        for r in rows:
            groups.setdefault(r[key], []).append(r)
        out[level] = {g: rate(rs) for g, rs in sorted(groups.items())}
    out["overall"] = rate(rows)
    return out


# ---------------------------------------------------------------------------- arena sampling

def stratified(categories, per_category, seed, round_, always=()):
    """{category: sorted env ids}: per_category envs drawn per category with a seeded RNG, plus `always` envs."""
    by_cat = {}
    for env_id, cat in sorted(categories.items()):
        by_cat.setdefault(cat, []).append(env_id)
    out = {}
    for cat, ids in sorted(by_cat.items()):
        rng = random.Random(runfolder.item_seed(seed, "07_arena", round_, cat))
        pick = set(rng.sample(ids, min(per_category, len(ids)))) | {e for e in always if e in ids}
        out[cat] = sorted(pick)
    return out


def task_key(task):
    """What makes two tasks the same: the query and the reference."""
    return task["query"], json.dumps(task["reference"], sort_keys=True)


# ---------------------------------------------------------------------------- episodes

def play(policy, env, task, tools, system, max_turns=8, max_tool_chars=2000):
    """One message-level episode of policy(messages, tools) -> assistant text: (trajectory dict, episode)."""
    from lib.rollout import run_calls  # the same observation format (parse errors first, then calls) as 06's rollouts
    ep = env.episode(seed=task["seed"])  # lib.rewards: seed as the reference was
    offered = {s["function"]["name"] for s in tools}
    msgs = [{"role": "system", "content": system}, {"role": "user", "content": task["query"]}]
    traj = {"stop": "max_turns", "final_text": "", "turns": 0, "calls": 0, "invalid": 0}
    for _ in range(max_turns):
        text = policy(msgs, tools)
        msgs.append({"role": "assistant", "content": text})
        traj["turns"] += 1
        calls, errors = parse_tool_calls(text)
        if not calls and not errors:
            traj.update(stop="answer", final_text=text)
            break
        results, invalid = run_calls(ep, calls, errors, offered, max_tool_chars)
        traj["calls"] += len(calls) + len(errors)
        traj["invalid"] += invalid
        msgs += [{"role": "tool", "content": r} for r in results]
    traj["messages"] = msgs[2:]  # assistant and tool turns, as 06 records them
    return traj, ep


def llm_policy(client, sample, **sampling):
    """A policy from an lib.llm client: its native tool calls become <tool_call> blocks in the assistant text."""
    def policy(messages, tools):
        r = client.chat(to_openai(messages), tools=tools, seed=sample, **sampling)
        if "<tool_call>" in r["content"] or not r["tool_calls"]:
            return r["content"]
        return r["content"] + "".join(f"<tool_call>{json.dumps(c)}</tool_call>" for c in r["tool_calls"])
    return policy


def from_rollout(r):
    """A trajectory dict from a lib.rollout Rollout."""
    return {"stop": r.stop, "final_text": r.final_text, "turns": r.turns, "calls": r.calls, "invalid": r.invalid,
            "messages": list(r.messages)}


# ---------------------------------------------------------------------------- the error taxonomy

def _load(text):
    """A tool message's content as JSON (a cut or plain text result stays a string)."""
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return text


def observations(messages):
    """[(tool name or None, result)] for every tool message, paired with its turn's calls (parse errors first)."""
    out, i = [], 0
    while i < len(messages):
        if messages[i]["role"] != "assistant":
            i += 1
            continue
        calls, errors = parse_tool_calls(messages[i]["content"])
        names = [None] * len(errors) + [c["name"] for c in calls]
        i += 1
        k = 0
        while i < len(messages) and messages[i]["role"] == "tool":
            out.append((names[k] if k < len(names) else None, _load(messages[i]["content"])))
            i, k = i + 1, k + 1
    return out


def err_kind(result):
    """The error kind of an observation, or None for a success."""
    return result["error"] if isinstance(result, dict) and isinstance(result.get("error"), str) else None


def reference_tools(task):
    """Tool names of a task's reference solution (graph calls, or tools.<name>( in a program) plus its targets."""
    ref = task.get("reference") or {}
    names = [c["name"] for c in ref.get("calls", [])] + re.findall(r"tools\.(\w+)\(", ref.get("program", ""))
    return list(dict.fromkeys(names + list(task.get("targets") or [])))


def write_tools(kept_row, env):
    """Names of an environment's write tools: kept.jsonl's kinds, else guessed from the names."""
    kinds = {t["name"]: t["kind"] for t in (kept_row or {}).get("tools", [])}
    return {n for n in env.by_name if kinds.get(n) == "write" or (n not in kinds and WRITE_OPS.match(n))}


def classify(task, traj, reward, parts, initial_db, final_db, writes):
    """(primary error or None when it succeeded, {kind: [tool names where it occurred]}) of one rollout."""
    if reward is not None and reward >= rewards.SUCCESS and traj["stop"] == "answer":
        return None, {}
    found = {}
    obs = observations(traj["messages"])
    for i, (name, res) in enumerate(obs):
        kind = err_kind(res)
        if kind is None:
            continue
        later_ok = any(n == name and err_kind(r) is None for n, r in obs[i + 1:])
        tag = {"parse_error": "malformed_call", "unknown_tool": "unknown_tool"}.get(kind)
        if tag is None and not later_ok:  # an argument or execution error the agent recovered from is no failure
            tag = "invalid_arguments" if kind == "invalid_arguments" else "tool_error_ignored"
        if tag:
            found.setdefault(tag, []).append(name or "")
    ref = reference_tools(task)
    ref_writes = [t for t in ref if t in writes] or ref
    if traj["stop"] != "answer":
        found["ran_out_of_turns"] = ref
    elif parts.get("format") == 0.0 or (ref and not any(n and err_kind(r) is None for n, r in obs)):
        found["gave_up"] = ref
    states = [k for k in parts if k.startswith("state:")]
    if any(parts[k] < 1 for k in states) or parts.get("unchanged", 1.0) < 1:
        changed = any(any(d[c] for c in ("added", "removed", "changed")) for d in statelib.diff(initial_db, final_db).values())
        found["wrong_state_change" if changed else "missing_state_change"] = ref_writes
    if parts.get("format", 1.0) == 1.0 and any(parts[k] < 1 for k in parts if k.startswith("answer:")):
        found["wrong_answer"] = [t for t in ref if t not in writes] or ref
    if not found:
        found["other"] = ref
    primary = next(k for k in ERRORS if k in found)
    return primary, {k: sorted(set(v)) for k, v in found.items()}


def thin_evidence(messages, writes):
    """(reads that came back empty or 'not found', read observations) in one trajectory."""
    empty = reads = 0
    for name, res in observations(messages):
        if not name or name in writes:
            continue
        reads += 1
        kind = err_kind(res)
        gone = kind == "tool_error" and re.search(r"not found|no such|no \S+ row with|does not exist", res.get("message", ""), re.I)
        empty += bool(gone or (kind is None and (res == [] or (isinstance(res, dict) and any(
            isinstance(v, list) and not v for v in res.values()) and len(res) <= 3))))
    return empty, reads


# ---------------------------------------------------------------------------- diagnosis

def env_errors(rows):
    """Per environment: primary and all error counts, failing tools (of the primary error / of any) and thin-state evidence."""
    out = {}
    for r in rows:
        e = out.setdefault(r["env_id"], {"primary": Counter(), "all": Counter(), "tools": Counter(), "tools_any": Counter(),
                                         "empty": 0, "reads": 0})
        e["empty"] += r["thin"][0]
        e["reads"] += r["thin"][1]
        if r["success"]:
            continue
        e["primary"][r["primary"]] += 1
        e["tools"].update(t for t in r["errors"][r["primary"]] if t)  # where the primary error occurred
        for kind, tools in r["errors"].items():
            e["all"][kind] += 1
            e["tools_any"].update(t for t in tools if t)
    return out


SKILLS = {"malformed_call": "writing a well-formed <tool_call> JSON block", "unknown_tool": "using only the offered tools",
          "invalid_arguments": "filling the required arguments with the right types and ids",
          "tool_error_ignored": "reading a tool's error and retrying with corrected input",
          "ran_out_of_turns": "finishing within the turn budget (fewer, decisive calls)",
          "gave_up": "persisting until the request is done and answering in the JSON format asked",
          "missing_state_change": "carrying out the requested write instead of only reading",
          "wrong_state_change": "changing exactly the requested rows and fields",
          "wrong_answer": "chaining reads and computing the asked value from their results",
          "other": "completing the whole request"}
CALL_LEVEL = ("malformed_call", "unknown_tool", "invalid_arguments")


def guideline(env_id, stats, errs, tools, thin_ratio, rank, reason="statistical"):
    """One weak environment's task-generation guideline from its dominant errors and failing tools."""
    kinds = [k for k, _ in sorted(errs["primary"].items(), key=lambda kv: (-kv[1], ERRORS.index(kv[0])))]
    ranked = lambda c: [t for t, _ in sorted(c.items(), key=lambda kv: (-kv[1], kv[0])) if t in tools]
    failing = list(dict.fromkeys(ranked(errs["tools"]) + ranked(errs["tools_any"])))[:3]  # primary's tools first
    thin = errs["reads"] > 0 and errs["empty"] / errs["reads"] >= thin_ratio
    return {"env_id": env_id, "rank": rank, "success": stats, "error_kinds": kinds[:3], "failing_tools": failing,
            "skills": [SKILLS[k] for k in kinds[:3]] + [f"using {t}" for t in failing[:2]],
            "complexify": bool(thin), "thin_state": {"empty_reads": errs["empty"], "reads": errs["reads"]},
            # call-level mistakes need more practice on the tools themselves; outcome failures need longer walks
            "min_calls": None if kinds and kinds[0] in CALL_LEVEL else 4, "source": reason}


def statistical(env_scores, errors, tools_of, weak, thin_ratio):
    """Rank environments by Wilson upper bound of success (then mean reward, then id); guidelines for the first `weak` that failed."""
    order = sorted(env_scores, key=lambda e: (env_scores[e]["hi"], env_scores[e]["reward"], e))
    out = []
    for e in order:
        if len(out) == weak:
            break
        if env_scores[e]["success"] < env_scores[e]["n"]:
            out.append(guideline(e, env_scores[e], errors[e], tools_of[e], thin_ratio, len(out) + 1))
    return order, out


DIAGNOSIS_PROMPT = """You diagnose a tool-using agent evaluated in several database-backed environments. You get per
environment its description, tools, success rate with a 95% interval, error counts (kinds: {kinds}) and a few failed
trajectories (truncated). Rank the environments where the agent is weakest (most in need of training) and, for each,
say which tools it fails with, which error kinds, which skills are missing (short phrases) and whether the database
looks too thin for harder tasks (searches return empty, records not found). Reply with JSON only:
{{"ranking": [{{"env_id": "...", "reason": "...", "failing_tools": ["..."], "error_kinds": ["..."],
"skills": ["..."], "complexify": false}}]}}"""


def validate_diagnosis(got, env_ids, tools_of):
    """Problems (a list of strings; empty = valid) of an LLM diagnosis against the schema in DIAGNOSIS_PROMPT."""
    if not isinstance(got, dict) or not isinstance(got.get("ranking"), list) or not got["ranking"]:
        return ["reply is not an object with a non-empty list 'ranking'"]
    problems, seen = [], set()
    for i, it in enumerate(got["ranking"]):
        if not isinstance(it, dict):
            problems.append(f"ranking[{i}] is not an object")
            continue
        e = it.get("env_id")
        if e not in env_ids or e in seen:
            problems.append(f"ranking[{i}].env_id {e!r} is not an evaluated environment (or repeats)")
            continue
        seen.add(e)
        for key in ("failing_tools", "error_kinds", "skills"):
            if not isinstance(it.get(key), list) or not all(isinstance(x, str) for x in it[key]):
                problems.append(f"ranking[{i}].{key} is not a list of strings")
        if not isinstance(it.get("complexify"), bool) or not isinstance(it.get("reason"), str):
            problems.append(f"ranking[{i}]: complexify must be a boolean and reason a string")
        if not problems:
            bad = [t for t in it["failing_tools"] if t not in tools_of[e]] + \
                [k for k in it["error_kinds"] if k not in ERRORS]
            if bad:
                problems.append(f"ranking[{i}] names unknown tools or error kinds {bad[:5]}")
            if not it["skills"]:
                problems.append(f"ranking[{i}].skills is empty")
    return problems


def llm_diagnosis(client, context, env_scores, errors, tools_of, weak, thin_ratio):
    """(guidelines, problems): the LLM's ranking when it validates, else ([], reasons)."""
    from lib.llm import LLMError
    msgs = [{"role": "system", "content": DIAGNOSIS_PROMPT.format(kinds=", ".join(ERRORS))},
            {"role": "user", "content": json.dumps(context, sort_keys=True, default=str)[:60000]}]
    try:
        got = extract_json(client.chat(msgs, temperature=0.0)["content"])
    except LLMError as e:
        return [], [f"llm error: {e}"]
    problems = validate_diagnosis(got, set(env_scores), tools_of)
    if problems:
        return [], problems
    out = []
    for it in got["ranking"][:weak]:
        e = it["env_id"]
        g = guideline(e, env_scores[e], errors[e], tools_of[e], thin_ratio, len(out) + 1, reason="llm")
        g.update(error_kinds=it["error_kinds"] or g["error_kinds"], failing_tools=it["failing_tools"][:3] or g["failing_tools"],
                 skills=it["skills"], complexify=it["complexify"] or g["complexify"], reason=it["reason"],
                 min_calls=None if it["error_kinds"] and it["error_kinds"][0] in CALL_LEVEL else 4)
        out.append(g)
    return out, []
