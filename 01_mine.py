"""Stage 01: theme anchors -> environment databases, mined from documents (Agent-World) or synthesised (AWM).

Reads  data/themes.jsonl ({id, kind, name, description, domain}); --corpus DIR (default data/corpus, its
       SOURCES.md maps topic folders to theme ids) or --search-url (SearXNG-style JSON search) for documents.
Writes <run>/01_mine/envs/<id>/{env.json, db.sqlite}, envs.jsonl (id, theme, documents, tables with rows,
       keys and FKs, provenance, skipped), rejected.jsonl (id, reason), themes.jsonl (the themes used),
       work/<id>/trajectory.json (LLM paths), meta.json last.
Paths  offline (default): BM25 picks the theme's documents, every table in them is parsed, typed, keyed and
       linked; the largest FK-connected group is kept, then complexify() adds transactional state --rounds times.
       --llm: a ReAct deep-research agent (search, browse, python, file tools) writes CSV/JSON files that the
       same parsers read; each round it is asked to enlarge the database. --source synth (AWM): scenario ->
       tasks -> DDL -> INSERTs, failed statements repaired once on feedback, >10% failures rejected.
Run    python 01_mine.py --run-dir runs/tiny --limit 8
       python 01_mine.py --run-dir runs/full --limit 0 --rounds 2 --workers 8
Departures: the offline miner replaces the paper's agent with parsers over a local corpus; complexification
       offline is a programmatic operator (seeded), not an LLM; web search is optional and unranked.
"""
import argparse
import json
import os
import re
import shutil
import sqlite3
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import chat, envs, llm, parsers, retrieval, runfolder, tables  # noqa: E402
from lib.research import Reject, agent_db, synth_db, write_tables  # noqa: E402

FIRST = ["Ada", "Ben", "Chloe", "Dev", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jon", "Kemi", "Luis",
         "Maya", "Nils", "Olga", "Priya", "Quinn", "Rosa", "Sami", "Tara"]
LAST = ["Abbott", "Berg", "Chen", "Diaz", "Evans", "Fischer", "Garcia", "Haas", "Ito", "Jensen", "Khan",
        "Lopez", "Moreau", "Novak", "Okafor", "Patel", "Rossi", "Silva", "Tanaka", "Weber"]
CITIES = ["Lisbon", "Austin", "Osaka", "Nairobi", "Lyon", "Toronto", "Pune", "Leeds", "Bergen", "Cusco"]
ACTORS = ("customers", "users", "members", "clients", "guests", "patients", "students", "passengers", "players",
          "learners", "subscribers", "tenants", "donors", "volunteers", "employees", "people")  # who acts
# kind -> (status lifecycle with weights, early states first; the final state old records reach)
KINDS = {"orders": ([("pending", .1), ("confirmed", .15), ("shipped", .15), ("delivered", .5), ("cancelled", .1)],
                    "delivered"),
         "bookings": ([("pending", .1), ("confirmed", .3), ("checked_in", .1), ("completed", .4), ("cancelled", .1)],
                      "completed"),
         "tickets": ([("open", .2), ("in_progress", .2), ("resolved", .3), ("closed", .3)], "closed"),
         "reviews": ([("pending", .15), ("published", .75), ("rejected", .1)], "published"),
         "accounts": ([("active", .8), ("frozen", .1), ("closed", .1)], "active")}
HINTS = {"orders": ("product", "item", "menu", "part", "medication", "book", "sku", "ingredient", "dish", "wine",
                    "securit", "merch", "suppl", "good"),
         "bookings": ("room", "court", "class", "session", "slot", "venue", "equipment", "vehicle", "car", "flight",
                      "route", "tour", "trip", "desk", "space", "doctor", "instructor", "event", "listing", "propert"),
         "tickets": ("issue", "repo", "device", "server", "system", "asset", "tower", "outage", "pipeline", "runner",
                     "agent", "meter", "plan", "subscription", "policy", "order", "loan"),
         "reviews": ("restaurant", "recipe", "course", "track", "song", "album", "game", "hotel", "app", "author"),
         "accounts": ()}  # words in the entity table's name that suggest the kind of state to add
