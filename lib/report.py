"""report.html for a run and its rounds: self-contained HTML with inline SVG figures (no scripts, no network)."""
import glob
import html
import json
import os
import re

COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
ERROR_COLORS = {"malformed_call": "#8c564b", "unknown_tool": "#e377c2", "invalid_arguments": "#d62728",
                "tool_error_ignored": "#ff7f0e", "ran_out_of_turns": "#7f7f7f", "gave_up": "#bcbd22",
                "missing_state_change": "#17becf", "wrong_state_change": "#1f77b4", "wrong_answer": "#9467bd",
                "other": "#c7c7c7"}
CSS = """body{font-family:system-ui,sans-serif;margin:24px auto;max-width:1100px;color:#222}h1{font-size:22px}
h2{font-size:18px;border-bottom:1px solid #ddd;padding-bottom:4px;margin-top:32px}h3{font-size:15px}
table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ddd;padding:3px 8px;text-align:left}
th{background:#f4f4f4}.row{display:flex;flex-wrap:wrap;gap:18px}svg{background:#fff;border:1px solid #eee}
pre{white-space:pre-wrap;font-size:12px;background:#f8f8f8;padding:8px;max-height:420px;overflow:auto}
.muted{color:#777;font-size:13px}"""
esc = html.escape


def _read_jsonl(path):
    """Rows of a JSONL file, [] when it is absent."""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def _read_json(path):
    """A JSON file, or None when it is absent."""
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def rounds(top):
    """[(round number, folder)]: the top run folder is round 1, <top>/roundN round N."""
    out = [(1, top)]
    for d in glob.glob(os.path.join(top, "round*")):
        m = re.fullmatch(r"round(\d+)", os.path.basename(d))
        if m and os.path.isdir(d):
            out.append((int(m.group(1)), d))
    return sorted(out)


# ---------------------------------------------------------------------------- figures

def line_chart(title, series, ylabel, w=520, h=260):
    """Lines of (x, y) points per named series, y in [0, 1]."""
    pad, right, top, bottom = 44, 110, 44, 30
    xs = [x for pts in series.values() for x, _ in pts] or [0, 1]
    x0, x1 = min(xs), max(max(xs), min(xs) + 1)
    X = lambda x: pad + (x - x0) / (x1 - x0) * (w - pad - right)
    Y = lambda y: top + (1 - y) * (h - top - bottom)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" role="img"><title>{esc(title)}</title>',
           f'<text x="{pad}" y="16" font-size="13" font-weight="bold">{esc(title)}</text>']
    for v in (0, 0.25, 0.5, 0.75, 1):
        out.append(f'<line x1="{pad}" x2="{w - right}" y1="{Y(v):.1f}" y2="{Y(v):.1f}" stroke="#eee"/>'
                   f'<text x="{pad - 6}" y="{Y(v) + 4:.1f}" font-size="10" text-anchor="end">{v:g}</text>')
    for v in sorted({x0, x1, round((x0 + x1) / 2)}):
        out.append(f'<text x="{X(v):.1f}" y="{h - bottom + 12}" font-size="10" text-anchor="middle">{v:g}</text>')
    out.append(f'<text x="{(pad + w - right) / 2}" y="{h - 4}" font-size="10" text-anchor="middle">step</text>'
               f'<text x="10" y="{top - 8}" font-size="10">{esc(ylabel)}</text>')
    for i, (name, pts) in enumerate(series.items()):
        c = COLORS[i % len(COLORS)]
        if pts:
            path = " ".join(f"{X(x):.1f},{Y(min(1, max(0, y))):.1f}" for x, y in pts)
            out.append(f'<polyline fill="none" stroke="{c}" stroke-width="2" points="{path}"><title>{esc(name)}</title></polyline>')
        out.append(f'<rect x="{w - right + 10}" y="{top + 16 * i}" width="10" height="10" fill="{c}"/>'
                   f'<text x="{w - right + 24}" y="{top + 9 + 16 * i}" font-size="11">{esc(name)}</text>')
    return "\n".join(out + ["</svg>"])


