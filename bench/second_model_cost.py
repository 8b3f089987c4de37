"""What the second ranking model (USE) costs per search, end to end, in one run.

    .venv/bin/python bench/second_model_cost.py                          # the sample store (built in a temp dir)
    .venv/bin/python bench/second_model_cost.py --store /tmp/rag_bench/store_10k --rounds 3

Each configuration runs in its own process (thread pools and their busy-waiting carry over
within a process, so alternating configurations in one process measures neither), in turn,
`--rounds` times: the second model off; on with one BLAS thread for USE (what ships); the same
without the question's second reading in the thesaurus's wording (stop 24); on with two threads
(stop 23). Every process warms up on every question of tests/data/eval.jsonl,
then times two passes of `Assistant.search`, and then USE's query embedding alone. A store
without second-model rows (one grown by bench/bench_perf.py) is backfilled by a first process
that is not timed. Prints a table; the numbers go into docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import percentile, questions, run_child  # noqa: E402
from rag_core.search.embedding import SECOND_MODEL_THREADS  # noqa: E402

CONFIGS = {
    "second model off": {"second": False, "threads": SECOND_MODEL_THREADS},
    "second model on, USE on 1 BLAS thread (ships)": {"second": True, "threads": SECOND_MODEL_THREADS},
    "on, 1 thread, question read as asked only (stop 24)": {"second": True, "threads": SECOND_MODEL_THREADS,
                                                            "reword": False},
    "second model on, USE on 2 BLAS threads (stop 23)": {"second": True, "threads": 2},
}


def child(store: Path, config: dict | None) -> dict:
    """One process: open the store in this configuration, warm up, time searches (config None: prepare only)."""
    from rag_core.assistant import Assistant
    from rag_core.search.embedding import USEEmbedder
    from rag_core.settings import Settings

    if config is None:
        assistant = Assistant.open(data_dir=store, env_file=None)  # backfills second-model rows if missing
        if not assistant.catalog.chunk_count():
            assistant.ensure_samples()
        return {"chunks": assistant.catalog.chunk_count()}
    if not config.get("reword", True):  # stop 24's search: no second reading in the thesaurus's wording
        import rag_core.search.retrieval as retrieval

        retrieval.with_policy_wording = lambda query, expansion, per_word=3: query
    settings = Settings.from_env(data_dir=store, env_file=None,
                                 **({} if config["second"] else {"second_embedding_model": ""}))
    second = USEEmbedder(threads=config["threads"]) if config["second"] else None
    assistant = Assistant(settings, second_embedder=second)
    asked = questions()
    for question in asked:
        assistant.search(question)
    timings = []
    for suffix in ("？", "。"):  # a new text each pass: no cache between passes
        for question in asked:
            start = time.perf_counter()
            assistant.search(question + suffix)
            timings.append((time.perf_counter() - start) * 1000)
    query_ms = []
    if second is not None:
        for question in asked:
            start = time.perf_counter()
            second.embed_query(question)
            query_ms.append((time.perf_counter() - start) * 1000)
    return {"search_ms": timings, "use_query_ms": query_ms, "chunks": assistant.catalog.chunk_count()}


def run_config(store: Path, name: str | None) -> dict:
    return run_child(["--store", store, "--child", name or ""], script=__file__)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        print(json.dumps(child(args.store, CONFIGS.get(args.child))))
        return
    store = args.store or Path(tempfile.mkdtemp(prefix="second_cost_")) / "store"
    chunks = run_config(store, None)["chunks"]
    results: dict[str, dict[str, list]] = {name: {"search_ms": [], "use_query_ms": [], "round_p50": []} for name in CONFIGS}
    names = list(CONFIGS)
    for round_ in range(args.rounds):
        for name in names[round_ % len(names):] + names[:round_ % len(names)]:  # rotate the order
            res = run_config(store, name)
            results[name]["search_ms"] += res["search_ms"]
            results[name]["use_query_ms"] += res["use_query_ms"]
            results[name]["round_p50"].append(percentile(res["search_ms"], 50))
            print(f"round {round_ + 1}: {name}: p50 {percentile(res['search_ms'], 50):.1f} ms", file=sys.stderr, flush=True)
    print(f"\n{chunks:,} chunks, {len(questions())} questions x 2 passes per process, {args.rounds} processes per configuration, "
          f"load {os.getloadavg()[0]:.1f}\n")
    print("| configuration | search p50 ms | search p95 ms | p50 per process | USE query p50 ms |")
    print("|---|---|---|---|---|")
    for name, r in results.items():
        rounds = " / ".join(f"{x:.1f}" for x in r["round_p50"])
        query = f"{percentile(r['use_query_ms'], 50):.1f}" if r["use_query_ms"] else "–"
        print(f"| {name} | {percentile(r['search_ms'], 50):.1f} | {percentile(r['search_ms'], 95):.1f} | {rounds} | {query} |")


if __name__ == "__main__":
    main()
