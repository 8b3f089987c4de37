"""Regenerate data/sample_vectors.npz: the e5 vectors of every text the sample policies' ingest embeds.

    .venv/bin/python bench/sample_pack.py              # writes data/sample_vectors.npz (~25 s of e5)
    .venv/bin/python bench/sample_pack.py --out F.npz

Indexes data/samples into a temporary data dir with the real model and no pack (the
ordinary write path), then reads that store's embedding cache: the chunk texts' vectors
are kept as float32 (they go to Chroma), the sentence texts' as float16 (the sentence
index stores float16). Run it after changing the samples, the chunking or the model;
tests/test_sample_pack.py fails until the shipped file matches them again.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rag_core.assistant import SAMPLES_DIR, Assistant  # noqa: E402
from rag_core.documents.prepare import index_text  # noqa: E402
from rag_core.facade.documents import SAMPLE_PACK  # noqa: E402
from rag_core.search.embedding import content_hash  # noqa: E402
from rag_core.search.sample_pack import (  # noqa: E402
    chunking_key,
    file_digests,
    sample_files,
    save_pack,
)
from rag_core.settings import Settings  # noqa: E402


def build(out: Path, folder: Path = SAMPLES_DIR) -> dict:
    with tempfile.TemporaryDirectory(prefix="sample_pack_") as tmp:
        settings = Settings(data_dir=Path(tmp))  # the defaults the app ships with, whatever the environment says
        a = Assistant(settings, llm=None)
        t0 = time.perf_counter()
        reports = a.ensure_samples(folder, pack=None)
        seconds = time.perf_counter() - t0
        if not all(r.ok for r in reports):
            raise SystemExit(f"a sample was refused: {[r.error for r in reports if not r.ok]}")
        chunk_texts = [index_text(c) for c in a.catalog.all_chunks()]
        with sqlite3.connect(settings.path("embedding_cache.sqlite3")) as db:
            rows = db.execute("SELECT hash, vector FROM embeddings WHERE model=?", (a.embedder.model_id,)).fetchall()
        vectors = {h: np.frombuffer(v, dtype=np.float32) for h, v in rows}
        exact_ids = {content_hash(t) for t in chunk_texts}
        probe_text = chunk_texts[0]
        save_pack(out, model_id=a.embedder.model_id, files=file_digests(sample_files(folder)),
                  chunking=chunking_key(settings), probe_text=probe_text,
                  probe_vector=vectors[content_hash(probe_text)],
                  exact={h: v for h, v in vectors.items() if h in exact_ids},
                  half={h: v for h, v in vectors.items() if h not in exact_ids})
    return {"texts": len(vectors), "chunks": len(exact_ids), "index_seconds": round(seconds, 1),
            "bytes": out.stat().st_size}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=Path, default=SAMPLE_PACK)
    args = p.parse_args(argv)
    print(build(args.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
