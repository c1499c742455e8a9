"""07_diagnose: the arena. Evaluate a policy on fresh tasks in a stratified sample of environments, read an error
taxonomy from the trajectories, rank the weak environments, and grow the next round's training set for them.

Reads  <run>/03_filter/{kept.jsonl, envs/<id>/}, <run>/04_taxonomy/labels.jsonl (l1 = the arena's strata),
       <run>/05_tasks/tasks.jsonl (training tasks: arena tasks equal to one are dropped; replay pool; its meta's
       "diagnosis" names the previous round's weak envs, always evaluated), the policy (--model PATH: an HF folder
       rolled out through lib.rollout in 06's prompt format; or --llm openai: a message-level agent).
Writes <run>/07_diagnose/: arena.jsonl (task), eval.jsonl (eval: one row per rollout with reward parts, stop,
       primary error, all errors, messages), scores.json (success + Wilson 95% CI per task/env/category),
       errors.json (lib/arena.ERRORS counts), diagnosis.json (ranked envs, guidelines per weak env), meta.json;
       with --next-run-dir NEXT: NEXT/03_filter (weak + replay envs copied, complexified by 01's operator where the
       failures point to thin state), NEXT/04_taxonomy, NEXT/05_tasks/tasks.jsonl (targeted + replay, finished
       metas) so `06_grpo.py --run-dir NEXT --model <run>/06_grpo/final` trains on it; report.html in the top run.
Departures: the arena is synthesized by 05's generators (no held-out human benchmark); offline diagnosis is a
       Wilson-upper-bound ranking with rule-based guidelines; complexification adds one table per weak env.
  tiny: python 07_diagnose.py --run-dir runs/tiny --model runs/tiny/06_grpo/final --next-run-dir runs/tiny/round2
  full: python 07_diagnose.py --run-dir runs/full --llm openai --per-category 4 --samples 4 --next-run-dir runs/full/round2
  report only: python 07_diagnose.py --report runs/tiny
"""
import argparse
import importlib
import json
import os
import random
import re
import shutil
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import arena, report, rewards, runfolder, taskgen  # noqa: E402
from lib.envs import Env  # noqa: E402
from lib.llm import add_llm_args, llm_from_args  # noqa: E402


# ---------------------------------------------------------------------------- helpers

def load_run(run_dir):
    """(kept rows by id, categories by env id, taxonomy labels by id, training tasks) of a finished run."""
    kept = {r["id"]: r for r in runfolder.read_jsonl(os.path.join(run_dir, "03_filter", "kept.jsonl"), "env_kept")}
    labels = {}
    if os.path.exists(os.path.join(run_dir, "04_taxonomy", "meta.json")):
        labels = {r["id"]: r for r in runfolder.read_jsonl(os.path.join(run_dir, "04_taxonomy", "labels.jsonl"), "label")}
    cats = {e: labels[e]["l1"] if e in labels else "uncategorized" for e in kept}
    tasks = runfolder.read_jsonl(os.path.join(run_dir, "05_tasks", "tasks.jsonl"), "task")
    return kept, cats, labels, tasks


def open_env(run_dir, env_id, kept):
    """An environment of the run; LLM-written tools run sandboxed."""
    return Env(os.path.join(run_dir, "03_filter", "envs", env_id), sandbox=kept[env_id].get("source") != "schema")


def fresh(tasks, seen):
    """Tasks whose query and reference both differ from every task in `seen` (a set of queries and references)."""
    return [t for t in tasks if not {*arena.task_key(t)} & seen]


def arena_tasks(env, round_, args, seen, labels):
    """This round's evaluation tasks for one env, from 05's generators with arena seeds and ids."""
    rng = random.Random(runfolder.item_seed(args.seed, "07_arena", round_, env.id))
    prefix = f"{env.id}/arena-r{round_}"
    tasks = taskgen.graph_tasks(env, args.tasks_per_env, rng, id_prefix=prefix + "/graph", round_=round_)
    tasks += taskgen.program_tasks(env, args.programs_per_env, rng, id_prefix=prefix + "/program", round_=round_)
    lab = labels.get(env.id)
    return [{**t, "taxonomy": {k: lab[k] for k in ("l1", "l2", "l3")} if lab else None} for t in fresh(tasks, seen)]


