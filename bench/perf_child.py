"""Subprocess entry points of the performance benchmark (one JSON line on stdout each).

    python bench/perf_child.py encoder --model e5 --threads 2
    python bench/perf_child.py ingest --data-dir D --warm-dir D2 --chunks 1000
    python bench/perf_child.py build --data-dir D --pool-dir D1k --chunks 10000
    python bench/perf_child.py build --data-dir D --pool-dir D1k --chunks 100000 --stand-in-second --buffer-upserts 4096
    python bench/perf_child.py search --data-dir D --reps 2 [--baselines]
    python bench/perf_child.py reingest --data-dir D --doc-index 10
    python bench/perf_child.py startup --data-dir D [--cold]

Each runs in its own process so peak RSS, model threads and import costs are
those of a fresh app process. Called by bench/bench_perf.py.
"""

from __future__ import annotations

import time

T_PROCESS = time.perf_counter()

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import CODE_ROOT_VAR, Timer, questions, rss_mib, summary  # noqa: E402

if os.environ.get(CODE_ROOT_VAR):  # measure another tree's rag_core (an older commit) with these scripts
    sys.path.insert(0, os.environ[CODE_ROOT_VAR])

# the retriever's stages (`HybridRetriever.candidates` / `search`); fusion_ms and threshold_ms are older trees' names
STAGES = ("filter_ms", "bm25_ms", "embed_ms", "vector_ms", "sentence_ms", "signals_ms", "decision_ms", "fusion_ms",
          "threshold_ms", "total_ms")


def emit(obj: dict) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def log(msg: str) -> None:
    sys.stderr.write(f"[child {time.strftime('%H:%M:%S')}] {msg}\n")
    sys.stderr.flush()


def open_store(data_dir: Path, **overrides):
    from rag_core.assistant import Assistant

    return Assistant.open(data_dir=data_dir, env_file=None, **overrides)


def sample_texts() -> list[str]:
    """Index texts of the sample policies' chunks (what ingest embeds)."""
    from rag_core.assistant import SAMPLES_DIR
    from rag_core.documents.prepare import index_text, prepare
    from rag_core.settings import Settings

    settings, texts = Settings(), []
    for path in sorted(SAMPLES_DIR.glob("*.md")):
        texts += [index_text(c) for c in prepare(path.read_bytes(), path.name, settings).chunks]
    return texts


# -- encoder thread settings ------------------------------------------------------
def cmd_encoder(args) -> dict:
    from rag_core.search.embedding import E5Embedder, USEEmbedder

    cls = E5Embedder if args.model == "e5" else USEEmbedder
    with Timer() as t_load:
        model = cls(threads=args.threads)
    qs = questions()
    texts = sample_texts()[: args.passages]
    for q in qs[:3]:
        model.embed_query(q)
    lat = []
    for q in qs[: args.queries]:
        with Timer() as t:
            model.embed_query(q)
        lat.append(t.ms)
    rates = {}
    for batch in args.batches:
        with Timer() as t:
            for start in range(0, len(texts), batch):
                model.embed_passages(texts[start : start + batch])
        rates[str(batch)] = len(texts) / t.s
    return {"load_s": t_load.s, "query_ms": summary(lat), "passages_per_s": rates}


# -- end-to-end ingest with the real model --------------------------------------------
def _raw_rate(inner, texts: list[str], batch: int) -> float:
    with Timer() as t:
        for start in range(0, len(texts), batch):
            inner.embed_passages(texts[start : start + batch])
    return len(texts) / t.s


