"""Baselines measured in the same process, on the same tokens and vectors as the store.

BM25: our `InvertedIndex.score` (what `KeywordIndex` runs) against
`rank_bm25.BM25Okapi.get_scores` (what a typical tutorial uses), `bm25s`
(sparse matrices, same Lucene IDF as ours) and a pure-Python loop over every
chunk (a tutorial's / the seed's approach, with the index precomputed).
Vectors: Chroma's HNSW query against brute-force numpy `V @ q` + argpartition,
unfiltered and restricted to the chunks a role may see — the store's audience
partitions (as shipped) next to the `where doc_key $in` filter the store used
before them, emulated on the same partitions. `render_baselines` turns the
results into the report's tables.
"""

from __future__ import annotations

import math
import sys
from collections import Counter

import numpy as np

from bench.common import Timer, dig, size_label, summary, table
from rag_core.search.bm25 import K1, B, InvertedIndex

TOP = 10
# Names of the measured variants (keys of the results). Older results files spell the $in filter "(as today)".
BM25_FILTERED = "ours, filtered to role 'all'"
BM25_FILTERED_BEFORE = "ours, role 'all', statistics per question (before)"
VEC_PARTITIONS = "Chroma HNSW, role 'all' (audience partitions, as shipped)"
VEC_IN = ("Chroma HNSW, where doc_key $in visible (before)", "Chroma HNSW, where doc_key $in visible (as today)")


class LoopBM25:
    """Textbook BM25: counts precomputed once, every chunk scored in a Python loop per query."""

    def __init__(self, corpus: list[list[str]], k1: float = K1, b: float = B):
        self.k1, self.b = k1, b
        self.tfs = [Counter(doc) for doc in corpus]
        self.lengths = [len(doc) for doc in corpus]
        self.avg = sum(self.lengths) / max(1, len(corpus))
        df: Counter = Counter()
        for tf in self.tfs:
            df.update(tf.keys())
        n = len(corpus)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}

    def get_scores(self, query: list[str]) -> list[float]:
        terms = list(dict.fromkeys(query))
        scores = []
        for tf, length in zip(self.tfs, self.lengths):
            s = 0.0
            for term in terms:
                f = tf.get(term)
                if f:
                    s += self.idf[term] * f * (self.k1 + 1) / (f + self.k1 * (1 - self.b + self.b * length / self.avg))
            scores.append(s)
        return scores


def _dense(scores, position: dict[str, int]) -> np.ndarray:
    """Scores as one float64 array over the corpus (a dict's missing chunks score 0)."""
    if isinstance(scores, dict):
        arr = np.zeros(len(position))
        for cid, s in scores.items():
            arr[position[cid]] = s
        return arr
    return np.asarray(scores, dtype=np.float64)


def _top_with_ties(arr: np.ndarray, k: int = TOP) -> set[int]:
    """Indices scoring at least the k-th best positive score (near-duplicate chunks tie)."""
    positive = arr[arr > 0]
    if not len(positive):
        return set()
    kth = np.sort(positive)[-min(k, len(positive))]
    return set(np.flatnonzero(arr >= kth - 1e-6 * abs(kth)).tolist())


def _visible(assistant, role: str):
    """What `role` sees today as the retriever computes it: (Visible, KeywordView or None for everything)."""
    visible = assistant.retriever.visible(role)
    view = assistant.keywords.view(visible)
    return visible, (None if view.allowed is None else view)  # None: every chunk is visible


def _bm25s_scores(index, query: list[str], n: int) -> np.ndarray:
    """bm25s's Lucene variant drops BM25's (k1 + 1) factor; scaling it back makes scores comparable."""
    known = [t for t in query if t in index.vocab_dict]
    return index.get_scores(known) * (K1 + 1) if known else np.zeros(n, dtype=np.float32)


