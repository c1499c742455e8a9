"""Program-task templates: solution programs built from an environment's tables (for lib.taskgen)."""
import ast
import re

from lib import toolgen
from lib.taskgraph import LIMIT, format_sentence, human, key_param, quote


def child_links(prof, tables, parent):
    """[(list tool, its parameter, child table, foreign-key column)] from a parent table to its children."""
    T, out = tables[parent], []
    for n, t in sorted(prof.items()):
        p = next((p for p in t["required"] if t["refs"].get(p) == (parent, T["key"])), None)
        if t["op"] == "list" and p and T["key"]:
            col = next(fk["column"] for fk in tables[t["table"]]["fks"] if toolgen.param_name(fk["column"]) == p)
            out.append((n, p, t["table"], col))
    return out


def family(ctx, rng, need):
    """(anchor, link, children) for a named row with 2..49 children (by a list tool) that pass need(kids, link)."""
    tables, prof = ctx["tables"], ctx["prof"]
    anchors = [a for a in ctx["walk"].anchors() if prof[a[1]]["op"] == "search"]
    rng.shuffle(anchors)
    for a in anchors:
        links = child_links(prof, tables, a[3])
        rng.shuffle(links)
        for link in links:
            kids = [r for r in tables[link[2]]["rows"] if r[link[3]] == a[4][tables[a[3]]["key"]]]
            if 2 <= len(kids) < LIMIT and need(kids, link):
                return a, link, kids
    return None


def head(tables, anchor, link, empty):
    """Program lines: find the named anchor row, then list its children into `rows`."""
    _, tool, args, table, row, _, used = anchor
    col = next(iter(used))
    return [f"found = [r for r in tools.{tool}(**{args!r}, limit=50) if isinstance(r, dict) and r.get({col!r}) == {row[col]!r}]",
            "if not found:", f"    return {empty!r}",
            f"rows = [r for r in tools.{link[0]}({link[1]}=found[0][{tables[table]['key']!r}], limit=50) if isinstance(r, dict)]"]


def program(lines):
    """def solve(tools): with the given body lines."""
    return "def solve(tools):\n" + "".join(f"    {ln}\n" for ln in lines)


def plain_columns(tables, t):
    """A table's columns that are neither its key, nor references, nor automatic stamps."""
    T = tables[t]
    return [c["name"] for c in T["columns"] if c["name"] not in {T["key"]} | {fk["column"] for fk in T["fks"]}
            | toolgen.AUTO_STAMPS]


def tpl_aggregate(ctx, rng):
    """Filter then aggregate: count (and total) a named row's children in one category."""
    tables = ctx["tables"]

    def cats(kids, link):
        t = link[2]
        return [c for c in plain_columns(tables, t) if all(isinstance(k[c], str) for k in kids)
                and toolgen.categorical({r[c] for r in tables[t]["rows"]}, tables[t]["rows"])]
    fam = family(ctx, rng, cats)
    if not fam:
        return None
    a, link, kids = fam
    g = rng.choice(cats(kids, link))
    gv = rng.choice(sorted({k[g] for k in kids}))
    nums = [c for c in plain_columns(tables, link[2]) if all(isinstance(k[c], (int, float, type(None))) for k in kids)
            and any(isinstance(k[c], (int, float)) and not isinstance(k[c], bool) for k in kids)]
    x = rng.choice(nums) if nums else None
    fmt = {"count": "integer", **({"total": "number"} if x else {})}
    empty = {"count": 0, **({"total": 0} if x else {})}
    body = head(tables, a, link, empty) + ["count, total = 0, 0", "for r in rows:", f"    if r[{g!r}] == {gv!r}:", "        count += 1"] \
        + ([f"        total += r[{x!r}] or 0"] if x else []) + ["return {'count': count" + (", 'total': round(total, 2)}" if x else "}")]
    q = f"For {a[5]}: how many of its {human(link[2])} have {human(g)} {quote(gv)}" \
        + (f", and what is the sum of their {human(x)} (rounded to 2 decimals)" if x else "") + "? "
    return {"query": q + format_sentence(fmt), "answer_format": fmt, "program": program(body),
            "check": lambda ans: ans["count"] >= 1}


def allowed_from(env, tool):
    """Statuses a schema transition tool accepts, from its description ("allowed only from [...]"), or None."""
    m = re.search(r"allowed only from (\[[^\]]*\])", env.by_name[tool]["function"].get("description", ""))
    try:
        return set(ast.literal_eval(m.group(1))) if m else None
    except (ValueError, SyntaxError):
        return None


def transitions_of(ctx, table):
    """Transition tools of a table."""
    return [n for n, p in sorted(ctx["prof"].items()) if p["op"] == "transition" and p["table"] == table]