def cmd_ingest(args) -> dict:
    """Ingest vs the bare model, interleaved per document so both see the same machine load."""
    from bench.perf_store import StageClock, ingest_all
    from bench.synthetic import documents_for_chunks
    from rag_core.assistant import Assistant
    from rag_core.documents.prepare import index_text, prepare

    docs = documents_for_chunks(args.chunks, args.seed)
    with Timer() as t_open:
        a = open_store(args.data_dir, embedding_model=args.model)
    settings = a.settings
    with Timer() as t_prep:
        prepared = [prepare(d.data, d.filename, settings, audience=d.audience) for d in docs]
    per_doc = [[index_text(c) for c in p.chunks] for p in prepared]
    texts = [t for group in per_doc for t in group]
    inner, batch = a.embedder.inner, settings.embed_batch_size
    inner.embed_passages(texts[:8])  # warm-up
    log(f"{len(docs)} docs, {len(texts)} chunks ({len(set(texts))} unique texts); raw pass, batches of {batch}")
    raw32 = _raw_rate(inner, texts[:256], batch)
    log(f"raw {raw32:.1f}/s; interleaved raw-per-document / ingest")
    raw_embed = inner.embed_passages  # the bare model, captured before the clock wraps it
    clock = StageClock()
    clock.instrument(a)
    raw_s = e2e_s = 0.0
    chunks = 0
    for doc, group in zip(docs, per_doc):
        with Timer() as t:
            for start in range(0, len(group), batch):
                raw_embed(group[start : start + batch])
        raw_s += t.s
        with Timer() as t:
            rep = a.ingest_bytes(doc.data, doc.filename, audience=doc.audience)
        e2e_s += t.s
        if not rep.ok:
            raise RuntimeError(rep.error)
        chunks += rep.chunk_count
    model_s = clock.seconds.get("model", 0.0)
    first = {"seconds": e2e_s, "chunks": chunks, "breakdown_s": clock.breakdown(e2e_s), "computed": a.embedder.computed}
    log(f"ingest {chunks / e2e_s:.1f}/s vs raw {len(texts) / raw_s:.1f}/s; unchanged re-ingest")

    before = a.embedder.computed
    again = ingest_all(a, docs)
    again["computed"] = a.embedder.computed - before

    # the same files into a fresh catalog and Chroma, with the embedding cache kept (e.g. a rebuild)
    warm_dir = args.warm_dir
    shutil.rmtree(warm_dir, ignore_errors=True)
    warm_dir.mkdir(parents=True)
    for f in args.data_dir.glob("embedding_cache.sqlite3*"):
        shutil.copy(f, warm_dir / f.name)
    b = Assistant(a.settings.with_changes(data_dir=warm_dir), embedder=inner, llm=None)
    log("fresh store, warm embedding cache")
    cached = ingest_all(b, docs)
    cached["computed"] = b.embedder.computed
    return {
        "model": args.model, "docs": len(docs), "chunks": len(texts), "unique_texts": len(set(texts)),
        "open_s": t_open.s, "prepare_only_s": t_prep.s, "batch": batch,
        "raw_rate_batch32": raw32, "raw_rate": len(texts) / raw_s, "model_in_ingest_rate": chunks / model_s,
        "e2e_rate": chunks / e2e_s, "ratio": raw_s / e2e_s,
        "first": first, "unchanged": again, "warm_cache": cached, **rss_mib(),
    }


# -- large stores through the facade with a lookup stand-in for the model ------------
def _buffer_upserts(store, size: int):
    """Collect the facade's per-document Chroma upserts into bulk calls of `size`; returns flush()."""
    import numpy as np

    real = store.upsert
    chunks: list = []
    vectors: list = []

    def flush() -> None:
        if chunks:
            real(list(chunks), np.vstack(vectors))
            chunks.clear()
            vectors.clear()

    def buffered(new_chunks, new_vectors) -> None:
        chunks.extend(new_chunks)
        vectors.append(np.asarray(new_vectors, dtype=np.float32))
        if len(chunks) >= size:
            flush()

    store.upsert = buffered
    return flush


def _defer_centroid_saves(centroid):
    """Write the corpus centroid's parts to the catalog once at the end instead of after every document; returns flush().

    Each save serialises a 384×384 float64 matrix into the catalog (~7 ms a document, a fifth of a
    stood-in ingest); the sums themselves are updated as before, so the saved parts are the same.
    """
    real = centroid._save_part
    dirty: set = set()

    def flush() -> None:
        for audience in sorted(dirty):
            real(audience)
        dirty.clear()

    centroid._save_part = dirty.add
    return flush