def bm25_baselines(assistant, qs: list[str], slow_limit: int) -> dict:
    """Per-query scoring time of each implementation on the store's own jieba tokens."""
    import bm25s
    from rank_bm25 import BM25Okapi

    from rag_core.text.tokenizer import expand_query

    # interned like KeywordIndex does (one str object per vocabulary word), for every implementation alike
    rows = [(cid, [sys.intern(t) for t in toks]) for cid, toks in assistant.catalog.token_rows()]
    ids = [cid for cid, _ in rows]
    corpus = [toks for _, toks in rows]
    queries = [list(dict.fromkeys(t + added)) for t, added, _ in (expand_query(q) for q in qs)]
    out: dict = {"chunks": len(ids), "build_s": {}, "score_ms": {}}

    with Timer() as t:
        ours = InvertedIndex()
        for cid, toks in rows:
            ours.add(cid, toks)
    out["build_s"]["ours"] = t.s
    with Timer() as t:
        okapi = BM25Okapi(corpus, k1=K1, b=B)
    out["build_s"]["rank_bm25"] = t.s
    with Timer() as t:
        sparse = bm25s.BM25(k1=K1, b=B, method="lucene")
        sparse.index(corpus, show_progress=False)
    out["build_s"]["bm25s"] = t.s
    with Timer() as t:
        loop = LoopBM25(corpus)
    out["build_s"]["pure Python loop"] = t.s

    _, view = _visible(assistant, "all")
    filtered = view is not None
    out["view_stats_match"] = (not filtered) or ours.stats(view.allowed) == (view.n_docs, view.total_len)
    impls = {
        "ours": lambda q: ours.score(q),
        # as shipped: the visible set and its N / avgdl come from the KeywordView kept between questions
        BM25_FILTERED: (
            (lambda q: ours.score(q, view.allowed, stats=(view.n_docs, view.total_len))) if filtered else None),
        # before: the same filter with N / avgdl recomputed over the visible set for every question
        BM25_FILTERED_BEFORE: (
            (lambda q: ours.score(q, view.allowed)) if filtered else None),
        "rank_bm25 BM25Okapi": okapi.get_scores,
        "bm25s (lucene)": lambda q: _bm25s_scores(sparse, q, len(ids)),
        "pure Python loop": loop.get_scores,
    }
    position = {cid: i for i, cid in enumerate(ids)}
    dense: dict[str, list[np.ndarray]] = {}
    for name, fn in impls.items():
        if fn is None:
            continue
        subset = queries[:slow_limit] if name == "pure Python loop" else queries
        times, dense[name] = [], []
        for q in subset:
            with Timer() as t:
                scores = fn(q)
            times.append(t.ms)
            dense[name].append(_dense(scores, position))
        out["score_ms"][name] = summary(times)
    agree, diff = {}, {}
    for name, arrays in dense.items():
        if name.startswith("ours"):
            continue
        pairs = list(zip(dense["ours"], arrays))
        diff[name] = max(float(np.max(np.abs(a - b))) for a, b in pairs)
        agree[name] = sum(len(_top_with_ties(a) & _top_with_ties(b)) / max(1, len(_top_with_ties(a)))
                          for a, b in pairs) / len(pairs)
    if BM25_FILTERED_BEFORE in dense:  # the kept statistics must give the very scores recomputing them gave
        diff[BM25_FILTERED_BEFORE] = max(float(np.max(np.abs(a - b)))
                                         for a, b in zip(dense[BM25_FILTERED], dense[BM25_FILTERED_BEFORE]))
    out["top10_agreement_with_ours"] = agree
    out["max_abs_score_diff"] = diff
    return out


def _overfetch(store, qvec: np.ndarray, n: int, allowed: set[str], share: float, total: int) -> list[str]:
    """Unfiltered HNSW query over every partition, keep visible ids, widen until n are found."""
    k = min(total, int(n / max(share, 0.05) * 1.5) + 10)
    while True:
        got = [m.chunk_id for m in store.query(qvec, k) if m.chunk_id in allowed]
        if len(got) >= n or k >= total:
            return got[:n]
        k = min(total, k * 4)


def _where_in(store, qvec: np.ndarray, n: int, keys: list[str]) -> list[str]:
    """The store's query before audience partitions: a `where doc_key $in` filter on every collection, merged."""
    query = np.asarray(qvec, dtype=np.float32)[None, :]
    where = {"doc_key": {"$in": keys}} if len(keys) > 1 else {"doc_key": keys[0]}
    found: list[tuple[float, str]] = []
    for col in store._partitions.values():
        res = col.query(query_embeddings=query, n_results=n, where=where, include=["distances"])
        ids = res["ids"][0] if res["ids"] else []
        dists = res["distances"][0] if res["distances"] else []
        found += [(1.0 - float(d), cid) for cid, d in zip(ids, dists)]
    found.sort(key=lambda x: (-x[0], x[1]))
    return [cid for _, cid in found[:n]]