def tpl_update_set(ctx, rng):
    """Conditional updates over a set: move every child in one status on with a transition."""
    tables = ctx["tables"]

    def moves(kids, link):
        C = tables[link[2]]
        return [(tr, sv) for tr in transitions_of(ctx, C["name"]) for sv in sorted({k[C["status"]] for k in kids})
                if sv and sv in (allowed_from(ctx["env"], tr) or {sv})] if C["status"] else []
    fam = family(ctx, rng, moves)
    if not fam:
        return None
    a, link, kids = fam
    C = tables[link[2]]
    tr, sv = rng.choice(moves(kids, link))
    verb = human(tr[: -len(toolgen.ident(toolgen.singular(C["name"]))) - 1])
    body = head(tables, a, link, {"changed": 0}) + [
        "changed = 0", "for r in rows:", f"    if r[{C['status']!r}] == {sv!r}:",
        f"        result = tools.{tr}({key_param(C)}=r[{C['key']!r}])", "        if 'error' not in result:",
        "            changed += 1", "return {'changed': changed}"]
    q = f"For {a[5]}: {verb} every one of its {human(C['name'])} whose {human(C['status'])} is {quote(sv)}, " \
        f"then tell me how many you changed. "
    return {"query": q + format_sentence({"changed": "integer"}), "answer_format": {"changed": "integer"},
            "program": program(body), "check": lambda ans: ans["changed"] >= 1}


def is_date(v):
    """An ISO date(-time) string."""
    return isinstance(v, str) and re.match(r"\d{4}-\d\d-\d\d", v) is not None


def tpl_hop_write(ctx, rng):
    """Multi-hop lookups then a conditional write: best child -> the row it refers to -> branch -> write."""
    tables, prof = ctx["tables"], ctx["prof"]

    def hops(kids, link):
        T = tables[link[2]]
        if not transitions_of(ctx, T["name"]):
            return []
        rank = [c["name"] for c in T["columns"] if c["name"] != T["key"] and c["name"] not in {f["column"] for f in T["fks"]}
                and (all(isinstance(k[c["name"]], (int, float)) and not isinstance(k[c["name"]], bool) for k in kids)
                     or all(is_date(k[c["name"]]) for k in kids))]
        return [(fk, x) for fk in T["fks"] for x in rank
                if fk["column"] != link[3] and fk["ref_table"] in tables and fk["ref_column"] == tables[fk["ref_table"]]["key"]
                and any(p["op"] == "get" and p["table"] == fk["ref_table"] for p in prof.values())
                and [k[x] for k in kids].count(max(k[x] for k in kids)) == 1 and all(k[fk["column"]] for k in kids)]
    fam = family(ctx, rng, hops)
    if not fam:
        return None
    a, link, kids = fam
    C = tables[link[2]]
    fk, x = rng.choice(hops(kids, link))
    Q = tables[fk["ref_table"]]
    best = max(kids, key=lambda k: k[x])
    qrow = next((r for r in Q["rows"] if r[Q["key"]] == best[fk["column"]]), None)
    if qrow is None:
        return None
    nums = [c for c in plain_columns(tables, Q["name"]) if isinstance(qrow[c], (int, float)) and not isinstance(qrow[c], bool)]
    texts = [c for c in plain_columns(tables, Q["name"]) if isinstance(qrow[c], str) and 0 < len(qrow[c]) <= 60]
    if not texts or len(texts) + len(nums) < 2:
        return None
    y = rng.choice(nums) if nums else rng.choice(texts)
    z = rng.choice([c for c in texts if c != y])
    tr = rng.choice(transitions_of(ctx, C["name"]))
    if y in nums:
        thr = qrow[y] if rng.random() < 0.7 else qrow[y] + 1
        cond, said = f"(other[{y!r}] or 0) >= {thr!r}", f"is at least {thr}"
    else:
        v = qrow[y] if rng.random() < 0.7 else rng.choice(sorted({r[y] for r in Q["rows"] if isinstance(r[y], str)}))
        cond, said = f"other[{y!r}] == {v!r}", f"is {quote(v)}"
    zk = re.sub(r"[^a-z0-9]+", "_", f"{toolgen.singular(Q['name'])} {z}".lower()).strip("_")
    qn, cn = human(toolgen.singular(Q["name"])), human(toolgen.singular(C["name"]))
    verb = human(tr[: -len(toolgen.ident(toolgen.singular(C["name"]))) - 1])
    fmt = {zk: "string", "acted": "boolean"}
    get_q = next(n for n, p in sorted(prof.items()) if p["op"] == "get" and p["table"] == Q["name"])
    body = head(tables, a, link, {zk: "", "acted": False}) + [
        f"best = max(rows, key=lambda r: r[{x!r}])", f"other = tools.{get_q}({key_param(Q)}=best[{fk['column']!r}])",
        "acted = False", f"if {cond}:", f"    result = tools.{tr}({key_param(C)}=best[{C['key']!r}])",
        "    acted = 'error' not in result", f"return {{{zk!r}: other[{z!r}], 'acted': acted}}"]
    rank = "most recent" if is_date(best[x]) else "highest"
    q = f"For {a[5]}: among its {human(C['name'])}, take the one with the {rank} {human(x)} and look up the {qn} it " \
        f"refers to. If that {qn}'s {human(y)} {said}, {verb} that {cn}; otherwise change nothing. " \
        f"Tell me the {qn}'s {human(z)} ({zk}) and whether you made the change (acted). "
    return {"query": q + format_sentence(fmt), "answer_format": fmt, "program": program(body), "check": lambda ans: True}


TEMPLATES = (tpl_aggregate, tpl_update_set, tpl_hop_write)