def ci_bars(title, items, w=520):
    """Horizontal bars of success rate with Wilson CI whiskers; items: [(label, rate, lo, hi, n, color)]."""
    label_w, bar_h, top = (230 if w < 700 else 330), 18, 28
    h = top + bar_h * len(items) + 26
    X = lambda v: label_w + v * (w - label_w - 20)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" role="img"><title>{esc(title)}</title>',
           f'<text x="8" y="16" font-size="13" font-weight="bold">{esc(title)}</text>']
    for v in (0, 0.5, 1):
        out.append(f'<line x1="{X(v):.1f}" x2="{X(v):.1f}" y1="{top}" y2="{h - 20}" stroke="#eee"/>'
                   f'<text x="{X(v):.1f}" y="{h - 6}" font-size="10" text-anchor="middle">{v:g}</text>')
    for i, (label, rate, lo, hi, n, color) in enumerate(items):
        y = top + i * bar_h
        out.append(f'<text x="{label_w - 6}" y="{y + 13}" font-size="11" text-anchor="end">{esc(label[:label_w // 6])}</text>'
                   f'<rect x="{X(0)}" y="{y + 3}" width="{max(X(rate) - X(0), 1):.1f}" height="{bar_h - 6}" fill="{color}">'
                   f'<title>{esc(label)}: {rate:.2f} (95% CI {lo:.2f}-{hi:.2f}, n={n})</title></rect>'
                   f'<line x1="{X(lo):.1f}" x2="{X(hi):.1f}" y1="{y + bar_h / 2:.1f}" y2="{y + bar_h / 2:.1f}" stroke="#000"/>'
                   f'<line x1="{X(lo):.1f}" x2="{X(lo):.1f}" y1="{y + 5}" y2="{y + bar_h - 5}" stroke="#000"/>'
                   f'<line x1="{X(hi):.1f}" x2="{X(hi):.1f}" y1="{y + 5}" y2="{y + bar_h - 5}" stroke="#000"/>')
    return "\n".join(out + ["</svg>"])


def count_bars(title, counts, w=520):
    """Horizontal bars of error counts (primary errors of failed rollouts), in precedence order."""
    items = [(k, v) for k, v in counts.items() if v] or [("no failures", 0)]
    label_w, bar_h, top = 170, 18, 28
    h = top + bar_h * len(items) + 8
    m = max(v for _, v in items) or 1
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" role="img"><title>{esc(title)}</title>',
           f'<text x="8" y="16" font-size="13" font-weight="bold">{esc(title)}</text>']
    for i, (k, v) in enumerate(items):
        y, bw = top + i * bar_h, v / m * (w - label_w - 50)
        out.append(f'<text x="{label_w - 6}" y="{y + 13}" font-size="11" text-anchor="end">{esc(k)}</text>'
                   f'<rect x="{label_w}" y="{y + 3}" width="{max(bw, 1):.1f}" height="{bar_h - 6}" fill="{ERROR_COLORS.get(k, "#999")}">'
                   f'<title>{esc(k)}: {v}</title></rect><text x="{label_w + bw + 4:.1f}" y="{y + 13}" font-size="11">{v}</text>')
    return "\n".join(out + ["</svg>"])


# ---------------------------------------------------------------------------- sections

def table(head, rows):
    """An HTML table from a header and rows of cell texts."""
    return ("<table><tr>" + "".join(f"<th>{esc(str(h))}</th>" for h in head) + "</tr>"
            + "".join("<tr>" + "".join(f"<td>{esc(str(c))}</td>" for c in r) + "</tr>" for r in rows) + "</table>")


def trajectory(row):
    """One rollout as readable text."""
    lines = [f"[{m['role']}] {m['content']}" for m in row.get("messages", [])]
    return "\n".join(lines) or "(no turns)"


def training_section(rs):
    """Reward and success per GRPO step, one line per round, plus the held-out curve table."""
    rew, suc, evals = {}, {}, []
    for r, d in rs:
        steps = [m for m in _read_jsonl(os.path.join(d, "06_grpo", "metrics.jsonl")) if "step" in m]
        rew[f"round {r}"] = [(m["step"], m["reward"]) for m in steps if m.get("reward") is not None]
        suc[f"round {r}"] = [(m["step"], m["success"]) for m in steps if m.get("success") is not None]
        for name, c in (_read_json(os.path.join(d, "06_grpo", "curve.json")) or {}).items():
            evals.append((r, name, f"{c['success']:.2f}", f"{c['reward']:.3f}", c["n"]))
    if not any(rew.values()) and not evals:
        return "<h2>Training</h2><p class='muted'>No 06_grpo metrics found.</p>"
    return ("<h2>Training (06_grpo)</h2><div class='row'>" + line_chart("Reward per GRPO step", rew, "mean reward")
            + line_chart("Success per GRPO step", suc, "success rate") + "</div>"
            + ("<h3>Held-out evaluation (06)</h3>" + table(["round", "when", "success", "reward", "n"], evals) if evals else ""))


