"""Lexical retrieval in numpy (BM25, TF-IDF cosine) and two search backends with one interface:
a local folder of documents and a SearXNG-style web search (search(query, k) -> hits, browse(ref) -> bytes)."""
import os
import re
import time

import numpy as np

TOKEN = re.compile(r"[a-z0-9]+")
STOP = {"the", "and", "for", "with", "that", "this", "from", "are", "you", "your", "can", "all", "its", "into",
        "via", "of", "to", "in", "on", "an", "a", "or", "by", "is", "be", "as", "at", "it"}


def tokenize(text):
    """Lower-case alphanumeric tokens, stop words and 1-letter tokens removed; snake/camel parts split."""
    text = re.sub(r"([a-z])([A-Z])", r"\1 \2", str(text)).replace("_", " ").lower()
    return [w for w in TOKEN.findall(text) if len(w) > 1 and w not in STOP]


class BM25:
    """Okapi BM25 over tokenized documents; postings as numpy arrays, scores accumulated per query term."""

    def __init__(self, docs, k1=1.5, b=0.75):
        self.k1, self.b, self.n = k1, b, len(docs)
        self.lengths = np.array([len(d) for d in docs], dtype=np.float64)  # (N,)
        avg = self.lengths.mean() if self.n and self.lengths.mean() > 0 else 1.0
        self.norm = k1 * (1 - b + b * self.lengths / avg)  # (N,) length normalisation per document
        post = {}
        for i, d in enumerate(docs):
            counts = {}
            for w in d:
                counts[w] = counts.get(w, 0) + 1
            for w, c in counts.items():
                post.setdefault(w, []).append((i, c))
        self.post = {w: (np.array([p[0] for p in ps]), np.array([p[1] for p in ps], dtype=np.float64))
                     for w, ps in post.items()}

    def scores(self, query_tokens):
        """BM25 score of every document for the query: (N,)."""
        out = np.zeros(self.n)
        for w in dict.fromkeys(query_tokens):  # each distinct query term once, in query order
            if w not in self.post:
                continue
            idx, tf = self.post[w]
            idf = np.log(1 + (self.n - len(idx) + 0.5) / (len(idx) + 0.5))
            out[idx] += idf * tf * (self.k1 + 1) / (tf + self.norm[idx])
        return out

    def top(self, query_tokens, k):
        """Indices and scores of the k best documents with a positive score, best first (ties by index)."""
        s = self.scores(query_tokens)
        order = np.lexsort((np.arange(self.n), -s))[:k]
        return [(int(i), float(s[i])) for i in order if s[i] > 0]


class TfIdf:
    """TF-IDF vectors (log tf, smoothed idf, L2-normalised) over a vocabulary fitted on some texts."""

    def __init__(self, texts):
        docs = [tokenize(t) for t in texts]
        self.vocab = {w: i for i, w in enumerate(sorted({w for d in docs for w in d}))}
        df = np.zeros(len(self.vocab))
        for d in docs:
            for w in set(d):
                df[self.vocab[w]] += 1
        self.idf = np.log((1 + len(docs)) / (1 + df)) + 1  # (V,)

    def transform(self, texts):
        """(len(texts), V) rows of unit length (zero rows for texts with no known words)."""
        m = np.zeros((len(texts), len(self.vocab)))
        for i, t in enumerate(texts):
            for w in tokenize(t):
                if w in self.vocab:
                    m[i, self.vocab[w]] += 1
        m = np.log1p(m) * self.idf
        return m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-12)


def cosine_matrix(a_texts, b_texts):
    """TF-IDF cosine similarity of every text in a to every text in b: (len(a), len(b))."""
    v = TfIdf(list(a_texts) + list(b_texts))
    return v.transform(a_texts) @ v.transform(b_texts).T


# ---------------------------------------------------------------------------- backends