def vector_baselines(assistant, qs: list[str], qvecs: dict[str, np.ndarray]) -> dict:
    """Chroma HNSW vs numpy brute force, unfiltered and filtered; recall@n against exact."""
    store = assistant.vectors
    n = assistant.settings.candidates
    with Timer() as t_get:
        ids = store.ids()
        got = store.get_vectors(ids)
    matrix = np.vstack([got[i] for i in ids]).astype(np.float32)
    out: dict = {"n": n, "chunks": len(ids), "load_vectors_s": t_get.s, "matrix_mib": matrix.nbytes / 1048576,
                 "partitions": {",".join(aud): col.count() for aud, col in store._partitions.items()},
                 "query_ms": {}, "recall": {}}

    def exact(qvec: np.ndarray, mask: np.ndarray | None) -> list[str]:
        s = matrix @ qvec
        if mask is not None:
            s = np.where(mask, s, -np.inf)
        k = min(n, len(s))
        idx = np.argpartition(-s, k - 1)[:k]
        idx = idx[np.argsort(-s[idx])]
        return [ids[i] for i in idx if np.isfinite(s[i])]

    visible, view = _visible(assistant, "all")
    keys = sorted(visible.keys)
    allowed = view.allowed if view is not None else set(ids)
    mask = None if view is None else np.fromiter((i in allowed for i in ids), dtype=bool, count=len(ids))
    share = 1.0 if mask is None else float(mask.mean())
    out["visible_share_role_all"] = share
    total = len(ids)
    impls = {
        "Chroma HNSW": (lambda v: [m.chunk_id for m in store.query(v, n)], lambda v: exact(v, None)),
        VEC_PARTITIONS: (lambda v: [m.chunk_id for m in store.query(v, n, visible.scope)], lambda v: exact(v, mask)),
        "numpy V @ q + argpartition": (lambda v: exact(v, None), lambda v: exact(v, None)),
    }
    if mask is not None and keys:
        impls.update({
            VEC_IN[0]: (lambda v: _where_in(store, v, n, keys), lambda v: exact(v, mask)),
            "Chroma HNSW unfiltered + post-filter (over-fetch)": (
                lambda v: _overfetch(store, v, n, allowed, share, total), lambda v: exact(v, mask)),
            "numpy masked brute force": (lambda v: exact(v, mask), lambda v: exact(v, mask)),
        })
    position = {cid: i for i, cid in enumerate(ids)}
    out["top1_cosine_shortfall"] = {}
    for name, (fn, truth) in impls.items():
        times, recalls, shortfall = [], [], []
        for q in qs:
            v = qvecs[q]
            with Timer() as t:
                res = fn(v)
            times.append(t.ms)
            want = truth(v)
            recalls.append(len(set(res) & set(want)) / max(1, len(want)))
            if res and want:  # how much closer the true nearest chunk is than the one returned first
                shortfall.append(float(matrix[position[want[0]]] @ v - max(matrix[position[r]] @ v for r in res)))
        out["query_ms"][name] = summary(times)
        out["recall"][name] = sum(recalls) / len(recalls)
        out["top1_cosine_shortfall"][name] = float(np.mean(shortfall)) if shortfall else float("nan")
    return out


def _first(d: dict, names) -> object:
    for name in names:
        if name in d:
            return d[name]
    return None


def _recall(value) -> str:
    return "–" if value is None else f"{value:.3f}"