EPOCH = np.datetime64("2025-06-01T00:00:00")  # the fixed "now" of generated histories (never the wall clock)


# ---------------------------------------------------------------------------- themes

def source_map(corpus, theme_ids):
    """theme id -> topic folder, read loosely from <corpus>/SOURCES.md (folder names and theme ids per line)."""
    path = os.path.join(corpus, "SOURCES.md")
    if not os.path.exists(path):
        return {}
    folders = sorted(d for d in os.listdir(corpus) if os.path.isdir(os.path.join(corpus, d)))
    plain = {d for d in folders if re.fullmatch(r"[\w-]+", d)}  # such a name matches a whole [\w-] run of a line
    odd = [d for d in folders if d not in plain]
    out, current = {}, None
    with open(path, encoding="utf-8") as f:
        for line in f:
            found = [d for d in re.findall(r"[\w-]+", line) if d in plain] + \
                [d for d in odd if re.search(rf"(?<![\w-]){re.escape(d)}/?(?![\w-])", line)]
            current = min(found) if found else (None if line.startswith("#") else current)
            for tid in re.findall(r"[\w.-]+", line):
                if tid in theme_ids and current and tid not in out:
                    out[tid] = current
    return out


def expand_themes(client, themes, n, rng, threshold, cap):
    """AWM scenario expansion: ask for new scenarios from few-shot anchors, drop near-duplicates and full domains."""
    texts = [f"{t['name']} {t['description']}" for t in themes]
    counts, new, notes = {}, [], []
    for t in themes:
        counts[t["domain"]] = counts.get(t["domain"], 0) + 1
    for attempt in range(3 * n + 3):
        if len(new) >= n:
            break
        shots = [themes[i] for i in sorted(rng.choice(len(themes), size=min(4, len(themes)), replace=False))]
        prompt = ("Here are scenarios for tool-using agent environments:\n" +
                  "\n".join(json.dumps({k: s[k] for k in ("kind", "name", "description", "domain")}) for s in shots) +
                  "\nPropose 5 NEW, different scenarios as a JSON array of objects with the same fields "
                  f"(attempt {attempt}).")
        items = chat.extract_json(client.chat([{"role": "user", "content": prompt}])["content"])
        for it in items if isinstance(items, list) else []:
            fields = ("name", "description", "domain")
            if not (isinstance(it, dict) and all(isinstance(it.get(k), str) and it[k] for k in fields)):
                notes.append("malformed scenario")
                continue
            text = f"{it['name']} {it['description']}"
            sim = float(retrieval.cosine_matrix([text], texts).max())
            tid = "x-" + tables.ident(it["name"])[:48]
            if sim >= threshold or tid in {t["id"] for t in themes + new}:
                notes.append(f"near-duplicate ({sim:.2f}): {it['name']}")
            elif counts.get(it["domain"], 0) >= cap:
                notes.append(f"domain {it['domain']} full: {it['name']}")
            elif len(new) < n:
                new.append({"id": tid, "kind": it.get("kind") if it.get("kind") in ("mcp_server", "tool_doc", "prd")
                            else "prd", "name": it["name"], "description": it["description"], "domain": it["domain"]})
                counts[it["domain"]] = counts.get(it["domain"], 0) + 1
                texts.append(text)
    return new, notes


# ---------------------------------------------------------------------------- offline mining

def pick_documents(backend, theme, folder, k):
    """The theme's documents: BM25 hits from the topic folder of the best hit (or the mapped folder), top k."""
    query = f"{theme['name']} {theme['description']}"
    if folder and hasattr(backend, "search_topic"):  # the same list, ranked within the folder only
        same = backend.search_topic(query, folder, 10_000)
        seen = set(same)
        return (same + [backend.files[i] for i in backend.by_topic.get(folder, []) if backend.files[i] not in seen])[:k]
    hits = backend.search(query, 10_000)
    best = folder or (backend.topic(hits[0]["url"]) if hits else None)
    if best is None:
        return []
    same = [h["url"] for h in hits if backend.topic(h["url"]) == best]
    rest = [f for f in getattr(backend, "files", []) if folder and backend.topic(f) == best and f not in same]
    return (same + rest)[:k]