def make_agent(args, build_dir, texts):
    """run(tasks, env, tools_of) -> [(task, sample, trajectory, episode)]: an HF checkpoint (batched) or an LLM."""
    grpo = importlib.import_module("06_grpo")
    if args.model:
        from lib.policy import load_policy
        from lib.rollout import ChatFormat, HFGenerator, Rollout, Sampling, rollout
        model, tok, _ = load_policy(args.model, build_dir, texts, seed=args.seed)
        fmt = ChatFormat(tok)
        gen = HFGenerator(model, tok, fmt.stop_ids)
        samp = Sampling(args.temperature, 1.0, 0, 1.0, args.max_new_tokens)

        def run(tasks, env, tools_of):
            rolls, eps, offered, owners = [], [], [], []
            for slot, t in enumerate(tasks):  # the prompt 06 trains with
                prompt = fmt.prompt_ids([{"role": "system", "content": grpo.SYSTEM}, {"role": "user", "content": t["query"]}],
                                        tools_of[t["id"]])
                for g in range(args.samples):
                    rolls.append(Rollout(task_id=t["id"], member=g, group=slot, ids=list(prompt), prompt_len=len(prompt)))
                    eps.append(env.episode(seed=t["seed"]))
                    offered.append({s["function"]["name"] for s in tools_of[t["id"]]})
                    owners.append((t, g))
            rollout(gen, fmt, rolls, eps, samp, offered=offered, seed=runfolder.item_seed(args.seed, "07_eval", env.id),
                    max_turns=args.max_turns, max_tokens=args.max_tokens, max_context=args.max_context,
                    max_tool_chars=args.max_tool_chars, workers=args.workers)
            return [(t, g, arena.from_rollout(r), ep) for (t, g), r, ep in zip(owners, rolls, eps)]
        return run, grpo
    client = llm_from_args(args, os.path.join(build_dir, "llm_cache"))

    def run(tasks, env, tools_of):
        out = []
        for t in tasks:
            for g in range(args.samples):
                policy = arena.llm_policy(client, g, temperature=args.temperature)
                traj, ep = arena.play(policy, env, t, tools_of[t["id"]], grpo.SYSTEM, args.max_turns, args.max_tool_chars)
                out.append((t, g, traj, ep))
        return out
    return run, grpo


def eval_row(task, sample, traj, ep, env, category, writes, truncation):
    """Score one rollout like 06 does and classify its failure: the eval.jsonl row."""
    final_db = ep.final_db()
    reward, parts = rewards.score(task, traj["final_text"], final_db, env.initial_db())
    policy = truncation.get(traj["stop"], "zero")  # 06's rule: a truncated episode earns nothing
    reward = None if reward is None or policy == "drop" else 0.0 if policy == "zero" else reward
    primary, errors = arena.classify(task, traj, reward, parts, env.initial_db(), final_db, writes)
    ep.close()
    cut = [{**m, "content": m["content"][:600]} for m in traj["messages"]]
    return {"id": f"{task['id']}#{sample}", "task_id": task["id"], "env_id": env.id, "category": category,
            "sample": sample, "reward": reward, "success": primary is None, "parts": parts, "stop": traj["stop"],
            "turns": traj["turns"], "calls": traj["calls"], "invalid": traj["invalid"], "primary": primary,
            "errors": errors, "thin": list(arena.thin_evidence(traj["messages"], writes)),
            "final_text": traj["final_text"][:600], "messages": cut}


def diagnosis_context(env_scores, errs, rows, envs):
    """What the diagnosis LLM reads: per env its description, tools, success, errors and two failed trajectories."""
    ctx = {}
    for e, s in env_scores.items():
        fails = [r for r in rows if r["env_id"] == e and not r["success"]][:2]
        ctx[e] = {"description": envs[e].meta.get("description", "")[:400], "tools": sorted(envs[e].by_name),
                  "success": s, "primary_errors": dict(errs[e]["primary"]), "all_errors": dict(errs[e]["all"]),
                  "failing_tools": dict((errs[e]["tools"] + errs[e]["tools_any"]).most_common(6)),
                  "failed_trajectories": [json.dumps(r["messages"])[:1500] for r in fails]}
    return {"environments": ctx}