class Corpus:
    """A folder of documents: BM25 over each file's path and first `index_bytes`; browse reads a file."""

    def __init__(self, root, index_bytes=65536, max_bytes=2_000_000):
        self.root, self.max_bytes = os.path.abspath(root), max_bytes
        self.files = []
        for base, dirs, names in os.walk(self.root):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            self.files += sorted(os.path.relpath(os.path.join(base, n), self.root) for n in names
                                 if not n.startswith(".") and n != "SOURCES.md")
        self.files.sort()
        docs = []
        for rel in self.files:
            with open(os.path.join(self.root, rel), "rb") as f:
                head = f.read(index_bytes)
            docs.append(tokenize(rel) * 3 + tokenize(head.decode("utf-8", errors="ignore")))  # path words weigh more
        self.bm25 = BM25(docs)
        self.by_topic = {}  # topic folder -> indices of its files, in file order
        for i, rel in enumerate(self.files):
            self.by_topic.setdefault(self.topic(rel), []).append(i)

    def topic(self, ref):
        """The top-level folder a document lives in ('' for files at the root)."""
        return ref.split("/", 1)[0] if "/" in ref else ""

    def search(self, query, k=10):
        """[{"url", "title", "content", "score"}] best first."""
        hits = []
        for i, s in self.bm25.top(tokenize(query), k):
            rel = self.files[i]
            hits.append({"url": rel, "title": rel, "content": self.snippet(rel), "score": round(s, 4)})
        return hits

    def search_topic(self, query, topic, k=10):
        """The files of one topic folder among search(query, k)'s hits, in their order, without reading snippets.

        Scores are those of the whole corpus (idf, lengths); only the ranking is cut to the folder."""
        s = self.bm25.scores(tokenize(query))
        idx = np.array(self.by_topic.get(topic, []), dtype=np.int64)
        idx = idx[s[idx] > 0]
        if np.count_nonzero(s > 0) > k:  # the cut to the k best of the whole corpus reaches into the hits
            top = np.lexsort((np.arange(self.bm25.n), -s))[:k]
            idx = idx[np.isin(idx, top)]
        order = idx[np.lexsort((idx, -s[idx]))]
        return [self.files[i] for i in order]

    def snippet(self, rel, n=200):
        """The first n characters of a file, whitespace collapsed."""
        with open(os.path.join(self.root, rel), "rb") as f:
            return " ".join(f.read(n * 2).decode("utf-8", errors="replace").split())[:n]

    def browse(self, ref):
        """A document's bytes (at most max_bytes + 1, so callers can tell it was too large)."""
        path = os.path.realpath(os.path.join(self.root, ref))
        if not path.startswith(self.root + os.sep) or not os.path.isfile(path):
            raise FileNotFoundError(f"no document {ref!r} in the corpus")
        with open(path, "rb") as f:
            return f.read(self.max_bytes + 1)


class Web:
    """A SearXNG-style JSON search endpoint plus polite HTTP fetching (a delay between requests, a size cap)."""

    def __init__(self, search_url, max_bytes=2_000_000, delay_s=1.0, timeout=20.0):
        import requests  # only the web backend needs it
        self.requests, self.search_url, self.max_bytes = requests, search_url, max_bytes
        self.delay_s, self.timeout, self.last = delay_s, timeout, 0.0
        self.session = requests.Session()
        self.session.headers["User-Agent"] = "agent-world-repro/0.1 (research; polite crawler)"

    def _wait(self):
        """Sleep so that requests are at least delay_s apart."""
        gap = self.last + self.delay_s - time.monotonic()
        if gap > 0:
            time.sleep(gap)
        self.last = time.monotonic()

    def topic(self, ref):
        """Web results share one 'topic': the query that found them."""
        return ""

    def search(self, query, k=10):
        """GET {url}?q=...&format=json -> [{"url", "title", "content"}]."""
        self._wait()
        r = self.session.get(self.search_url, params={"q": query, "format": "json"}, timeout=self.timeout)
        r.raise_for_status()
        results = r.json().get("results") or []
        return [{"url": x.get("url", ""), "title": x.get("title", ""), "content": x.get("content", "")[:300]}
                for x in results[:k] if isinstance(x, dict) and x.get("url")]

    def browse(self, ref):
        """A page's bytes, reading at most max_bytes + 1."""
        if not re.match(r"https?://", ref):
            raise ValueError(f"not an http(s) URL: {ref!r}")
        self._wait()
        with self.session.get(ref, timeout=self.timeout, stream=True) as r:
            r.raise_for_status()
            data = b""
            for chunk in r.iter_content(65536):
                data += chunk
                if len(data) > self.max_bytes:
                    break
        return data
