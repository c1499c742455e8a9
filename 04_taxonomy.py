"""04_taxonomy: a three-level taxonomy of the kept environments (Agent-World: 20 / 50 / one leaf per environment).

Reads  <run>/03_filter/kept.jsonl (kind env_kept: id, tools [{name}]) and 03_filter/envs/<id>/ (env.json: description,
       theme {name, domain}; db.sqlite: table and column names).
Writes <run>/04_taxonomy/labels.jsonl (kind label: id, l1, l2, l3, path "l1/l2/l3") and taxonomy.json (taxonomy/1):
       {"levels": [n_l1, n_l2, n_envs], "tree": [{"name", "children": [{"name", "children": [{"name", "env_id"}]}]}]
       (sorted by name), "method": {embedding, linkage, naming, LLM moves}}. Environments are not copied.
Embed each environment (TF-IDF of description, theme, schema and tool names, reduced by SVD; or --embed hf:PATH, the
mean-pooled hidden states of a transformers model); cluster by Ward linkage (nearest-neighbour chain, numpy); cut the
one dendrogram at n_l1 and n_l2 clusters, so level 2 nests in level 1; level 3 is the environment (its theme name).
Sizes: n_l1 = min(--l1, max(2, round(sqrt(n / 2)))), n_l2 = min(--l2, max(n_l1, round(n / 2))). Names: top c-TF-IDF
terms per cluster; with --llm an LLM names each cluster and checks each member: a misfit moves to the most similar
other level-2 cluster (centroid cosine) unless that empties its own; an unusable answer keeps the offline name.
Departures: Agent-World builds its taxonomy with an LLM throughout; here the LLM only names and verifies, in one pass.
  tiny: python 04_taxonomy.py --run-dir runs/tiny
  full: python 04_taxonomy.py --run-dir runs/full --llm openai --workers 16
"""
import argparse
import json
import math
import os
import sqlite3
import sys
from collections import Counter

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import chat, envs, llm, runfolder  # noqa: E402
from lib.retrieval import tokenize  # noqa: E402

# words that describe every environment's plumbing, not its subject: never part of a cluster name
NAME_STOP = set("""get search list summarize create update delete add remove record records id ids name names status
created updated date time tool tools server mcp api product requirement workflow interface background data count total
each per when which has have their they them can not also new open mark marked set sets value values type types code
note notes one two use used using user users like kept keep item items number amount level levels""".split())


# ---------------------------------------------------------------------------- inputs

def env_record(folder, env_id, tool_names):
    """{"id", "name", "description", "subject", "text"} of an environment: names come from the subject (theme and
    description), the embedding from the whole text (subject, tables and columns, tool-name words)."""
    with open(os.path.join(folder, "env.json"), encoding="utf-8") as f:
        meta = json.load(f)
    con = sqlite3.connect(":memory:")
    con.deserialize(envs.read_db_bytes(os.path.join(folder, "db.sqlite"), env_id))  # checks format and id
    tables = [t for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
              if not t.startswith(("_", "sqlite_"))]
    schema = [t + " " + " ".join(r[1] for r in con.execute(f'PRAGMA table_info("{t}")')) for t in tables]
    con.close()
    theme = meta.get("theme") or {}
    name, domain = theme.get("name") or env_id, theme.get("domain") or ""
    # theme name and domain twice: they say most about the subject in the fewest words
    subject = "\n".join([name, domain, name, domain, meta.get("description", "")])
    tool_words = sorted({w for t in tool_names for w in tokenize(t)})  # once each: 60 tools repeat 8 table names
    return {"id": env_id, "name": name, "description": meta.get("description", ""), "subject": subject,
            "text": "\n".join([subject] + schema + [" ".join(tool_words)])}


def level_sizes(n, l1, l2):
    """(n_l1, n_l2) for n environments: the requested sizes, capped so that small runs get small levels."""
    k1 = min(l1, max(2, round(math.sqrt(n / 2))), n)
    return k1, min(l2, max(k1, round(n / 2)), n)