def copy_env(run_dir, next_dir, env_id, kept_row, guide, round_, seed):
    """Copy an env folder into NEXT; complexify a copy when its guideline says so (schema tools are rebuilt)."""
    src = os.path.join(run_dir, "03_filter", "envs", env_id)
    dst = os.path.join(next_dir, "03_filter", "envs", env_id)
    shutil.rmtree(dst, ignore_errors=True)
    if not (guide and guide["complexify"]):
        shutil.copytree(src, dst)
        return dict(kept_row), None
    if kept_row.get("source") != "schema":
        shutil.copytree(src, dst)
        return {**kept_row, "complexify_skipped": "LLM-written tools would not reach a new table (rerun 02)"}, None
    import numpy as np
    mine, build = importlib.import_module("01_mine"), importlib.import_module("02_build_tools")
    work = dst + ".work"
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(src, work)
    con = sqlite3.connect(os.path.join(work, "db.sqlite"))
    info = mine.complexify(con, np.random.default_rng(runfolder.item_seed(seed, "07_complexify", round_, env_id)), round_)
    with open(os.path.join(work, "env.json")) as f:
        meta = json.load(f)
    meta["provenance"] = {**meta.get("provenance", {}), f"complexified_round_{round_}": info}
    con.commit()
    built = build.from_schema(con, meta, con.serialize())
    con.close()
    build.write_env(work, dst, meta, built, True)
    shutil.rmtree(work)
    return {**kept_row, "tools": [{"name": t["name"], "kind": t["kind"]} for t in built["tools"]], "complexified": info}, info


def still_solved(env, task):
    """Does a task's reference still score 1 on this (possibly complexified) env copy?"""
    if task["kind"] == "graph":
        _, db = taskgen.replay(env, task["reference"]["calls"], task["seed"])
    else:
        _, db = taskgen.run_solution(env, task["reference"]["program"], task["seed"])
    answer = json.dumps(task["expected_answer"]) if task["answer_format"] else "done"
    return db is not None and (rewards.score(task, answer, db, env.initial_db())[0] or 0) >= rewards.SUCCESS


def targeted(env, guide, round_, args, seen, label):
    """The next round's tasks for one weak env: walks through its failing tools (longer for outcome failures)."""
    rng = random.Random(runfolder.item_seed(args.seed, "07_targeted", round_, env.id))
    targets = [t for t in guide["failing_tools"] if t in env.by_name]
    prefix, tries, tasks = f"{env.id}/r{round_}", [], []
    for tg, mc in ((targets, guide["min_calls"]), (targets, None), ([], guide["min_calls"])):  # relax until enough
        if len(tasks) >= args.targeted // 2 or (tg, mc) in tries:
            continue
        tries.append((tg, mc))
        got = taskgen.graph_tasks(env, args.targeted, rng, targets=tg or None, min_calls=mc, round_=round_,
                                  id_prefix=f"{prefix}/graph" + (f"-{len(tries)}" if len(tries) > 1 else ""))
        tasks += fresh(got, seen)
    tasks += fresh(taskgen.program_tasks(env, args.targeted_programs, rng, targets=targets or None,
                                         id_prefix=f"{prefix}/program", round_=round_), seen)
    tax = {k: label[k] for k in ("l1", "l2", "l3")} if label else None
    return [{**t, "taxonomy": tax} for t in tasks[: args.targeted + args.targeted_programs]], tries


def finished_copy(next_dir, name, rows, kind, jsonl, counts, extra_files=(), **extra):
    """Write a stage folder of NEXT (one JSONL + meta.json) so that its readers work unchanged."""
    stage = runfolder.Stage(next_dir, name, argparse.Namespace(producer="07_diagnose"))
    os.makedirs(stage.dir, exist_ok=True)
    stage.write_jsonl(jsonl, rows, kind)
    for src in extra_files:
        shutil.copy(src, stage.path(os.path.basename(src)))
    return stage.finish(counts, **extra)


def top_run(run_dir):
    """The top run folder: round folders (<top>/roundN) sit inside it."""
    run_dir = os.path.normpath(run_dir)
    while re.fullmatch(r"round\d+", os.path.basename(run_dir)):
        run_dir = os.path.dirname(run_dir)
    return run_dir


