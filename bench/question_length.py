"""How long one question takes by its length: the measured basis of the question length cap.

Asks questions of 20 to 8,000 characters (a real question repeated, as a pasted
paragraph would be) against the samples with the shipped models, offline, and
prints the time per ask and how many times the question was encoded.

    .venv/bin/python bench/question_length.py [--work-dir DIR] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

from bench.common import load_average, percentile, table  # noqa: E402
from rag_core import Assistant  # noqa: E402
from rag_core.text.inputs import MAX_QUESTION_CHARS  # noqa: E402

BASE = "我出差去杭州住了三晚，酒店超过标准的部分能不能报销，需要谁审批？"
LENGTHS = (20, 60, 200, 500, 1000, 2000, 8000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work-dir", type=Path, default=None)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    work = args.work_dir or Path(tempfile.mkdtemp(prefix="question_length_"))
    assistant = Assistant.open(data_dir=work / "store", env_file=None, llm_base_url="")
    assistant.ensure_samples()
    rows = []
    for length in LENGTHS:
        question = (BASE * (length // len(BASE) + 1))[:length]
        times = []
        encoded = assistant.embedder.queries_computed
        for round_ in range(args.rounds):
            started = time.perf_counter()
            # a different last character each round: the query cache must not answer for the model
            # (the retriever itself: the facade refuses a question over the cap)
            assistant.retriever.search(question[:-1] + "？!。"[round_ % 3], assistant.settings, reader=None)
            times.append((time.perf_counter() - started) * 1000)
        per_ask = (assistant.embedder.queries_computed - encoded) / args.rounds
        rows.append([length, f"{percentile(times, 50):.0f}", f"{max(times):.0f}", f"{per_ask:.1f}",
                     "refused" if length > MAX_QUESTION_CHARS else "asked"])
    print(f"load average {load_average()[0]:.2f}; cap {MAX_QUESTION_CHARS} characters")
    print(table(["characters", "search p50 ms", "max ms", "encodings per search", "as shipped"], rows))


if __name__ == "__main__":
    main()