# ---------------------------------------------------------------------------- embeddings

def tfidf_svd(docs, dims, seed=0, min_df=2, max_terms=5000):
    """(n, d) unit rows: log-tf * idf over terms in >= min_df documents (at most max_terms), projected by SVD."""
    n = len(docs)
    df = Counter(w for d in docs for w in set(d))  # documents per term
    # terms of one document cannot relate two documents; keep the most shared ones, ties alphabetical
    terms = sorted((w for w, c in df.items() if c >= min(min_df, n)), key=lambda w: (-df[w], w))[:max_terms]
    vocab = {w: i for i, w in enumerate(sorted(terms))}
    x = np.zeros((n, len(vocab)), dtype=np.float32)  # (n, V)
    for i, d in enumerate(docs):
        for w in d:
            if w in vocab:
                x[i, vocab[w]] += 1
    idf = np.log((1 + n) / (1 + np.array([df[w] for w in sorted(vocab)], dtype=np.float32))) + 1  # (V,)
    x = np.log1p(x) * idf
    x /= np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)
    if x.shape[1] == 0:
        return np.zeros((n, 1), dtype=np.float32), 0
    e = svd_project(x.astype(np.float64), dims, seed)  # (n, d)
    e /= np.maximum(np.linalg.norm(e, axis=1, keepdims=True), 1e-12)
    return e.astype(np.float32), len(vocab)


def svd_project(x, dims, seed, exact_below=300, iters=4):
    """(n, d) coordinates of x's rows on its top-d right singular vectors: exact SVD when small, else seeded randomized
    subspace iteration (Halko et al. 2011; an exact SVD of 2,000 x 5,000 can take minutes on 2 cores, this ~1 s)."""
    if min(x.shape) <= exact_below:
        return x @ np.linalg.svd(x, full_matrices=False)[2][:dims].T
    q = np.linalg.qr(x @ np.random.default_rng(seed).standard_normal((x.shape[1], dims + 16)))[0]  # (n, d + 16)
    for _ in range(iters):  # power iterations sharpen the subspace towards the top singular vectors
        q = np.linalg.qr(x @ np.linalg.qr(x.T @ q)[0])[0]
    vt = np.linalg.svd(q.T @ x, full_matrices=False)[2]  # (d + 16, V)
    return x @ vt[:dims].T


def embed_hf(texts, path, device="cpu", batch=16, max_len=512):
    """(n, H) unit rows: attention-masked mean of a transformers model's last hidden states."""
    import torch
    from transformers import AutoModel, AutoTokenizer
    tok = AutoTokenizer.from_pretrained(path)
    tok.pad_token = tok.pad_token or tok.eos_token
    tok.padding_side = "right"  # a causal model's real tokens then never see the padding (or shift position)
    net = AutoModel.from_pretrained(path, dtype=torch.float32).to(device).eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(texts), batch):
            enc = tok(texts[i:i + batch], padding=True, truncation=True, max_length=max_len,
                      return_tensors="pt").to(device)
            h = net(**enc).last_hidden_state  # (B, T, H)
            m = enc["attention_mask"].unsqueeze(-1).to(h.dtype)  # (B, T, 1): padding counts for nothing
            out.append(((h * m).sum(1) / m.sum(1).clamp(min=1)).cpu().numpy())  # (B, H)
    e = np.concatenate(out).astype(np.float64)
    return (e / np.maximum(np.linalg.norm(e, axis=1, keepdims=True), 1e-12)).astype(np.float32)


# ---------------------------------------------------------------------------- clustering