def cmd_build(args) -> dict:
    from bench.perf_store import (
        LookupEmbedder,
        StageClock,
        ingest_all,
        pool_from_store,
        second_pool_from_store,
        second_stand_in,
    )
    from bench.synthetic import documents_for_chunks
    from rag_core.assistant import Assistant
    from rag_core.documents.prepare import doc_id_for
    from rag_core.search.embedding import load_second_embedder
    from rag_core.settings import Settings

    docs = documents_for_chunks(args.chunks, args.seed)
    pool = pool_from_store(args.pool_dir)
    embedder = LookupEmbedder(pool)
    settings = Settings.from_env(data_dir=args.data_dir, env_file=None)
    # the second ranking model embeds for real (it is fast), so a grown store has its rows as the app's would
    # and no later child pays a backfill in its open time; --stand-in-second replaces it by its real vectors
    # of another store's chunks and sentences (at 100k its real rows took hours)
    second_pool: dict = {}
    if args.stand_in_second:
        second_pool = second_pool_from_store(args.second_pool_dir or args.pool_dir)
        second = second_stand_in(second_pool)
        log(f"second model stood in by {len(second_pool)} real vectors of {args.second_pool_dir or args.pool_dir}")
    else:
        second = load_second_embedder(settings.second_embedding_model, settings.embedding_model)
    a = Assistant(settings, embedder=embedder, second_embedder=second, llm=None)
    present = {d.doc_id for d in a.catalog.live_versions()}
    todo = [d for d in docs if doc_id_for(d.filename) not in present]
    start_chunks = a.catalog.chunk_count()
    log(f"building {args.data_dir.name}: {len(todo)} new documents on top of {start_chunks} chunks")
    flush = _buffer_upserts(a.vectors, args.buffer_upserts) if args.buffer_upserts else None
    flush_centroid = _defer_centroid_saves(a.centroid)
    clock = StageClock()
    clock.instrument(a)
    done = [0]

    def progress(rep) -> None:
        done[0] += 1
        if done[0] % 500 == 0:
            log(f"  {done[0]}/{len(todo)} documents")

    res = ingest_all(a, todo, progress)
    if flush:
        with Timer() as t:
            flush()
        res["seconds"] += t.s
        clock.seconds["chroma upsert"] += t.s
    with Timer() as t:
        flush_centroid()
    res["seconds"] += t.s
    res["breakdown_s"] = clock.breakdown(res["seconds"])
    res["upserts_buffered"] = args.buffer_upserts
    return {"pool_vectors": len(pool), "second_stand_in": bool(args.stand_in_second),
            "second_pool_vectors": len(second_pool), "docs_added": len(todo), "start_chunks": start_chunks,
            "total_chunks": a.catalog.chunk_count(), "total_docs": len(a.catalog.live_versions()),
            "restricted_docs": sum(1 for d in a.catalog.live_versions() if "all" not in d.audience),
            "added": res, **rss_mib()}


# -- warm search, stage split, floor, memory, baselines ---------------------------
def cmd_search(args) -> dict:
    with Timer() as t_import:
        import rag_core.assistant  # noqa: F401
    with Timer() as t_open:
        a = open_store(args.data_dir)
    after_open = rss_mib()
    reloads = []
    for _ in range(2):
        with Timer() as t:
            a.keywords.reload()
        reloads.append(t.s)
    qs = questions(args.questions)
    with Timer() as t_first:
        a.search(qs[0], role="hr")
    for q in qs:  # warm-up: every question once
        a.search(q, role="hr")
    cached = [c for c in (a.embedder, getattr(getattr(a, "second", None), "embedder", None)) if c is not None]

    def new_question() -> None:
        """Each timed search embeds its question as a question asked for the first time does (the embedders
        keep recent question vectors; without this every timed search after the warm-up reused them)."""
        for c in cached:
            c._queries.clear()
    out: dict = {"chunks": a.catalog.chunk_count(), "docs": len(a.catalog.live_versions()),
                 "import_s": t_import.s, "open_s": t_open.s, "first_search_ms": t_first.ms,
                 "keyword_reload_s": min(reloads), "rss_after_open": after_open, "roles": {}}
    results: dict[str, dict[str, list[str]]] = {}
    for role in args.roles:
        wall, stages, without_e5 = [], {k: [] for k in STAGES}, []
        results[role] = {}
        for _ in range(args.reps):
            for q in qs:
                new_question()
                t0 = time.perf_counter()
                res = a.search(q, role=role)
                wall.append((time.perf_counter() - t0) * 1000)
                for k in STAGES:
                    stages[k].append(res.timings_ms.get(k, 0.0))
                without_e5.append(res.timings_ms.get("total_ms", 0.0) - res.timings_ms.get("embed_ms", 0.0))
                results[role][q] = [h.chunk.chunk_id for h in res.hits]
        # the same searches with both models' question vectors kept (the search's own work, models aside)
        cached_wall = []
        for q in qs:
            a.search(q, role=role)  # puts the vectors back
            t0 = time.perf_counter()
            a.search(q, role=role)
            cached_wall.append((time.perf_counter() - t0) * 1000)
        visible = a.retriever.visible(role)
        view = a.keywords.view(visible)
        view = None if view.allowed is None else view  # None: every chunk is visible
        out["roles"][role] = {"wall_ms": summary(wall), "stages": {k: summary(v) for k, v in stages.items()},
                              "total_minus_e5_ms": summary(without_e5), "wall_queries_kept_ms": summary(cached_wall),
                              "visible_chunks": out["chunks"] if view is None else view.n_docs,
                              "filtered": view is not None,
                              "partitions_searched": None if visible.scope.audiences is None
                              else len(visible.scope.audiences),
                              "hidden_chunks_in_partitions": visible.scope.hidden_chunks,
                              "mean_hits": sum(len(v) for v in results[role].values()) / len(qs)}
    floor, second = [], []
    qvecs = {}
    for _ in range(args.reps):
        for q in qs:
            with Timer() as t:
                qvecs[q] = a.embedder.inner.embed_query(q)  # the model itself, not the recent-question cache
            floor.append(t.ms)
            if len(cached) > 1:
                with Timer() as t:
                    cached[1].inner.embed_query(q)
                second.append(t.ms)
    out["floor_ms"] = summary(floor)
    out["second_query_ms"] = summary(second)
    out["after_search"] = rss_mib()
    if args.baselines:
        from bench.perf_baselines import bm25_baselines, vector_baselines

        log("baselines: BM25")
        out["bm25"] = bm25_baselines(a, qs, args.slow_limit)
        log("baselines: vectors")
        out["vectors"] = vector_baselines(a, qs, qvecs)
    out["process_s"] = time.perf_counter() - T_PROCESS
    return out