def read_tables(backend, refs, max_bytes):
    """Parse every document; failures become notes, never exceptions."""
    found, notes = [], []
    for ref in refs:
        try:
            data = backend.browse(ref)
        except Exception as e:  # a missing file, an HTTP error, a refused URL: skip this document only
            notes.append(f"{ref}: cannot read ({type(e).__name__}: {str(e)[:80]})")
            continue
        ts, why = parsers.parse_document(ref, data, max_bytes)
        found += ts
        notes += why
    return found, notes


# ---------------------------------------------------------------------------- complexification

def _user_tables(con):
    return [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE '\\_%' "
                                      "ESCAPE '\\' AND name NOT LIKE 'sqlite_%' ORDER BY name")]


def _columns(con, table):
    """[(name, declared type, is_pk)] of a table."""
    return [(c[1], (c[2] or "TEXT").upper(), bool(c[5])) for c in con.execute(f'PRAGMA table_info("{table}")')]


def _stamp(rng, n, max_days=540):
    """n ISO timestamps before EPOCH, most recent ones densest (exponential ages), and their ages in days."""
    age = np.minimum(rng.exponential(120, n), max_days)
    secs = (age * 86400).astype(np.int64)
    return [str(EPOCH - np.timedelta64(int(s), "s")) + "Z" for s in secs], age


def _make_actor(con, rng, n):
    """A synthetic customers table (id, name, email, city, joined_at)."""
    con.execute('CREATE TABLE "customers" ("id" INTEGER, "name" TEXT, "email" TEXT, "city" TEXT, '
                '"joined_at" TEXT, PRIMARY KEY ("id"))')
    joined, _ = _stamp(rng, n, 1500)
    rows = []
    for i in range(1, n + 1):
        first, last = FIRST[rng.integers(len(FIRST))], LAST[rng.integers(len(LAST))]
        rows.append((i, f"{first} {last}", f"{first}.{last}{i}@example.com".lower(),
                     CITIES[rng.integers(len(CITIES))], joined[i - 1]))
    con.executemany('INSERT INTO "customers" VALUES (?, ?, ?, ?, ?)', rows)
    return "customers"


def _pk(con, table):
    """(name, declared type) of a table's single-column primary key, or None."""
    pks = [(c, ty) for c, ty, is_pk in _columns(con, table) if is_pk]
    return pks[0] if len(pks) == 1 else None


def _extra(kind, rng, base, when, subject):
    """The kind-specific columns of one generated row (base: the entity's price or a log-normal one)."""
    if kind == "orders":
        q = int(1 + rng.poisson(0.6))
        return [q, base, round(q * base, 2)]
    if kind == "bookings":
        nights = int(1 + rng.geometric(0.4))
        return [when[:10], nights, int(1 + rng.poisson(1)), round(nights * base, 2)]
    if kind == "tickets":
        return [f"Problem with {subject}", ["low", "normal", "high", "urgent"][rng.choice(4, p=[.3, .45, .18, .07])]]
    if kind == "reviews":  # ratings skew positive, as on real review sites
        r = int(1 + rng.choice(5, p=[.05, .07, .13, .35, .4]))
        return [r, ["Awful.", "Poor.", "It was okay.", "Good, would use again.", "Excellent!"][r - 1]]
    return [float(np.round(rng.lognormal(5, 1.2), 2)), "USD"]  # accounts: long-tailed balances


EXTRA = {"orders": ["quantity INTEGER", "unit_price REAL", "total REAL"],
         "bookings": ["start_date TEXT", "nights INTEGER", "guests INTEGER", "total REAL"],
         "tickets": ["subject TEXT", "priority TEXT"], "reviews": ["rating INTEGER", "comment TEXT"],
         "accounts": ["balance REAL", "currency TEXT"]}


