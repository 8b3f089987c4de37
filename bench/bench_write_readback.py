"""How often Chroma loses a write after a query, and what reading every write back costs.

    .venv/bin/python bench/bench_write_readback.py [--trials 40] [--sizes 1000,10000] [--chroma-host H --chroma-port P]

Part 1 replays what the app does: the sample policies are indexed with the
real e5 model (once, into a temp dir), then per trial a fresh collection gets
those vectors, one search is run, and a one-chunk document (宠物关怀假) is
written. It counts the trials in which a query no longer finds the new chunk
when the read-back is switched off, and how many re-writes the read-back did
when it is on. Part 2 times `ChromaVectorStore.upsert` of a 19-chunk document
and of a 1,000-chunk batch into stores of the given sizes, with and without
the read-back, alternating in one run (random unit vectors: cost, not recall),
and part 3 times a full check (`ChromaVectorStore.verify(repair=False)`, what
`python -m rag_core check --no-repair` runs) of each of those stores.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import uuid
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import machine_description, percentile, table  # noqa: E402
from rag_core.assistant import Assistant  # noqa: E402
from rag_core.documents.prepare import index_text  # noqa: E402
from rag_core.search import vector_store  # noqa: E402
from rag_core.search.vector_store import ChromaVectorStore  # noqa: E402
from rag_core.types import Chunk  # noqa: E402

NEW_TEXT = "员工饲养的宠物生病、手术或者离世时，可以申请宠物关怀假，每年不超过2天。宠物关怀假期间工资照发，不影响年终考核。"
QUESTION = "宠物关怀假每年有几天？"
_REAL_CHECK = vector_store.unreachable_rows


def _readback(on: bool) -> None:
    vector_store.unreachable_rows = _REAL_CHECK if on else (lambda col, ids, vectors: [])


def _chunk(doc_id: str, index: int, text: str = "x") -> Chunk:
    return Chunk(chunk_id=f"{doc_id}@v1#{index}", doc_id=doc_id, version=1, index=index, text=text,
                 source=f"{doc_id}.md", title=doc_id, section="")


def _store(root: Path, host: str, port: int) -> ChromaVectorStore:
    return ChromaVectorStore(path=root / "chroma", host=host, port=port, model_id="bench",
                             name=f"policy_chunks_b{uuid.uuid4().hex[:10]}")


def lost_writes(trials: int, host: str, port: int) -> list[list]:
    work = Path(tempfile.mkdtemp(prefix="readback_"))
    a = Assistant.open(data_dir=work / "samples", env_file=None)
    a.ensure_samples()
    chunks = a.catalog.all_chunks()
    vectors = a.embedder.embed_passages([index_text(c) for c in chunks])
    new = _chunk("pet_care_leave", 0, NEW_TEXT)
    new_vector = a.embedder.embed_passages([index_text(new)])
    question = a.embedder.embed_query(QUESTION)
    rows = []
    for on in (False, True):
        _readback(on)
        lost = rewrites = still_lost = 0
        for t in range(trials):
            store = _store(work / f"{on}_{t}", host, port)
            store.upsert(chunks, vectors)
            store.query(question, 30)
            still_lost += len(store.upsert([new], new_vector))
            found = [m.chunk_id for m in store.query(question, len(chunks) + 1)]
            lost += new.chunk_id not in found
            rewrites += store.repaired
        rows.append(["on" if on else "off", trials, lost, rewrites, still_lost])
    _readback(True)
    return rows


def upsert_cost(sizes: list[int], host: str, port: int, reps: int = 15) -> tuple[list[list], list[list]]:
    rng = np.random.default_rng(0)
    rows, checks = [], []
    for size in sizes:
        store = _store(Path(tempfile.mkdtemp(prefix="readback_cost_")), host, port)
        base = rng.normal(size=(size, 384)).astype(np.float32)
        base /= np.linalg.norm(base, axis=1, keepdims=True)
        for start in range(0, size, 1000):
            store.upsert([_chunk("base", i) for i in range(start, min(size, start + 1000))], base[start : start + 1000])
        for batch in (19, 1000):
            times: dict[bool, list[float]] = {False: [], True: []}
            for rep in range(reps):
                for on in (False, True):
                    _readback(on)
                    vecs = rng.normal(size=(batch, 384)).astype(np.float32)
                    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
                    doc = f"d{batch}_{rep}_{int(on)}"
                    t0 = time.perf_counter()
                    store.upsert([_chunk(doc, i) for i in range(batch)], vecs)
                    times[on].append((time.perf_counter() - t0) * 1000)
            _readback(True)
            off, on = percentile(times[False], 50), percentile(times[True], 50)
            rows.append([f"{size:,}", batch, f"{off:.1f}", f"{on:.1f}", f"{on - off:+.1f}", f"{on / off:.2f}"])
        t0 = time.perf_counter()
        found = store.verify(repair=False)
        seconds = time.perf_counter() - t0
        checks.append([f"{found.checked:,}", f"{seconds:.2f}", f"{seconds * 1000 / found.checked:.3f}",
                       len(found.unreachable)])
    return rows, checks


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--trials", type=int, default=40)
    p.add_argument("--sizes", default="1000,10000")
    p.add_argument("--chroma-host", default="")
    p.add_argument("--chroma-port", type=int, default=8000)
    args = p.parse_args()
    m = machine_description()
    mode = f"Chroma server {args.chroma_host}:{args.chroma_port}" if args.chroma_host else "embedded Chroma"
    print(f"{mode}; {m.get('cpu', '')}; {m['cores']} cores; load {m['load_at_start']}; chromadb {m.get('libraries', {}).get('chromadb', '')}\n")
    print("A one-chunk document written after a search (sample store, real e5 vectors):\n")
    print(table(["read-back", "trials", "new chunk not found by query", "records re-written", "still lost"],
                lost_writes(args.trials, args.chroma_host, args.chroma_port)))
    print("\nCost of `upsert` (median ms of 15, read-back off/on alternating):\n")
    sizes = [int(s) for s in args.sizes.split(",") if s]
    rows, checks = upsert_cost(sizes, args.chroma_host, args.chroma_port)
    print(table(["store", "chunks written", "off ms", "on ms", "difference", "ratio"], rows))
    print("\nFull check of those stores (`verify(repair=False)`):\n")
    print(table(["chunks checked", "seconds", "ms per chunk", "unreachable"], checks))


if __name__ == "__main__":
    main()