def round_section(r, d):
    """Arena results of one round: overall, per category, per env, errors, weak envs, trajectories."""
    base = os.path.join(d, "07_diagnose")
    sc, errs, diag = (_read_json(os.path.join(base, n)) for n in ("scores.json", "errors.json", "diagnosis.json"))
    if sc is None:
        return f"<h2>Round {r}: arena</h2><p class='muted'>07_diagnose has not run in {esc(d)}.</p>"
    weak = {g["env_id"] for g in diag["weak"]}
    o = sc["overall"]
    out = [f"<h2>Round {r}: arena ({esc(d)})</h2>",
           f"<p>{o['success']}/{o['n']} rollouts succeeded: <b>{o['rate']:.1%}</b> (95% Wilson CI {o['lo']:.1%}-{o['hi']:.1%}),"
           f" mean reward {o['reward']:.3f}. Diagnosis: {esc(diag['method'])}"
           + (f" (LLM reply rejected: {esc(diag['fallback_reason'][:300])})" if diag.get("fallback_reason") else "") + ".</p>",
           "<div class='row'>",
           ci_bars(f"Round {r}: success per category", [(c, s["rate"], s["lo"], s["hi"], s["n"], COLORS[0])
                                                       for c, s in sc["category"].items()]),
           count_bars(f"Round {r}: primary error of failed rollouts", errs["primary"]), "</div>",
           ci_bars(f"Round {r}: success per environment (weak in red)",
                   [(e, s["rate"], s["lo"], s["hi"], s["n"], COLORS[1] if e in weak else COLORS[0]) for e, s in sc["env"].items()],
                   w=760)]
    out.append("<h3>Weak environments and task-generation guidelines</h3>")
    out.append(table(["rank", "environment", "success", "95% CI", "errors", "failing tools", "skills", "complexify"],
                     [(g["rank"], g["env_id"], f"{g['success']['success']}/{g['success']['n']}",
                       f"{g['success']['lo']:.2f}-{g['success']['hi']:.2f}", ", ".join(g["error_kinds"]),
                       ", ".join(g["failing_tools"]), "; ".join(g["skills"]), g["complexify"]) for g in diag["weak"]]))
    out.append("<h3>Full ranking (Wilson upper bound ascending)</h3>")
    out.append(table(["environment", "success", "rate", "95% CI", "mean reward"],
                     [(x["env_id"], f"{x['success']}/{x['n']}", f"{x['rate']:.2f}", f"{x['lo']:.2f}-{x['hi']:.2f}",
                       f"{x['reward']:.3f}") for x in diag["ranking"]]))
    comp = (diag.get("previous") or {}).get("compare") or {}
    if comp:
        out.append(f"<h3>Environments diagnosed in round {r - 1}: before and after</h3>")
        items = []
        for e, c in comp.items():
            for when, s, col in (("before", c.get("before"), COLORS[1]), ("after", c.get("after"), COLORS[2])):
                if s:
                    items.append((f"{e} ({when})", s["rate"], s["lo"], s["hi"], s["n"], col))
        out.append(ci_bars(f"Round {r - 1} -> {r} on the diagnosed environments", items, w=760))
    rows = _read_jsonl(os.path.join(base, "eval.jsonl"))
    fails = [x for x in rows if not x["success"]]
    picks = [next((x for x in fails if x["primary"] == k), None) for k in dict.fromkeys(x["primary"] for x in fails)][:4]
    picks += [next((x for x in rows if x["success"]), None)]
    out.append("<h3>Example trajectories</h3>")
    for x in [p for p in picks if p]:
        tag = "success" if x["success"] else f"failed: {x['primary']}"
        out.append(f"<details><summary>{esc(x['id'])} ({esc(tag)}, reward {x['reward']}, stop {esc(x['stop'])})</summary>"
                   f"<pre>{esc(trajectory(x))}</pre></details>")
    return "\n".join(out)


def render(top):
    """The whole report for the run folder `top` and its round folders."""
    rs = rounds(top)
    summary = []
    for r, d in rs:
        sc = _read_json(os.path.join(d, "07_diagnose", "scores.json"))
        diag = _read_json(os.path.join(d, "07_diagnose", "diagnosis.json")) or {}
        curve = _read_json(os.path.join(d, "06_grpo", "curve.json")) or {}
        last = curve.get("after_grpo", {})
        summary.append((r, d, f"{last['success']:.2f}" if last else "-",
                        f"{sc['overall']['rate']:.2f} ({sc['overall']['lo']:.2f}-{sc['overall']['hi']:.2f})" if sc else "-",
                        ", ".join(g["env_id"] for g in diag.get("weak", []))))
    body = [f"<h1>Agent-World run report: {esc(top)}</h1>",
            "<p class='muted'>Train (06) -> evaluate in the arena and diagnose (07) -> targeted tasks and richer databases"
            " -> train again. Success = reward >= 0.999. Intervals are 95% Wilson score intervals.</p>",
            "<h2>Rounds</h2>", table(["round", "folder", "06 held-out success", "arena success (95% CI)", "weak envs"], summary),
            training_section(rs)] + [round_section(r, d) for r, d in rs]
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>Run report: {esc(top)}</title>"
            f"<style>{CSS}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")


def write(top):
    """Write <top>/report.html and return its path."""
    path = os.path.join(top, "report.html")
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(render(top))
    os.replace(tmp, path)
    return path
