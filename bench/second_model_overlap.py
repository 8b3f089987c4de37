"""Would the second model's question embedding hide behind the vector store's query? Measured, not guessed.

    .venv/bin/python bench/second_model_overlap.py --store /tmp/rag_bench/store_10k [--rounds 4]

Times, per question of tests/data/eval.jsonl (after one warm pass): Chroma's query alone, USE's embedding of the
question's two readings alone, the two one after the other (what search does), and USE on a worker thread while
Chroma queries. Prints the p50 of each and the load average. Stop 54: the overlap gains nothing (Chroma's query
keeps the GIL), so search keeps them in line (`search.retrieval`).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import load_average, percentile, questions, table  # noqa: E402
from rag_core.assistant import Assistant  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, required=True, help="a data dir (its Chroma and second-model rows)")
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    assistant = Assistant.open(data_dir=args.store, env_file=None)
    retriever, settings, second = assistant.retriever, assistant.settings, assistant.second.embedder
    asked = questions(60)
    for question in asked:  # warm: models, caches, Chroma's segments
        assistant.search(question, role="hr")
    pool = ThreadPoolExecutor(1)
    calls = iter(range(10**9))

    def use(question: str):  # texts never seen before: the query cache must not answer
        n = next(calls)
        return second.embed_queries([f"{question}（{n}）", f"{question}的规定（{n}）"])

    def chroma(vector, scope) -> None:
        retriever.vectors.query(vector, settings.candidates, scope)

    def in_line(question, vector, scope) -> None:
        chroma(vector, scope)
        use(question)

    def overlapped(question, vector, scope) -> None:
        future = pool.submit(use, question)
        chroma(vector, scope)
        future.result()

    steps = {"Chroma query": lambda q, v, s: chroma(v, s), "USE, two readings": lambda q, v, s: use(q),
             "one after the other": in_line, "USE on a thread while Chroma queries": overlapped}
    timings: dict[str, list[float]] = {name: [] for name in steps}
    for _ in range(args.rounds):
        for question in asked:
            vector = assistant.embedder.embed_query(question)
            scope = retriever.visible("hr").scope
            for name, step in steps.items():
                started = time.perf_counter()
                step(question, vector, scope)
                timings[name].append((time.perf_counter() - started) * 1000)
    print(table(["step", "p50 ms", "p90 ms"],
                [[name, f"{percentile(values, 50):.2f}", f"{percentile(values, 90):.2f}"] for name, values in timings.items()]))
    print(f"load average {load_average()[0]:.2f}")


if __name__ == "__main__":
    main()
