"""Embedding backends side by side: speed and retrieval quality on both eval sets.

    python bench/compare_models.py [--models e5,use]

Per model: passages/s when indexing the samples, warm query-embedding latency,
and hybrid-search metrics on tests/data/eval.jsonl (tuning set) and
tests/data/heldout/eval.jsonl (never tuned on).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import EVAL_FILE, HELDOUT_EVAL, HELDOUT_POLICIES, percentile  # noqa: E402
from rag_core.assistant import SAMPLES_DIR, Assistant  # noqa: E402
from rag_core.documents.prepare import index_text  # noqa: E402
from rag_core.search.embedding import load_embedder  # noqa: E402

SETS = {
    "main": (SAMPLES_DIR, EVAL_FILE),
    "heldout": (HELDOUT_POLICIES, HELDOUT_EVAL),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="e5,use")
    args = ap.parse_args()
    print("| model | dim | passages/s | query ms (p50) | set | literal r@3 | paraphrase r@3 | near_miss zero | absent zero |")
    print("|---|---|---|---|---|---|---|---|---|")
    for model in args.models.split(","):
        emb = load_embedder(model)
        a0 = Assistant.open(data_dir=tempfile.mkdtemp(), env_file=None, embedding_model=model)
        a0.ensure_samples()
        texts = [index_text(c) for c in a0.catalog.all_chunks()]
        t = time.perf_counter()
        emb.embed_passages(texts)
        pps = len(texts) / (time.perf_counter() - t)
        lat = []
        for q in ["年假有几天", "打车费能报吗", "试用期多久", "加班费怎么算"] * 5:
            t = time.perf_counter()
            emb.embed_query(q)
            lat.append((time.perf_counter() - t) * 1000)
        for name, (policies, eval_file) in SETS.items():
            a = a0 if name == "main" else Assistant.open(data_dir=tempfile.mkdtemp(), env_file=None, embedding_model=model)
            if name != "main":
                a.ensure_samples(policies)
            m = a.run_eval(eval_file)["metrics"]
            print(
                f"| {model} | {emb.dim} | {pps:.0f} | {percentile(lat, 50):.1f} | {name} | {m['literal']['recall@3']:.3f} | "
                f"{m['paraphrase']['recall@3']:.3f} | {m['near_miss']['zero_hit_rate']:.3f} | {m['absent']['zero_hit_rate']:.3f} |"
            )


if __name__ == "__main__":
    main()