# -- what search returns, for comparing two trees ----------------------------------
def cmd_results(args) -> dict:
    """Every eval question's hits and near misses with all their scores, per role (nothing timed)."""
    a = open_store(args.data_dir)
    qs = questions()
    if args.heldout:
        from bench.common import HELDOUT_EVAL

        qs += [json.loads(line)["question"] for line in HELDOUT_EVAL.read_text(encoding="utf-8").splitlines()
               if line.strip()]
    out: dict = {}
    for role in args.roles:
        for q in qs:
            res = a.search(q, role=role)
            # what Chroma gave this process for the question: its HNSW index is rebuilt per process from the
            # collection's unflushed log, not always the same graph, so a difference with equal "vector" lists
            # is the search code's, one with different lists may be Chroma's
            scope = a.retriever.visible(role).scope
            vector = [[m.chunk_id, m.cosine] for m in a.vectors.query(a.embedder.embed_query(q), a.settings.candidates, scope)]
            out[f"{role} {q}"] = {
                "answerable": res.answerable, "warnings": res.warnings,
                "hits": [[h.chunk.chunk_id, vars(h.scores)] for h in res.hits],
                "near": [[h.chunk.chunk_id, vars(h.scores)] for h in res.near_misses],
                "vector": vector,
            }
    args.out.write_text(json.dumps(out, ensure_ascii=False, sort_keys=True, default=str), encoding="utf-8")
    return {"questions": len(qs), "roles": args.roles, "out": str(args.out)}


# -- one changed document ---------------------------------------------------------
def cmd_reingest(args) -> dict:
    from bench.perf_store import revise
    from bench.synthetic import make_document
    from rag_core.documents.prepare import doc_id_for

    a = open_store(args.data_dir)
    doc = make_document(args.doc_index, args.seed)
    doc_id = doc_id_for(doc.filename)
    version = max((v.version for v in a.catalog.versions(doc_id)), default=0)
    qs = questions(20)
    for q in qs:
        a.search(q, role="hr")
        a.search(q, role="all")
    out: dict = {"chunks": a.catalog.chunk_count(), "doc_id": doc_id, "steps": []}
    for label, mark in (("first revision", version + 1), ("second revision", version + 2)):
        data = revise(doc.text, mark).encode("utf-8")
        before = a.embedder.computed
        with Timer() as t:
            rep = a.ingest_bytes(data, doc.filename, audience=doc.audience)
        step = {"label": label, "status": rep.status, "doc_chunks": rep.chunk_count, "ingest_ms": t.ms,
                "embedded": a.embedder.computed - before}
        for role in ("hr", "all"):
            with Timer() as t1:
                a.search(qs[1], role=role)
            with Timer() as t2:
                a.search(qs[1], role=role)
            step[f"first_search_{role}_ms"] = t1.ms
            step[f"next_search_{role}_ms"] = t2.ms
        out["steps"].append(step)
    # what another process sharing the data dir pays to follow the change
    with Timer() as t:
        a.keywords.reload()
    out["other_process_reload_s"] = t.s
    return out


