"""What the second ranking model (USE) costs per search, measured in one run (on and off alternate).

    .venv/bin/python bench/second_model_cost.py [--store DIR] [--rows 10000]

1. Search through the facade on the sample store (built in a temp dir unless --store), every
   question of tests/data/eval.jsonl twice, the second model on and off in turn.
2. The two parts the second model adds, at a store's size: one USE query embedding, and reading
   the candidates' rows (60 ids) from a second-model file of --rows chunks (5 sentences each, 512
   dimensions, float16, as the indexer writes it; the vector values do not change the read time).
The added milliseconds are what the 10k-chunk search p50 of docs/benchmarks.md grows by.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rag_core.assistant import Assistant  # noqa: E402
from rag_core.search.sentence_index import SentenceIndex  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path)
    parser.add_argument("--rows", type=int, default=10_000)
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="second_cost_"))
    store = args.store or scratch / "store"
    assistant = Assistant.open(data_dir=store, env_file=None)
    if not assistant.catalog.chunk_count():
        assistant.ensure_samples()
    questions = [json.loads(line)["question"] for line in (ROOT / "tests/data/eval.jsonl").read_text("utf-8").splitlines() if line.strip()]
    second = assistant.retriever.second
    assistant.search(questions[0])  # warm both models
    timings: dict[str, list[float]] = {"on": [], "off": []}
    for _ in range(2):
        for i, question in enumerate(questions):
            for label in (("on", "off") if i % 2 else ("off", "on")):
                assistant.retriever.second = second if label == "on" else None
                start = time.perf_counter()
                assistant.search(question)
                timings[label].append((time.perf_counter() - start) * 1000)
    assistant.retriever.second = second

    query_ms = []
    for question in questions:
        start = time.perf_counter()
        second.embedder.embed_query(question)
        query_ms.append((time.perf_counter() - start) * 1000)

    rng = np.random.default_rng(7)
    index = SentenceIndex(scratch / "rows.sqlite3", "use")
    for start in range(0, args.rows, 1000):
        index.put((f"c{i}", rng.standard_normal(512).astype(np.float32), rng.standard_normal((5, 512)).astype(np.float32))
                  for i in range(start, min(args.rows, start + 1000)))
    read_ms = []
    for _ in range(200):
        ids = [f"c{i}" for i in rng.choice(args.rows, 60, replace=False)]
        start = time.perf_counter()
        index.get(ids)
        read_ms.append((time.perf_counter() - start) * 1000)

    print(f"\nsample store: {assistant.catalog.chunk_count()} chunks, {len(questions)} questions x 2 passes\n")
    print("| measurement | p50 ms | p95 ms |")
    print("|---|---|---|")
    for label in ("off", "on"):
        print(f"| search, second model {label} | {statistics.median(timings[label]):.1f} | {percentile(timings[label], 0.95):.1f} |")
    print(f"| USE query embedding | {statistics.median(query_ms):.1f} | {percentile(query_ms, 0.95):.1f} |")
    print(f"| reading 60 candidates' rows from {args.rows:,} | {statistics.median(read_ms):.1f} | {percentile(read_ms, 0.95):.1f} |")
    added = statistics.median(query_ms) + statistics.median(read_ms)
    print(f"\nadded per search at {args.rows:,} chunks: {added:.1f} ms (p50 parts)")


if __name__ == "__main__":
    main()