# ---------------------------------------------------------------------------- main

if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    # I/O
    ap.add_argument("--run-dir", help="run folder with 03_filter, 04_taxonomy, 05_tasks (and 06_grpo)")
    ap.add_argument("--next-run-dir", default="", help="write the next round's run folder here ('' = diagnose only)")
    ap.add_argument("--round", type=int, default=0, help="this round's number (0 = 1 + the highest task round seen, min 1)")
    ap.add_argument("--report", default="", help="only (re)write RUN/report.html for the run folder RUN and exit")
    ap.add_argument("--limit", type=int, default=0, help="evaluate at most this many arena environments (0 = all)")
    ap.add_argument("--force", action="store_true", help="redo a finished stage")
    # Arena
    ap.add_argument("--per-category", type=int, default=2, help="environments sampled per top-level category (K)")
    ap.add_argument("--tasks-per-env", type=int, default=4, help="arena graph tasks per environment")
    ap.add_argument("--programs-per-env", type=int, default=1, help="arena program tasks per environment")
    ap.add_argument("--samples", type=int, default=2, help="rollouts per arena task (n)")
    # Model (the policy evaluated)
    ap.add_argument("--model", default="", help="HF folder (e.g. <run>/06_grpo/final) | tiny; '' = the --llm agent")
    ap.add_argument("--temperature", type=float, default=1.0, help="sampling temperature of the policy (0 = greedy)")
    ap.add_argument("--max-new-tokens", type=int, default=48, help="sampled tokens per turn (as 06)")
    ap.add_argument("--max-tokens", type=int, default=160, help="sampled tokens per episode (as 06)")
    ap.add_argument("--max-turns", type=int, default=4, help="assistant turns per episode (as 06)")
    ap.add_argument("--max-context", type=int, default=4096, help="prompt + episode tokens (as 06)")
    ap.add_argument("--max-tool-chars", type=int, default=600, help="tool results are cut to this many characters")
    ap.add_argument("--distractors", type=int, default=3, help="tools offered beyond the reference's (as 06; -1 = all tools)")
    # Diagnosis and co-evolution
    ap.add_argument("--weak", type=int, default=2, help="weak environments to target (K)")
    ap.add_argument("--thin", type=float, default=0.25, help="share of empty/not-found reads that calls for complexification")
    ap.add_argument("--targeted", type=int, default=6, help="targeted graph tasks per weak environment")
    ap.add_argument("--targeted-programs", type=int, default=1, help="targeted program tasks per weak environment")
    ap.add_argument("--replay", type=float, default=0.5, help="share of the next training set replayed from this round")
    add_llm_args(ap)
    # Runtime
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2, help="threads running tool calls")
    args = ap.parse_args()
    if args.report:
        print(f"07_diagnose: report written to {report.write(top_run(args.report))}")
        sys.exit(0)
    if not args.run_dir or not (args.model or args.llm != "none"):
        ap.error("--run-dir and a policy (--model PATH or --llm openai) are required")
    stage = runfolder.begin(args, "07_diagnose")
    if args.model == "tiny":  # a random tiny model gains nothing from threads on shared cores
        import torch
        torch.set_num_threads(1)

    # ---- load the run, sample the arena
    kept, cats, labels, train = load_run(args.run_dir)
    for name in ("03_filter/kept.jsonl", "05_tasks/tasks.jsonl"):
        stage.input(os.path.join(args.run_dir, name))
    with open(os.path.join(args.run_dir, "05_tasks", "meta.json")) as f:
        previous = json.load(f).get("diagnosis") or {}  # written by the previous round's 07
    R = args.round or max(1, max((t.get("round", 0) for t in train), default=0))
    strata = arena.stratified(cats, args.per_category, args.seed, R, always=previous.get("weak", []))
    arena_envs = [e for c in strata.values() for e in c][: args.limit or None]
    seen = {x for t in train for x in arena.task_key(t)}
    print(f"07_diagnose: round {R} | arena {len(arena_envs)} envs over {len(strata)} categories "
          f"({args.per_category} per category) | {args.tasks_per_env}+{args.programs_per_env} tasks x {args.samples} samples"
          f" | policy {args.model or 'llm:' + args.llm_model} | weak {args.weak} | next {args.next_run_dir or '-'}")

    # ---- evaluate, one environment at a time (a finished one is a part on disk)
    envs = {e: open_env(args.run_dir, e, kept) for e in arena_envs}
    texts = [t["query"] for t in train]
    run, grpo = make_agent(args, stage.dir, texts)
    all_tasks, rows = [], []
    for e in arena_envs:
        if not stage.has_part(e):
            tasks = arena_tasks(envs[e], R, args, seen, labels)
            k = len(envs[e].by_name) if args.distractors < 0 else args.distractors
            tools_of = {t["id"]: grpo.offered_tools(t, envs[e], k, args.seed) for t in tasks}
            writes = arena.write_tools(kept[e], envs[e])
            got = [eval_row(t, g, traj, ep, envs[e], cats[e], writes, grpo.TRUNCATION) for t, g, traj, ep in run(tasks, envs[e], tools_of)]
            stage.save_part(e, {"tasks": tasks, "rows": got})
            print(f"  {e}: {len(tasks)} tasks, success {sum(r['success'] for r in got)}/{len(got)}")
        part = stage.load_part(e)
        all_tasks += part["tasks"]
        rows += part["rows"]

    # ---- scores, errors, diagnosis
    sc = arena.scores(rows)
    errs = arena.env_errors(rows)
    tools_of_env = {e: set(envs[e].by_name) for e in arena_envs}
    order, weak = arena.statistical(sc["env"], errs, tools_of_env, args.weak, args.thin)
    method, fallback = "statistical", None
    if args.llm != "none":  # the LLM diagnoses; an unusable reply falls back to the statistical ranking
        client = llm_from_args(args, stage.path("llm_cache"))
        got, problems = arena.llm_diagnosis(client, diagnosis_context(sc["env"], errs, rows, envs), sc["env"], errs,
                                            tools_of_env, args.weak, args.thin)
        method, fallback = ("llm", None) if got else ("statistical", "; ".join(problems)[:1000])
        weak = got or weak
    count = lambda key: {k: sum(r[key] == k for r in rows) for k in arena.ERRORS}
    errors = {"precedence": list(arena.ERRORS), "primary": count("primary"),
              "all": {k: sum(k in r["errors"] for r in rows) for k in arena.ERRORS},
              "env": {e: {"primary": dict(v["primary"]), "all": dict(v["all"]), "tools": dict(v["tools"]),
                          "tools_any": dict(v["tools_any"]),
                          "thin": [v["empty"], v["reads"]]} for e, v in sorted(errs.items())},
              "category": {c: {k: sum(r["primary"] == k for r in rows if r["category"] == c) for k in arena.ERRORS}
                           for c in sorted(strata)}}
    if previous.get("from"):  # how the previous round's diagnosed envs do now
        prev_scores = os.path.join(args.run_dir, previous["from"], "07_diagnose", "scores.json")
        before = json.load(open(prev_scores))["env"] if os.path.exists(prev_scores) else {}
        previous["compare"] = {e: {"before": before.get(e), "after": sc["env"].get(e)} for e in previous.get("weak", [])}
    diag = {"round": R, "method": method, "fallback_reason": fallback, "ranking": [{"env_id": e, **sc["env"][e]} for e in order],
            "weak": weak, "previous": previous}

    # ---- co-evolution: the next round's run folder
    counts = {"round": R, "arena_envs": len(arena_envs), "arena_tasks": len(all_tasks), "rollouts": len(rows),
              "success": sc["overall"], "diagnosis": method, "weak": [g["env_id"] for g in weak]}
    if args.next_run_dir:
        nxt, R1 = args.next_run_dir, R + 1
        rng = random.Random(runfolder.item_seed(args.seed, "07_replay", R))
        guides = {g["env_id"]: g for g in weak}
        n_target = len(weak) * (args.targeted + args.targeted_programs)
        replay_n = round(n_target * args.replay / max(1e-9, 1 - args.replay)) if weak else len(train)
        replay = rng.sample(train, min(replay_n, len(train)))
        copy_ids = sorted(set(guides) | {t["env_id"] for t in replay})
        new_kept, complexified, new_tasks, plans = [], {}, [], {}
        seen_next = seen | {x for t in all_tasks for x in arena.task_key(t)}  # never train on the arena
        for e in copy_ids:
            row, info = copy_env(args.run_dir, nxt, e, kept[e], guides.get(e), R1, args.seed)
            new_kept.append(row)
            if info is not None:
                complexified[e] = info
            if e in guides:
                env = open_env(nxt, e, {e: row})
                got, tries = targeted(env, guides[e], R1, args, seen_next, labels.get(e))
                if len(got) < args.targeted // 2 and info is None:  # too few rows for the walks: grow the database
                    row, info = copy_env(args.run_dir, nxt, e, kept[e], {**guides[e], "complexify": True}, R1, args.seed)
                    new_kept[-1] = row
                    if info is not None:
                        complexified[e] = info
                    got, tries = targeted(open_env(nxt, e, {e: row}), guides[e], R1, args, seen_next, labels.get(e))
                new_tasks += got
                plans[e] = {"tasks": len(got), "tries": tries, "targets": guides[e]["failing_tools"]}
        nenvs = {r["id"]: open_env(nxt, r["id"], {r["id"]: r}) for r in new_kept}
        kept_replay = [t for t in replay if t["env_id"] not in complexified or still_solved(nenvs[t["env_id"]], t)]
        new_tasks += kept_replay
        finished_copy(nxt, "03_filter", new_kept, "env_kept", "kept.jsonl", {"kept": len(new_kept)})
        tax = [os.path.join(args.run_dir, "04_taxonomy", "taxonomy.json")]
        finished_copy(nxt, "04_taxonomy", [labels[e] for e in copy_ids if e in labels], "label", "labels.jsonl",
                      {"labels": len(copy_ids)}, extra_files=[p for p in tax if os.path.exists(p)])
        finished_copy(nxt, "05_tasks", new_tasks, "task", "tasks.jsonl",
                      {"tasks": len(new_tasks), "targeted": len(new_tasks) - len(kept_replay), "replay": len(kept_replay),
                       "replay_dropped": len(replay) - len(kept_replay)},
                      diagnosis={"from": os.path.relpath(args.run_dir, nxt), "round": R,
                                 "weak": [g["env_id"] for g in weak], "plans": plans, "complexified": complexified})
        counts["next"] = {"dir": nxt, "envs": len(copy_ids), "tasks": len(new_tasks), "replay": len(kept_replay),
                          "complexified": sorted(complexified)}

    # ---- write outputs, report, summary
    stage.write_jsonl("arena.jsonl", all_tasks, "task")
    stage.write_jsonl("eval.jsonl", rows, "eval")
    for name, obj in (("scores.json", sc), ("errors.json", errors), ("diagnosis.json", diag)):
        runfolder.atomic_write(stage.path(name), json.dumps(obj, indent=1, sort_keys=True, default=str))
        stage.record_output(name, name.split(".")[0])
    stage.finish(counts, strata=strata)
    path = report.write(top_run(args.run_dir))
    o = sc["overall"]
    print(f"07_diagnose: {o['success']}/{o['n']} rollouts succeeded ({o['rate']:.1%}, 95% CI {o['lo']:.1%}-{o['hi']:.1%}); "
          f"primary errors {{{', '.join(f'{k}: {v}' for k, v in errors['primary'].items() if v)}}}")
    for g in weak:
        s = g["success"]
        print(f"  weak #{g['rank']} {g['env_id']}: {s['success']}/{s['n']} (CI {s['lo']:.2f}-{s['hi']:.2f}) | errors "
              f"{g['error_kinds']} | tools {g['failing_tools']} | complexify {g['complexify']} | {g['source']}")
    if fallback:
        print(f"  LLM diagnosis rejected, statistical ranking used: {fallback[:200]}")
    if "next" in counts:
        print(f"  next round: {json.dumps(counts['next'])}")
    for e, c in (previous.get("compare") or {}).items():
        b, a = c["before"] or {}, c["after"] or {}
        print(f"  diagnosed last round: {e}: success {b.get('rate')} -> {a.get('rate')}")
    print(f"  report: {path}")
    print(json.dumps({k: v for k, v in rows[0].items() if k != "messages"}, sort_keys=True)[:600] if rows else "no rollouts")