# -- start-up ----------------------------------------------------------------------
def cmd_startup(args) -> dict:
    with Timer() as t_import:
        from rag_core.assistant import Assistant
    with Timer() as t_open:
        a = Assistant.open(data_dir=args.data_dir, env_file=None)
    out = {"import_s": t_import.s, "open_s": t_open.s}
    if args.cold:
        with Timer() as t:
            reports = a.ensure_samples()
        out["ingest_samples_s"] = t.s
        out["sample_chunks"] = sum(r.chunk_count for r in reports)
        out["sample_pack"] = getattr(a, "sample_pack_status", "")  # older trees have no shipped vectors
        out["sample_texts_embedded"] = a.embedder.computed
    q = questions(1)[0]
    with Timer() as t:
        res = a.ask(q, user="bench", remember=False)
    out["in_process_to_first_answer_s"] = time.perf_counter() - T_PROCESS
    out["first_ask_s"] = t.s
    out["first_hits"] = res.hit_count
    with Timer() as t:
        a.search(q)
    out["second_search_s"] = t.s
    out.update(rss_mib())
    return out


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("encoder")
    e.add_argument("--model", default="e5", choices=["e5", "use"])
    e.add_argument("--threads", type=int, default=2)
    e.add_argument("--queries", type=int, default=30)
    e.add_argument("--passages", type=int, default=64)
    e.add_argument("--batches", type=int, nargs="+", default=[32])
    i = sub.add_parser("ingest")
    i.add_argument("--data-dir", type=Path, required=True)
    i.add_argument("--warm-dir", type=Path, required=True)
    i.add_argument("--chunks", type=int, default=1000)
    i.add_argument("--model", default="e5")
    b = sub.add_parser("build")
    b.add_argument("--data-dir", type=Path, required=True)
    b.add_argument("--pool-dir", type=Path, required=True)
    b.add_argument("--chunks", type=int, required=True)
    b.add_argument("--buffer-upserts", type=int, default=0, help="bulk Chroma upserts of this many chunks")
    b.add_argument("--stand-in-second", action="store_true",
                   help="the second model's passages from real vectors of a built store (default: the model embeds)")
    b.add_argument("--second-pool-dir", type=Path, default=None,
                   help="the store whose real second-model vectors stand in (default: --pool-dir)")
    s = sub.add_parser("search")
    s.add_argument("--data-dir", type=Path, required=True)
    s.add_argument("--reps", type=int, default=2)
    s.add_argument("--questions", type=int, default=None)
    s.add_argument("--roles", nargs="+", default=["hr", "all"])
    s.add_argument("--baselines", action="store_true")
    s.add_argument("--slow-limit", type=int, default=20, help="questions for the pure-Python baseline")
    r = sub.add_parser("reingest")
    r.add_argument("--data-dir", type=Path, required=True)
    r.add_argument("--doc-index", type=int, default=10)
    rs = sub.add_parser("results")
    rs.add_argument("--data-dir", type=Path, required=True)
    rs.add_argument("--out", type=Path, required=True)
    rs.add_argument("--roles", nargs="+", default=["hr", "all"])
    rs.add_argument("--heldout", action="store_true", help="also the held-out eval questions")
    st = sub.add_parser("startup")
    st.add_argument("--data-dir", type=Path, required=True)
    st.add_argument("--cold", action="store_true")
    for sp in (i, b, r):
        sp.add_argument("--seed", type=int, default=7)
    return p


def main() -> int:
    args = build_parser().parse_args()
    handler = {"encoder": cmd_encoder, "ingest": cmd_ingest, "build": cmd_build, "search": cmd_search,
               "reingest": cmd_reingest, "startup": cmd_startup, "results": cmd_results}[args.cmd]
    result = handler(args)
    result["process_peak"] = rss_mib()
    emit(result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
