"""Checks of the applied search/ingest fixes, measured on the shipped code next to the old behaviour.

Each measure switches one fix off from outside `rag_core` for the length of the
measurement (the GC freeze, Chroma's document payload, the visibility cache),
so the report can show what the fix still buys on this machine; one more times
the vector stage on a path the synthetic stores never take (versions hidden
inside a visible audience partition). The before/after comparison of whole runs
is in the report (`render_before_after`); this module only adds what a saved run
of the old code cannot show.
"""

from __future__ import annotations

import gc
import tempfile
import time
from datetime import date
from pathlib import Path

import numpy as np

from bench.perf_common import Timer, percentile, questions

ROLE = "all"  # the app's default role: the filtered path


def _wall(assistant, qs: list[str], role: str = ROLE) -> dict[str, float]:
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


def _gc_states(a, qs: list[str]) -> dict:
    """Search latency and a full collection's cost with the keyword index frozen out of the GC, and without."""
    shipped_frozen = gc.get_freeze_count() > 0
    out: dict = {"shipped_frozen": shipped_frozen, "frozen_objects": gc.get_freeze_count()}

    def measure(label: str) -> None:
        with Timer() as t:
            gc.collect()
        out[label] = {"gc_collect_ms": t.ms, **_wall(a, qs)}

    measure("frozen" if shipped_frozen else "unfrozen")
    if shipped_frozen:
        gc.unfreeze()
        measure("unfrozen")
        gc.collect()
        gc.freeze()  # back to the shipped state
    else:
        gc.collect()
        gc.freeze()
        measure("frozen")
        gc.unfreeze()
    return out


def _filter_miss_ms(a, role: str = ROLE) -> float:
    """The filter stage when its caches are cold: what the first question after a catalog change pays."""
    from rag_core.search.visibility import visible_versions

    def once() -> None:
        visible = visible_versions(a.catalog.live_versions(), a.catalog.pending(), date.today(), role)
        a.keywords._views = {}  # drop the cached views, as an ingest does (the doc key map is kept up to date)
        a.keywords.view(visible)

    return _per_call_ms(once, [()] * 5)


HIDDEN_TARGETS = (0, 200, 1000, 3000)  # chunks of versions not in effect inside the visible partitions


def _hidden_versions(a, qs: list[str], role: str = ROLE) -> list[dict]:
    """The vector stage when visible partitions also hold versions the role must not see (scheduled, being written).

    The synthetic stores have none, so some visible versions are declared hidden in the scope: a few hundred
    chunks are dropped from an over-fetched result, more switch the query to a `where doc_key $nin` filter.
    """
    from dataclasses import replace

    from rag_core.search.vector_store import MAX_OVERFETCH, doc_key

    visible = a.retriever.visible(role)
    n = a.settings.candidates
    total = sum(d.chunk_count for d in visible.active)
    qvecs = [a.embedder.embed_query(q) for q in qs[:20]]
    rows = []
    for target in HIDDEN_TARGETS:
        keys, chunks, audiences = [], 0, set()
        for d in visible.active:
            if chunks >= target:
                break
            keys.append(doc_key(d.doc_id, d.version))
            chunks += d.chunk_count
            audiences.add(d.audience)
        if target and chunks > total / 2:
            continue  # a small store: hiding this much would leave little to search
        scope = replace(visible.scope, hidden_keys=visible.scope.hidden_keys | frozenset(keys),
                        hidden_chunks=visible.scope.hidden_chunks + chunks,
                        hidden_audiences=(visible.scope.hidden_audiences or frozenset()) | audiences)
        times = []
        for v in qvecs:
            with Timer() as t:
                a.vectors.query(v, n, scope)
            times.append(t.ms)
        path = "none" if not scope.hidden_keys else ("$nin" if n + scope.hidden_chunks > MAX_OVERFETCH else "over-fetch")
        rows.append({"hidden_chunks": scope.hidden_chunks, "path": path,
                     "p50": percentile(times, 50), "p95": percentile(times, 95)})
    return rows


def measure_after(assistant) -> dict:
    a = assistant
    qs = questions()
    out: dict = {"chunks": a.catalog.chunk_count(), "role": ROLE}
    for q in qs:  # warm-up
        a.search(q, role=ROLE)
    out["gc"] = _gc_states(a, qs)
    out["filter_cached_ms"] = _per_call_ms(lambda: a.retriever.visible(ROLE), [()] * 100)
    out["filter_miss_ms"] = _filter_miss_ms(a)
    out["hidden_versions_vector_ms"] = _hidden_versions(a, qs)
    out["chroma_upsert_ms_per_call"] = _chroma_payloads(a)
    return out


UPSERT_SHIPPED = "metadata, no documents (as shipped)"
UPSERT_BEFORE = "documents + metadata (before)"


def _chroma_payloads(a, calls: int = 60, per_call: int = 14) -> dict[str, float]:
    """Per-document upserts (14 chunks) into a scratch collection: the shipped payload vs the chunk text added."""
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    from rag_core.search.vector_store import _metadata

    ids = a.vectors.ids()[: calls * per_call]
    vecs = a.vectors.get_vectors(ids)
    chunks = a.catalog.chunks_by_id(ids)
    ids = [i for i in ids if i in chunks and i in vecs]
    batches = [ids[i : i + per_call] for i in range(0, len(ids), per_call)]
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        client = chromadb.PersistentClient(path=str(Path(tmp)), settings=ChromaSettings(anonymized_telemetry=False))
        warm = client.get_or_create_collection("after_warm_up", embedding_function=None)
        for batch in batches[:3]:  # the client's first writes pay one-time set-up: keep them out of both
            warm.upsert(ids=batch, embeddings=np.vstack([vecs[i] for i in batch]))
        for name, with_text in ((UPSERT_SHIPPED, False), (UPSERT_BEFORE, True)):
            col = client.get_or_create_collection(
                "after_text" if with_text else "after_lean", configuration={"hnsw": {"space": "cosine"}},
                embedding_function=None)

            def upsert(batch, col=col, with_text=with_text) -> None:
                cs = [chunks[i] for i in batch]
                extra = {"documents": [c.text for c in cs]} if with_text else {}
                col.upsert(ids=batch, embeddings=np.vstack([vecs[i] for i in batch]),
                           metadatas=[_metadata(c) for c in cs], **extra)

            out[name] = _per_call_ms(upsert, [(b,) for b in batches])
    return out
