"""Chunk size / overlap sweep on the eval set (how the defaults were chosen).

    python bench/chunk_sweep.py [--model e5] [--sizes 120,180,240,320,400] [--overlaps 0,40,80]

For each setting: chunk count, mean chunk length, and hybrid-search metrics.
The embedding cache is carried from run to run so identical chunks are embedded once.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import EVAL_FILE as EVAL  # noqa: E402
from rag_core.assistant import SAMPLES_DIR, Assistant  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="e5")
    ap.add_argument("--sizes", default="120,180,240,320,400")
    ap.add_argument("--overlaps", default="0,40,80")
    ap.add_argument(
        "--flatten", action="store_true",
        help="drop every heading line first, so chunking must pack sentences (documents without 第X条 structure)",
    )
    args = ap.parse_args()
    samples = SAMPLES_DIR
    if args.flatten:
        samples = Path(tempfile.mkdtemp(prefix="flat_"))
        for f in SAMPLES_DIR.glob("*.md"):
            body = [ln for ln in f.read_text(encoding="utf-8").splitlines() if not ln.lstrip().startswith("#")]
            (samples / f.name).write_text("\n".join(body), encoding="utf-8")
    cache = Path(tempfile.mkdtemp()) / "embedding_cache.sqlite3"
    rows = []
    for size in [int(x) for x in args.sizes.split(",")]:
        for overlap in [int(x) for x in args.overlaps.split(",")]:
            if overlap >= size:
                continue
            d = Path(tempfile.mkdtemp(prefix="sweep_"))
            if cache.exists():
                shutil.copy(cache, d / "embedding_cache.sqlite3")
            a = Assistant.open(data_dir=d, env_file=None, embedding_model=args.model, chunk_size=size, chunk_overlap=overlap)
            t = time.perf_counter()
            a.ensure_samples(samples)
            secs = time.perf_counter() - t
            chunks = a.catalog.all_chunks()
            m = a.run_eval(EVAL)["metrics"]
            a.embedder.close()
            shutil.copy(d / "embedding_cache.sqlite3", cache)
            rows.append((size, overlap, len(chunks), sum(len(c.text) for c in chunks) / len(chunks), m, secs))
            print(f"done {size}/{overlap} in {secs:.0f}s", file=sys.stderr)
    print(f"model={args.model}  eval={EVAL.name}  flatten={args.flatten}")
    print("| size | overlap | chunks | mean chars | literal r@3 | paraphrase r@3 | paraphrase MRR | near_miss zero | absent zero |")
    print("|---|---|---|---|---|---|---|---|---|")
    for size, overlap, n, mean, m, _ in rows:
        print(
            f"| {size} | {overlap} | {n} | {mean:.0f} | {m['literal']['recall@3']:.3f} | {m['paraphrase']['recall@3']:.3f} | "
            f"{m['paraphrase']['mrr']:.3f} | {m['near_miss']['zero_hit_rate']:.3f} | {m['absent']['zero_hit_rate']:.3f} |"
        )


if __name__ == "__main__":
    main()