def complexify(con, rng, round=0):
    """Agent-World's complexification, programmatic: add one transactional table (orders, bookings, tickets,
    reviews or accounts) linked to the biggest entity table and an actor table, with a status lifecycle,
    skewed popularity and dated history. The entity is the mined table most others reference.
    Returns {"table", "rows", "entity", "actor"}."""
    names = _user_tables(con)
    sizes = {t: con.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0] for t in names}
    mined = [t for t in names if _pk(con, t) and t != "customers"
             and not re.match(rf"^({'|'.join(KINDS)})(_\d+)?$", t)]
    actor = next((t for t in ACTORS if t in names and _pk(con, t)), None)
    refs_in = {t: 0 for t in names}  # a core entity is one many tables point at (products, not order_items)
    for t in names:
        for f in con.execute(f'PRAGMA foreign_key_list("{t}")'):
            refs_in[f[2]] = refs_in.get(f[2], 0) + 1
    entity = max(mined, key=lambda t: (t != actor, refs_in[t], sizes[t], t)) if mined else None
    if actor is None:
        actor = _make_actor(con, rng, int(np.clip(sizes.get(entity, 80) // 2, 40, 200)))
    entity = entity or actor
    fit = [sum(w in entity for w in HINTS[k]) for k in sorted(KINDS)]  # what users plausibly do with the entity
    order = [k for _, _, k in sorted(zip([-f for f in fit], rng.permutation(len(KINDS)), sorted(KINDS)))
             if k != "accounts"] + ["accounts"]
    kind = next((k for k in order if k not in names), order[0])
    name = kind if kind not in names else f"{kind}_{round + 1}"
    refs = []  # (column, table, pk, pk type, key values)
    for t in dict.fromkeys([actor, entity]):
        pk, ty = _pk(con, t)
        s = tables.singular(t)
        col = pk if "_" in pk else f"{s}_{pk}"  # keep repo_id / customer_id; id -> airport_id, login -> user_login
        col = col if col not in [r[0] for r in refs] else f"{t}_{col}"
        vals = [r[0] for r in con.execute(f'SELECT "{pk}" FROM "{t}" WHERE "{pk}" IS NOT NULL ORDER BY "{pk}"')]
        refs.append((col, t, pk, ty, vals))
    n = max(len(refs[0][4]), 40) if kind == "accounts" else int(np.clip(3 * sizes.get(entity, 0), 200, 600))
    picks = []
    for *_, vals in refs:  # Zipf-like popularity over a shuffled order, so a few entities are busy
        w = 1.0 / (1 + rng.permutation(len(vals))) ** 0.8
        picks.append(rng.choice(len(vals), size=n, p=w / w.sum()))
    states, final = KINDS[kind]
    status = rng.choice(len(states), size=n, p=[p for _, p in states])
    created, age = _stamp(rng, n)
    price = next((c for c, ty, _ in _columns(con, entity) if ty in ("REAL", "INTEGER")
                  and re.search(r"price|cost|fee|fare|rate|amount", c)), None)
    prices = dict(con.execute(f'SELECT "{refs[-1][2]}", "{price}" FROM "{entity}"').fetchall()) if price else {}
    cols = ["id INTEGER"] + [f'"{c}" {ty}' for c, _, _, ty, _ in refs] + EXTRA[kind] + \
        ["status TEXT", "created_at TEXT"]
    fks = [f'FOREIGN KEY ("{c}") REFERENCES "{t}" ("{pk}")' for c, t, pk, _, _ in refs]
    con.execute(f'CREATE TABLE "{name}" ({", ".join(cols + ["PRIMARY KEY (id)"] + fks)})')
    rows = []
    for i in range(n):
        ids = [vals[p[i]] for (*_, vals), p in zip(refs, picks)]
        st = states[status[i]][0]
        if age[i] > 14 and kind != "accounts" and st in (states[0][0], states[1][0]):
            st = final  # old records have finished their lifecycle
        base = prices.get(ids[-1])
        if not (isinstance(base, (int, float)) and base > 0):
            base = float(np.round(rng.lognormal(3.2, .7), 2))  # no usable price on the entity: a typical one
        rows.append([i + 1] + ids + _extra(kind, rng, base, created[i], f"{tables.singular(entity)} {ids[-1]}")
                    + [st, created[i]])
    con.executemany(f'INSERT INTO "{name}" VALUES ({", ".join("?" * len(rows[0]))})', rows)
    con.commit()
    return {"table": name, "rows": n, "entity": entity, "actor": actor}


# ---------------------------------------------------------------------------- one environment

def build_env(theme, stage, args, backend, folder, client):
    """Build one environment under a temp name and rename it into place; returns the resumable part."""
    env_id = theme["id"]
    final = stage.path("envs", runfolder.safe_name(env_id))
    tmp, wdir = final + ".tmp", os.path.join(stage.work, runfolder.safe_name(env_id))
    for d in (tmp, wdir):  # leftovers of an interrupted attempt
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    rng = np.random.default_rng(runfolder.item_seed(args.seed, env_id))
    con = sqlite3.connect(os.path.join(tmp, "db.sqlite"))
    head = {"id": env_id, "theme": {k: theme.get(k) for k in ("id", "kind", "name", "domain")}}
    notes = []  # documents skipped or repaired, kept for rejected themes too
    try:
        if args.source == "synth":
            info, how = synth_db(client, theme, con, wdir, args), "synth"
        elif client is not None:
            info, how = agent_db(client, theme, backend, con, wdir, args), "agent"
        else:
            docs = pick_documents(backend, theme, folder, args.docs)
            found, notes[:] = read_tables(backend, docs, args.max_doc_bytes)
            group = write_tables(con, found, notes, args.max_rows, docs)
            info, how = {"documents": docs, "provenance": {t.name: t.source for t in group}, "skipped": notes,
                         "notes": {t.name: t.notes for t in group if t.notes}}, "web" if args.search_url else "corpus"
            info["complexify"] = [complexify(con, rng, r) for r in range(args.rounds)]
            info["provenance"].update({c["table"]: f"complexify round {r + 1}"
                                       for r, c in enumerate(info["complexify"])})
            info["provenance"].setdefault("customers", "complexify (synthetic actors)")
        desc = tables.describe_db(con)
        rows = sum(t["rows"] for t in desc)
        if len(desc) < args.min_tables or rows < args.min_rows:
            raise Reject(f"too small: {len(desc)} tables, {rows} rows (need {args.min_tables} and {args.min_rows})")
        if con.execute("PRAGMA foreign_key_check").fetchall():
            raise Reject("foreign keys that do not resolve")
        envs.write_meta_table(con, env_id, "01_mine")
        con.execute("VACUUM")
    except Reject as e:
        part = {"status": "rejected", "row": {**head, "reason": str(e), "skipped": notes}}
    except Exception as e:  # one bad theme (LLM down, a parser bug) is recorded, never the end of the stage
        part = {"status": "rejected", "row": {**head, "reason": f"error: {type(e).__name__}: {str(e)[:300]}"}}
    else:
        for t in desc:
            t["source"] = info["provenance"].get(t["name"], "")
            t["notes"] = info.get("notes", {}).get(t["name"], [])
        counts = {"tables": len(desc), "rows": rows, "foreign_keys": sum(len(t["foreign_keys"]) for t in desc)}
        row = {**head, "source": how, "documents": info["documents"], "tables": desc, "skipped": info["skipped"],
               "counts": counts,
               **{k: info[k] for k in ("complexify", "tasks", "stops", "failed_statements") if k in info}}
        meta = {"id": env_id, "format": envs.FORMAT_VERSION, "theme": head["theme"],
                "description": theme["description"],
                "provenance": {"producer": "01_mine", "source": how, "documents": info["documents"],
                               "tables": {t["name"]: t["source"] for t in desc}},
                "counts": {**counts, **{t["name"]: t["rows"] for t in desc}}}
        runfolder.atomic_write(os.path.join(tmp, "env.json"), json.dumps(meta, indent=1, sort_keys=True))
        part = {"status": "ok", "row": row}
    finally:
        con.close()
    stage.save_part(env_id, part)  # before the rename: a present folder always has its part
    if part["status"] == "ok":
        shutil.rmtree(final, ignore_errors=True)
        os.replace(tmp, final)
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    return part


# ---------------------------------------------------------------------------- main

if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    # I/O
    ap.add_argument("--run-dir", required=True, help="run folder; this stage writes <run-dir>/01_mine/")
    ap.add_argument("--themes", default="data/themes.jsonl", help="theme anchors (JSONL)")
    ap.add_argument("--corpus", default="data/corpus", help="folder of documents to mine (topic subfolders)")
    ap.add_argument("--search-url", default="", help="SearXNG-style JSON search endpoint; '' = use --corpus")
    ap.add_argument("--web-delay", type=float, default=1.0, help="seconds between web requests")
    ap.add_argument("--source", choices=["mine", "synth"], default="mine",
                    help="mine documents, or AWM synthesis (needs --llm)")
    ap.add_argument("--limit", type=int, default=0, help="themes to build (0 = all with corpus coverage)")
    # Mining
    ap.add_argument("--docs", type=int, default=12, help="documents per theme")
    ap.add_argument("--max-doc-bytes", type=int, default=2_000_000, help="larger documents are skipped")
    ap.add_argument("--max-rows", type=int, default=5000, help="rows kept per parsed table")
    ap.add_argument("--min-score", type=float, default=5.0, help="BM25 score a theme needs without SOURCES.md")
    # Complexification and sizes
    ap.add_argument("--rounds", type=int, default=1, help="complexification rounds (0 = none)")
    ap.add_argument("--min-tables", type=int, default=3, help="smaller databases are rejected")
    ap.add_argument("--min-rows", type=int, default=200, help="rows in all tables after complexification")
    # Agent and synthesis budgets (LLM paths)
    ap.add_argument("--max-steps", type=int, default=30, help="LLM calls per agent run (per round)")
    ap.add_argument("--max-seconds", type=float, default=600, help="wall seconds per agent run (0 = no limit)")
    ap.add_argument("--max-tokens", type=int, default=200_000, help="tokens per theme (0 = no limit)")
    ap.add_argument("--repairs", type=int, default=1, help="feedback rounds for failed SQL statements")
    # Scenario expansion (LLM)
    ap.add_argument("--expand", type=int, default=0, help="new scenarios to add to the anchors (0 = none)")
    ap.add_argument("--dup-threshold", type=float, default=0.8, help="TF-IDF cosine at which a scenario is a duplicate")
    ap.add_argument("--domain-cap", type=int, default=12, help="most themes per domain after expansion")
    # Runtime
    ap.add_argument("--seed", type=int, default=0, help="run seed (per-environment seeds derive from it)")
    ap.add_argument("--workers", type=int, default=1, help="themes built in parallel")
    ap.add_argument("--force", action="store_true", help="redo a finished stage")
    llm.add_llm_args(ap)
    args = ap.parse_args()

    stage = runfolder.begin(args, "01_mine")
    client = llm.llm_from_args(args, os.path.join(stage.work, "llm_cache"))
    if client is None and (args.source == "synth" or args.expand):
        sys.exit("--source synth and --expand need an LLM (--llm openai or hf:PATH)")
    themes = sorted((t for t in runfolder.read_jsonl(stage.input(args.themes))
                     if all(isinstance(t.get(k), str) for k in ("id", "name", "description", "domain"))),
                    key=lambda t: t["id"])
    backend, mapping = None, {}
    if args.search_url:
        backend = retrieval.Web(args.search_url, args.max_doc_bytes, args.web_delay)
    elif args.source == "mine":
        backend = retrieval.Corpus(stage.input(args.corpus), max_bytes=args.max_doc_bytes)
        mapping = source_map(args.corpus, {t["id"] for t in themes})
    extra = []
    if args.expand:
        rng = np.random.default_rng(runfolder.item_seed(args.seed, "expand"))
        extra, why = expand_themes(client, themes, args.expand, rng, args.dup_threshold, args.domain_cap)
        print(f"expansion: {len(extra)} new scenarios, {len(why)} proposals rejected")
    pool = themes + extra
    if client is None and not args.search_url and mapping:  # offline: only themes the corpus covers
        pool = [t for t in pool if t["id"] in mapping]
    elif client is None and not args.search_url:
        best = {t["id"]: (backend.search(f"{t['name']} {t['description']}", 1) or [{"score": 0}])[0]["score"]
                for t in pool}
        pool = [t for t in pool if best[t["id"]] >= args.min_score]
    selected = sorted(pool, key=lambda t: t["id"])[: args.limit or None]
    stage.write_jsonl("themes.jsonl", selected, "theme")
    print(f"01_mine: {len(selected)} of {len(themes) + len(extra)} themes | path "
          f"{'synth' if args.source == 'synth' else 'agent' if client else 'offline'} | backend "
          f"{args.search_url or (args.corpus if backend else '-')} | rounds {args.rounds} | seed {args.seed}")

    def one(theme):
        if stage.has_part(theme["id"]):  # finished before an interruption, unless its folder went missing
            part = stage.load_part(theme["id"])
            if part["status"] == "rejected" or os.path.isdir(stage.path("envs", runfolder.safe_name(theme["id"]))):
                return part
        return build_env(theme, stage, args, backend, mapping.get(theme["id"]), client)

    # Offline mining is CPU-bound (processes); the agent waits on the network (threads, one shared client).
    parts = list(runfolder.parallel(one, selected, args.workers, "01_mine", processes=client is None,
                                    tally=lambda p: "built" if p["status"] == "ok" else "rejected"))
    built = [p["row"] for p in parts if p["status"] == "ok"]
    rejected = [p["row"] for p in parts if p["status"] == "rejected"]
    stage.write_jsonl("envs.jsonl", built, "env")
    stage.write_jsonl("rejected.jsonl", rejected, "rejected")

    print(f"{'environment':40s} {'src':6s} {'tables':>6s} {'rows':>6s} {'fks':>4s} {'docs':>4s}")
    for r in sorted(built, key=lambda r: r["id"]):
        print(f"{r['id'][:40]:40s} {r['source'][:6]:6s} {r['counts']['tables']:6d} {r['counts']['rows']:6d} "
              f"{r['counts']['foreign_keys']:4d} {len(r['documents']):4d}")
    reasons = {}
    for r in rejected:
        key = r["reason"].split(" (")[0].split(":")[0]
        reasons[key] = reasons.get(key, 0) + 1
    counts = {"themes": len(selected), "envs": len(built), "rejected": len(rejected), "rejected_by_reason": reasons,
              "expanded": len(extra), "tables": sum(r["counts"]["tables"] for r in built),
              "rows": sum(r["counts"]["rows"] for r in built),
              "skipped_documents": sum(len(r.get("skipped", [])) for r in built + rejected),
              "repairs": sum(len(t["notes"]) for r in built for t in r["tables"])}
    stage.finish(counts, llm=client.usage if client else None)
    print(f"01_mine: {len(built)} environments, {len(rejected)} rejected {reasons}, {counts['rows']} rows in all")
    if built:
        r = max(built, key=lambda r: (r["counts"]["foreign_keys"], r["id"]))
        print("example:", json.dumps({k: r[k] for k in ("id", "theme", "documents", "counts")}, sort_keys=True)[:600])
        for t in r["tables"][:6]:
            print(f"  {t['name']}: {t['rows']} rows, pk {t['primary_key']}, fks {t['foreign_keys']}, "
                  f"from {t['source']}")