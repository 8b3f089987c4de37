"""What-if measurements: the cost of each slow part found, and of its suggested fix.

Nothing in rag_core is changed: each fix is measured from outside on the same
store in the same process (a cache, a different call, a different Chroma
payload), so the report can say what the change would buy before anyone makes it.
"""

from __future__ import annotations

import gc
import heapq
import pickle
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

import numpy as np

from bench.perf_common import Timer, percentile, questions


def _wall(assistant, qs: list[str], role: str) -> dict[str, float]:
    times, filters = [], []
    for q in qs:
        t0 = time.perf_counter()
        res = assistant.search(q, role=role)
        times.append((time.perf_counter() - t0) * 1000)
        filters.append(res.timings_ms.get("filter_ms", 0.0))
    return {"p50": percentile(times, 50), "p95": percentile(times, 95), "filter_p95": percentile(filters, 95)}


def _per_call_ms(fn, args_list) -> float:
    with Timer() as t:
        for args in args_list:
            fn(*args)
    return t.ms / max(1, len(args_list))


def measure_whatif(assistant) -> dict:
    from rag_core.fusion import ranks
    from rag_core.tokenizer import expand_query
    from rag_core.vector_store import doc_key

    a = assistant
    qs = questions()
    out: dict = {"chunks": a.catalog.chunk_count()}
    for q in qs:
        a.search(q, role="hr")

    # 1) the cyclic garbage collector walking the keyword index's millions of references
    with Timer() as t:
        gc.collect()
    out["gc_collect_ms"] = t.ms
    out["search_default_gc"] = _wall(a, qs, "hr")
    gc.freeze()
    out["search_after_gc_freeze"] = _wall(a, qs, "hr")
    gc.unfreeze()

    # 2) the filter stage: active versions + visible set, recomputed per question
    today = date.today()

    def filter_stage(role: str) -> None:
        keys = [doc_key(d.doc_id, d.version) for d in a.catalog.active_versions(today, role)]
        a.keywords.chunk_ids_of(keys)

    out["filter_stage_ms"] = {role: _per_call_ms(filter_stage, [(role,)] * 10) for role in ("hr", "all")}
    cache = {("hr", a.catalog.generation()): 1}
    out["filter_cached_ms"] = _per_call_ms(lambda: (a.catalog.generation(), cache.get(("hr", 0))), [()] * 100)

    # 3) fusion: sorting every BM25-scored chunk vs taking the top `candidates`
    n = a.settings.candidates
    scored = []
    for q in qs:
        tokens, added, _ = expand_query(q)
        scored.append(a.keywords.score(tokens + added, None))
    out["bm25_scored_chunks_mean"] = float(np.mean([len(s) for s in scored]))
    out["ranks_full_sort_ms"] = _per_call_ms(ranks, [(s,) for s in scored])
    out["ranks_nlargest_ms"] = _per_call_ms(
        lambda s: heapq.nsmallest(n, s.items(), key=lambda kv: (-kv[1], kv[0])), [(s,) for s in scored])

    # 4) BM25 restricted to a role: the per-question pass over the visible set for N and avgdl
    keys = [doc_key(d.doc_id, d.version) for d in a.catalog.active_versions(today, "all")]
    allowed = a.keywords.chunk_ids_of(keys)
    if allowed is not None:
        lengths = a.keywords._index.lengths  # the statistics pass InvertedIndex.score repeats per question

        def stats() -> None:
            visible = [c for c in allowed if c in lengths]
            sum(lengths[c] for c in visible)

        out["bm25_visible_stats_ms"] = _per_call_ms(stats, [()] * 20)

    # 5) memory of the token lists: one str object per token occurrence vs interned
    rows = list(a.catalog.token_rows())
    occurrences = sum(sys.getsizeof(t) for _, toks in rows for t in toks)
    vocab = {t for _, toks in rows for t in toks}
    out["token_strings_mib"] = occurrences / 1048576
    out["token_strings_interned_mib"] = sum(sys.getsizeof(t) for t in vocab) / 1048576
    out["vocabulary"] = len(vocab)
    out["token_occurrences"] = sum(len(toks) for _, toks in rows)
    del rows

    # 6) start-up: rebuilding the BM25 index from JSON tokens vs loading a snapshot of it
    with Timer() as t:
        a.keywords.reload()
    out["keyword_reload_s"] = t.s
    index = a.keywords._index
    blob = pickle.dumps((index.postings, index.lengths, index.total_len), protocol=pickle.HIGHEST_PROTOCOL)
    with Timer() as t:
        pickle.loads(blob)
    out["snapshot_load_s"] = t.s
    out["snapshot_mib"] = len(blob) / 1048576
    del blob

    out["chroma_upsert_ms_per_call"] = _chroma_payloads(a)
    return out


def _chroma_payloads(a, calls: int = 60, per_call: int = 14) -> dict[str, float]:
    """Per-document upserts (14 chunks) with today's payload vs ids + vectors + doc_key only."""
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    from rag_core.vector_store import _metadata, doc_key

    ids = a.vectors.ids()[: calls * per_call]
    vecs = a.vectors.get_vectors(ids)
    chunks = a.catalog.chunks_by_id(ids)
    ids = [i for i in ids if i in chunks and i in vecs]
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        client = chromadb.PersistentClient(path=str(Path(tmp)), settings=ChromaSettings(anonymized_telemetry=False))
        for name, full in (("documents + all metadata (today)", True), ("vectors + doc_key only", False)):
            col = client.get_or_create_collection(
                "whatif_full" if full else "whatif_lean", configuration={"hnsw": {"space": "cosine"}},
                embedding_function=None)
            batches = [ids[i : i + per_call] for i in range(0, len(ids), per_call)]

            def upsert(batch, col=col, full=full) -> None:
                cs = [chunks[i] for i in batch]
                kwargs = {"documents": [c.text for c in cs], "metadatas": [_metadata(c) for c in cs]} if full else {
                    "metadatas": [{"doc_key": doc_key(c.doc_id, c.version)} for c in cs]}
                col.upsert(ids=batch, embeddings=np.vstack([vecs[i] for i in batch]), **kwargs)

            out[name] = _per_call_ms(upsert, [(b,) for b in batches])
    return out
