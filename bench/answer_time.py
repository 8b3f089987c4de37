"""The offline answer step's time (`answer_ms`) for the yes/no questions of tests/data/eval.jsonl.

    python bench/answer_time.py --tree TREE --store SAMPLE_STORE [--reps 3]

One tree of the code per process (alternate two trees by running this twice per round); the store is
copied first, so the sample store is not written. Prints p50, p90 and mean in ms as one JSON line. The
mean includes the part-of-speech tables' one-time load when the warm-up thread has not finished.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.common import percentile  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, required=True, help="the code to time (a checkout of this repo)")
    parser.add_argument("--store", type=Path, required=True, help="a data dir with the samples ingested")
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    sys.path[:0] = [str(args.tree), str(args.tree / "tests")]
    from conftest import open_assistant  # the tree's own test helper: real models, offline

    from rag_core.answer.subject import is_yes_no

    work = Path(tempfile.mkdtemp(prefix="answer_time_")) / "store"
    shutil.copytree(args.store, work)
    assistant = open_assistant(work)
    questions = [json.loads(line)["question"] for line in open(args.tree / "tests" / "data" / "eval.jsonl")]
    questions = [q for q in questions if is_yes_no(q)]
    assistant.ask("年假有几天？", user="", remember=False)  # models loaded before timing
    times = [assistant.ask(q, user="", remember=False).timings_ms.get("answer_ms", 0.0)
             for _ in range(args.reps) for q in questions]
    print(json.dumps({"tree": str(args.tree), "questions": len(questions), "answers": len(times),
                      "p50_ms": round(percentile(times, 50), 2), "p90_ms": round(percentile(times, 90), 2),
                      "mean_ms": round(sum(times) / len(times), 2)}))


if __name__ == "__main__":
    main()