def render_baselines(runs: dict[str, dict]) -> str:
    """The baseline tables of a bench_perf run; `runs` maps a size to its search child's result."""
    bm_rows, vec_rows = [], []
    for size, s in runs.items():
        bm, vec = s.get("bm25"), s.get("vectors")
        if bm:
            ms = {k: v["p50"] for k, v in bm["score_ms"].items()}
            ours = ms["ours"]
            if vec and VEC_PARTITIONS not in vec["query_ms"]:  # a run of the code before the fixes
                ms[BM25_FILTERED_BEFORE] = ms.pop(BM25_FILTERED, None)
            bm_rows.append([size_label(int(size)), ours, ms.get(BM25_FILTERED), ms.get(BM25_FILTERED_BEFORE),
                            ms["rank_bm25 BM25Okapi"], ms["bm25s (lucene)"], ms["pure Python loop"],
                            f"{ms['rank_bm25 BM25Okapi'] / ours:.1f}×", f"{ms['pure Python loop'] / ours:.1f}×",
                            f"{ms['bm25s (lucene)'] / ours:.2f}×",
                            f"{bm['top10_agreement_with_ours']['rank_bm25 BM25Okapi']:.2f}",
                            f"{bm['max_abs_score_diff']['pure Python loop']:.1e} / "
                            f"{bm['max_abs_score_diff']['bm25s (lucene)']:.1e}"])
        if vec:
            q, rec = vec["query_ms"], vec["recall"]
            hn, npy = q["Chroma HNSW"]["p50"], q["numpy V @ q + argpartition"]["p50"]
            part = dig(q, VEC_PARTITIONS, "p50")
            filt = (_first(q, VEC_IN) or {}).get("p50")
            over = dig(q, "Chroma HNSW unfiltered + post-filter (over-fetch)", "p50")
            mask = dig(q, "numpy masked brute force", "p50")
            vec_rows.append([size_label(int(size)), hn, npy, f"{hn / npy:.1f}×", f"{rec['Chroma HNSW']:.3f}",
                             f"{vec.get('top1_cosine_shortfall', {}).get('Chroma HNSW', float('nan')):.4f}",
                             part, filt, over, mask, _recall(rec.get(VEC_PARTITIONS)), _recall(_first(rec, VEC_IN)),
                             vec["matrix_mib"]])
    parts = ["## Baselines (same process, same tokens and vectors)"]
    if bm_rows:
        parts.append("BM25 scoring per question (p50 ms; our expanded query terms; scoring only, no sorting):\n\n" + table(
            ["chunks", "ours", "ours, role 'all' (view, as shipped)", "ours, role 'all', statistics per question "
             "(before)", "rank_bm25", "bm25s", "pure Python loop", "rank_bm25 ÷ ours", "loop ÷ ours", "bm25s ÷ ours",
             "rank_bm25 top-10 agreement", "max score diff loop / bm25s"], bm_rows))
        parts.append("The pure-Python loop is the tutorial approach (per-chunk term counts precomputed, every chunk "
                     "visited per question; first 20 questions). `rank_bm25` uses its own IDF "
                     "(BM25Okapi), hence the top-10 agreement below 1; `bm25s` (method `lucene`, scores × (k1+1)) "
                     "and the loop use ours exactly. Role 'all' as shipped takes the visible chunk set and BM25's N "
                     "and average length from the `KeywordView` kept between questions; before, both were "
                     "recomputed over the visible set for every question (same scores).")
    if vec_rows:
        parts.append("Vector search for the 30 fusion candidates (p50 ms; recall@30 against exact search over the "
                     "same visible chunks; shortfall = how much higher the true nearest chunk's cosine is than the "
                     "best one returned, mean):\n\n" + table(
            ["chunks", "Chroma HNSW", "numpy V @ q", "HNSW ÷ numpy", "HNSW recall", "HNSW top-1 cosine shortfall",
             "role 'all': audience partitions (as shipped)", "role 'all': where doc_key $in (before)",
             "HNSW + post-filter", "numpy masked", "partitions recall", "$in recall", "V matrix MiB"], vec_rows))
        parts.append("Role 'all' as shipped searches only the partition collections its audiences may read "
                     "(`store.query(v, n, visible.scope)`). The `$in` column is the store's query before the "
                     "partitions, emulated on the same collections: every partition queried with "
                     "`where={\"doc_key\": {\"$in\": visible keys}}`, results merged by cosine. Unfiltered "
                     "\"Chroma HNSW\" queries every partition and merges.")
    return "\n\n".join(parts)