def ward_merges(x):
    """Ward agglomerative clustering of (n, d) rows by nearest-neighbour chain: [(leaf_a, leaf_b, height)] sorted.

    Each cluster lives in the slot of one of its leaves; d holds Ward distances between live slots (float32,
    n^2 memory) updated by Lance-Williams. A height is 2 * (the merge's increase in within-cluster squared error):
    for two points their squared distance; scipy's Ward height squared. Ties go to the lowest index: deterministic."""
    x = np.asarray(x, dtype=np.float64)
    n = len(x)
    sq = (x * x).sum(1)
    d = np.maximum(sq[:, None] + sq[None, :] - 2 * x @ x.T, 0).astype(np.float32)  # (n, n) squared distances
    np.fill_diagonal(d, np.inf)
    size = np.ones(n)
    merges, chain = [], []
    while len(merges) < n - 1:
        if not chain:
            chain.append(int(np.argmax(np.isfinite(size))))  # lowest live slot
        a = chain[-1]
        b = int(np.argmin(d[a]))
        if len(chain) > 1 and d[a, chain[-2]] <= d[a, b]:
            b = chain[-2]  # prefer the chain's previous element on ties, so the chain always ends
        if len(chain) < 2 or b != chain[-2]:
            chain.append(b)
            continue
        chain = chain[:-2]  # a and b are reciprocal nearest neighbours: merge them
        lo, hi = min(a, b), max(a, b)
        h = float(d[a, b])
        sa, sb = size[lo], size[hi]
        live = np.isfinite(size)
        live[lo] = live[hi] = False
        sk = size[live]  # (m,) sizes of the other live clusters
        new = np.full(n, np.inf)  # (n,) distances to the merged cluster; dead slots stay at inf
        new[live] = ((sa + sk) * d[lo, live] + (sb + sk) * d[hi, live] - sk * h) / (sa + sb + sk)  # Lance-Williams
        d[lo], d[:, lo] = new, new
        d[hi], d[:, hi] = np.inf, np.inf
        size[lo], size[hi] = sa + sb, np.inf
        merges.append((lo, hi, h))
    order = sorted(range(len(merges)), key=lambda i: (merges[i][2], i))  # stable: equal heights in merge order
    return [merges[i] for i in order]


def cut(merges, n, k):
    """Cluster labels (n,) after the first n - k merges; clusters numbered by their smallest member."""
    parent = list(range(n))

    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i
    for a, b, _ in merges[:n - k]:
        ra, rb = root(a), root(b)
        parent[max(ra, rb)] = min(ra, rb)  # the root is always the cluster's smallest leaf
    roots = [root(i) for i in range(n)]
    first = {r: j for j, r in enumerate(sorted(set(roots)))}
    return [first[r] for r in roots]


# ---------------------------------------------------------------------------- naming

def stem(word):
    """A rough singular, so "flights" and "flight" count as one term."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    return word[:-1] if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3 else word


def cluster_terms(docs, labels, k, top=5):
    """Per cluster, its top distinctive terms by c-TF-IDF (BERTopic): tf in the cluster * log(1 + A / total tf).

    A term found in every cluster ranks after those that are not (it distinguishes nothing)."""
    stem_of = {w: stem(w) for d in docs for w in d if w not in NAME_STOP and not w.isdigit() and len(w) > 2}
    keys = {s: j for j, s in enumerate(sorted(set(stem_of.values())))}
    if not keys:
        return [[] for _ in range(k)]
    counts, surface = np.zeros((k, len(keys))), {}  # (k, T) term counts per cluster; (stem, word) -> count
    for d, c in zip(docs, labels):
        for w in (w for w in d if w in stem_of):
            counts[c, keys[stem_of[w]]] += 1
            surface[(stem_of[w], w)] = surface.get((stem_of[w], w), 0) + 1
    tf = counts / np.maximum(counts.sum(1, keepdims=True), 1)  # (k, T)
    idf = np.log(1 + counts.sum(1).mean() / np.maximum(counts.sum(0), 1))  # (T,)
    score, everywhere = tf * idf, (counts > 0).all(0) if k > 1 else np.zeros(len(keys), bool)
    stems = sorted(keys)
    shown = {}  # each stem shown in its most frequent spelling, ties alphabetical
    for (s, w), _ in sorted(surface.items(), key=lambda kv: (-kv[1], kv[0])):
        shown.setdefault(s, w)
    out = []
    for c in range(k):
        ranked = sorted((j for j in range(len(stems)) if counts[c, j] > 0),
                        key=lambda j: (everywhere[j], -score[c, j], stems[j]))
        out.append([shown[stems[j]] for j in ranked[:top]])
    return out


def name_candidates(terms):
    """Readable names from a cluster's top terms, best first: "Flights & Airports", then other pairs, then three."""
    t = [w.title() for w in terms]
    if len(t) < 2:
        return t or ["Miscellaneous"]
    pairs = sorted(((i, j) for i in range(min(4, len(t))) for j in range(i + 1, min(4, len(t)))),
                   key=lambda p: (p[0] + p[1], p[0]))
    return [f"{t[i]} & {t[j]}" for i, j in pairs] + ([f"{t[0]}, {t[1]} & {t[2]}"] if len(t) > 2 else [])


def unique_names(candidates):
    """The first untaken candidate per cluster, in order; else the first one numbered ("Travel 2")."""
    taken, out = set(), []
    for cands in candidates:
        numbered = (f"{cands[0]} {i}" for i in range(2, len(taken) + 3))
        name = next(c for c in [*cands, *numbered] if c.lower() not in taken)
        taken.add(name.lower())
        out.append(name)
    return out


def clean_name(text):
    """A usable category name from an LLM answer ({"name": ...}), or None."""
    obj = chat.extract_json(text) if isinstance(text, str) else None
    name = obj.get("name") if isinstance(obj, dict) else None
    name = " ".join(name.replace("/", "-").split()) if isinstance(name, str) else ""  # "/" separates path levels
    return name if 2 <= len(name) <= 60 else None


def ask_fit(text):
    """True/False from an LLM answer ({"fits": bool}), or None when unusable."""
    obj = chat.extract_json(text) if isinstance(text, str) else None
    return obj["fits"] if isinstance(obj, dict) and isinstance(obj.get("fits"), bool) else None


def spread(items, k):
    """At most k items evenly spaced through the list (members are sorted by id, so the first k share a prefix)."""
    return items[::max(1, -(-len(items) // k))][:k]


def members_of(recs, labels, c):
    """The records whose label is c."""
    return [r for r, lab in zip(recs, labels) if lab == c]


def name_prompt(members, parent=None):
    """Messages asking for one category name covering the member environments."""
    lines = "\n".join(f"- {r['name']}: {r['description'][:300]}" for r in spread(members, 12))
    where = f' (a subcategory of "{parent}")' if parent else ""
    return [{"role": "system", "content": "You organise tool-use environments into a taxonomy."},
            {"role": "user", "content": f"These environments form one category{where}:\n{lines}\n\nGive the category "
             'a short name (2-4 words, Title Case) that covers all of them. Answer with JSON {"name": "..."}.'}]


def fit_prompt(rec, path, others):
    """Messages asking whether one environment belongs in its category."""
    peers = ", ".join(r["name"] for r in spread(others, 5)) or "none"
    return [{"role": "system", "content": "You organise tool-use environments into a taxonomy."},
            {"role": "user", "content": f'Category: "{path}" (other members: {peers}).\nEnvironment: {rec["name"]}: '
             f'{rec["description"][:500]}\n\nDoes this environment belong in this category? Answer with JSON '
             '{"fits": true} or {"fits": false}.'}]


def llm_answers(client, batch):
    """Answer texts for a batch of message lists; None for a failed request."""
    return [a.get("content") if "error" not in a else None for a in client.chat_many(batch)]


# ---------------------------------------------------------------------------- main

if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    # I/O
    ap.add_argument("--run-dir", required=True, help="run folder holding 03_filter/")
    ap.add_argument("--limit", type=int, default=0, help="first N kept environments by id (0 = all)")
    ap.add_argument("--force", action="store_true", help="redo a finished stage")
    # Taxonomy
    ap.add_argument("--l1", type=int, default=20, help="level-1 categories (capped on small runs, see above)")
    ap.add_argument("--l2", type=int, default=50, help="level-2 categories in all (capped on small runs)")
    ap.add_argument("--embed", default="tfidf", help="tfidf (TF-IDF + SVD) | hf:PATH (mean-pooled hidden states)")
    ap.add_argument("--dims", type=int, default=64, help="SVD dimensions of the TF-IDF embedding")
    # Model
    ap.add_argument("--device", default="cpu", help="torch device for --embed hf:PATH and --llm hf:PATH")
    llm.add_llm_args(ap)
    # Runtime
    ap.add_argument("--seed", type=int, default=0, help="seed of the randomized SVD (used above 300 environments)")
    ap.add_argument("--workers", type=int, default=8, help="concurrent LLM requests")
    args = ap.parse_args()
    stage = runfolder.begin(args, "04_taxonomy")
    client = llm.llm_from_args(args, stage.path("llm_cache"))

    src = os.path.join(args.run_dir, "03_filter")
    kept = runfolder.read_jsonl(stage.input(os.path.join(src, "kept.jsonl")), "env_kept")
    kept = sorted(kept, key=lambda r: r["id"])[:args.limit or None]
    stage.input(os.path.join(src, "envs"))
    if not kept:
        sys.exit("04_taxonomy: 03_filter kept no environments; nothing to organise")
    recs = [env_record(os.path.join(src, "envs", r["id"]), r["id"], [t["name"] for t in r.get("tools", [])])
            for r in kept]
    n = len(recs)
    k1, k2 = level_sizes(n, args.l1, args.l2)
    print(f"04_taxonomy: {n} environments -> {k1} / {k2} / {n} (requested {args.l1} / {args.l2}); embed {args.embed}; "
          f"Ward linkage; naming {'llm ' + args.llm if client else 'c-TF-IDF'}")

    # ---- embed and cluster: one dendrogram, cut twice, so level 2 nests in level 1
    docs = [tokenize(r["text"]) for r in recs]
    if args.embed == "tfidf":
        emb, vocab = tfidf_svd(docs, args.dims, args.seed)
        method = {"embed": "tfidf-svd", "dims": int(emb.shape[1]), "vocab": vocab}
    elif args.embed.startswith("hf:"):
        emb = embed_hf([r["text"] for r in recs], args.embed[3:], args.device)
        model = os.path.basename(args.embed[3:].rstrip("/"))
        method = {"embed": "hf-mean-pool", "model": model, "dims": int(emb.shape[1])}
    else:
        sys.exit(f"--embed must be tfidf or hf:PATH, got {args.embed!r}")
    merges = ward_merges(emb)  # (n - 1) merges
    lab1, lab2 = cut(merges, n, k1), cut(merges, n, k2)  # (n,) cluster index per environment
    parent = {c2: c1 for c1, c2 in zip(lab1, lab2)}  # level-2 cluster -> its level-1 cluster

    # ---- offline names: distinctive terms per cluster, unique per level
    words = [tokenize(r["subject"]) for r in recs]  # names come from what an environment is about, not its schema
    cands1 = [name_candidates(t) for t in cluster_terms(words, lab1, k1)]
    cands2 = [name_candidates(t) for t in cluster_terms(words, lab2, k2)]
    names1, names2 = unique_names(cands1), unique_names(cands2)
    method.update(linkage="ward (nearest-neighbour chain)", naming="c-tf-idf")

    # ---- LLM: name each cluster, check each member, move misfits to the most similar other level-2 cluster
    if client:
        got1 = [clean_name(a) for a in llm_answers(client, [name_prompt(members_of(recs, lab1, c))
                                                            for c in range(k1)])]
        names1 = unique_names([[g] + c if g else c for g, c in zip(got1, cands1)])  # duplicates fall back too
        got2 = [clean_name(a) for a in llm_answers(client, [name_prompt(members_of(recs, lab2, c), names1[parent[c]])
                                                            for c in range(k2)])]
        names2 = unique_names([[g] + c if g else c for g, c in zip(got2, cands2)])
        fits = [ask_fit(a) for a in llm_answers(client, [
            fit_prompt(r, f"{names1[parent[c]]} > {names2[c]}", [o for o in members_of(recs, lab2, c) if o is not r])
            for r, c in zip(recs, lab2)])]
        # centroids of the clustering as found, so moves do not depend on the order they are made in
        cent = np.stack([emb[np.array(lab2) == c].mean(0) for c in range(k2)])  # (k2, d)
        cent /= np.maximum(np.linalg.norm(cent, axis=1, keepdims=True), 1e-12)
        sizes, moves = np.bincount(lab2, minlength=k2), []
        for i, ok in enumerate(fits):
            own = lab2[i]
            if ok is False and sizes[own] > 1 and k2 > 1:
                sim = cent @ emb[i]  # (k2,) cosine to each cluster
                sim[own] = -np.inf
                to = int(np.argmax(sim))
                sizes[own], sizes[to], lab2[i] = sizes[own] - 1, sizes[to] + 1, to
                moves.append({"id": recs[i]["id"], "from": names2[own], "to": names2[to]})
        lab1 = [parent[c] for c in lab2]
        method.update(naming=f"llm ({args.llm})", name_fallbacks=sum(g is None for g in got1 + got2),
                      fit_checks=len(fits), fit_unusable=sum(f is None for f in fits), moves=moves)

    # ---- leaves, labels and the tree
    seen = Counter(r["name"] for r in recs)  # a theme name shared by two environments gets their ids added
    leaf = [(f"{r['name']} ({r['id']})" if seen[r["name"]] > 1 else r["name"]).replace("/", "-") for r in recs]
    labels = [{"id": r["id"], "l1": names1[c1], "l2": names2[c2], "l3": l3, "path": f"{names1[c1]}/{names2[c2]}/{l3}"}
              for r, c1, c2, l3 in zip(recs, lab1, lab2, leaf)]
    tree = []
    for c1 in sorted(set(lab1), key=lambda c: names1[c]):
        kids = []
        for c2 in sorted({c for c in lab2 if parent[c] == c1}, key=lambda c: names2[c]):
            leaves = sorted(({"name": lb["l3"], "env_id": lb["id"]} for lb, c in zip(labels, lab2) if c == c2),
                            key=lambda x: (x["name"], x["env_id"]))
            kids.append({"name": names2[c2], "children": leaves})
        tree.append({"name": names1[c1], "children": kids})
    taxonomy = {"levels": [len(tree), sum(len(t["children"]) for t in tree), n], "tree": tree, "method": method}
    stage.write_jsonl("labels.jsonl", labels, "label")
    runfolder.atomic_write(stage.path("taxonomy.json"), json.dumps(taxonomy, indent=1, sort_keys=True) + "\n")
    stage.record_output("taxonomy.json", "taxonomy")
    stage.finish({"envs": n, "l1": taxonomy["levels"][0], "l2": taxonomy["levels"][1],
                  "moves": len(method.get("moves", []))}, llm=client.usage if client else None)

    # ---- the tree, compactly, and one record
    for t in tree:
        print(f"{t['name']} ({sum(len(k['children']) for k in t['children'])})")
        for k in t["children"]:
            names = [x["name"] for x in k["children"]]  # three leaves per category, then how many more
            print(f"  {k['name']} ({len(names)}): {', '.join(names[:3])}" + (f" +{len(names) - 3}" * (len(names) > 3)))
    print(json.dumps(labels[0], ensure_ascii=False))
    moved = f", {len(method['moves'])} moved by the LLM check" if client else ""
    print(f"04_taxonomy: {n} environments in {taxonomy['levels'][0]} / {taxonomy['levels'][1]} categories{moved}; "
          f"wrote {stage.dir}")
