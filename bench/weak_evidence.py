"""How often an answer from 依据较弱 evidence quotes no answering clause, against one from 依据充分.

    python bench/weak_evidence.py --work-dir DIR    # DIR: the one fit_answerability.py used

The offline answer opens with 依据较弱：… instead of 根据制度 when the best clause that governs the
question is only weak evidence (`rag_core/answer/extractive.py`). This counts, with the shipped model
on the cached pools of every question set (so in-sample for the six fitting corpora), the paraphrase
and trap questions the offline answer does not refuse, split by that hedge, and how many of them
quote no answering clause: a trap answered at all, or a paraphrase none of whose cited [资料N] holds
the gold wording.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_answerability as fa  # noqa: E402

from rag_core.answer.answering import compose_answer  # noqa: E402
from rag_core.answer.extractive import WEAK_HEADER  # noqa: E402
from rag_core.answer.prompt import build_prompt  # noqa: E402
from rag_core.evaluation.metrics import first_relevant_rank, is_refusal  # noqa: E402
from rag_core.search.answerability import judge_all, shipped_model  # noqa: E402
from rag_core.types import Hit, HitScores  # noqa: E402

_CITED = re.compile(r"\[资料(\d+)\]")


def count(pools: list[fa.Pool], model) -> dict[str, list[int]]:
    """{"weak" | "strong": [answers given, answers quoting no answering clause]}."""
    out = {"weak": [0, 0], "strong": [0, 0]}
    for pool in pools:
        if not (pool.trap or pool.category == "paraphrase") or pool.foreign:
            continue
        judged = judge_all(pool.signals, model, pool.unknown, pool.store_chunks)
        order = sorted(range(len(judged)), key=lambda i: -judged[i].probability)
        hits = [Hit(pool.chunks[i], HitScores(probability=judged[i].probability, verdict=judged[i].verdict))
                for i in order if judged[i].verdict][:5]
        built = build_prompt(pool.question, hits, [], 1800)
        answer = compose_answer(pool.question, built, None, None, pool.groups).text
        if not hits or is_refusal(answer):
            continue
        cited = [built.sources[int(n) - 1].text for n in _CITED.findall(answer) if 0 < int(n) <= len(built.sources)]
        wrong = pool.trap or first_relevant_rank(cited, pool.alternatives) is None
        row = out["weak" if answer.startswith(WEAK_HEADER) else "strong"]
        row[0] += 1
        row[1] += int(wrong)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work-dir", type=Path, default=Path("/tmp/rag_fit"))
    args = parser.parse_args()
    everything = fa.cached_pools(args.work_dir)
    model = shipped_model()
    print("\n| question set | weak answers | of them quoting no answering clause | strong answers | of them quoting none |")
    print("|---|---|---|---|---|")
    total = {"weak": [0, 0], "strong": [0, 0]}
    for name, pools in everything.items():
        if "/" in name:
            continue
        c = count(pools, model)
        for key in total:
            total[key] = [a + b for a, b in zip(total[key], c[key], strict=True)]
        print(f"| {name} | {c['weak'][0]} | {c['weak'][1]} | {c['strong'][0]} | {c['strong'][1]} |")
    w, s = total["weak"], total["strong"]
    print(f"| **all** | {w[0]} | {w[1]} ({w[1] / max(w[0], 1):.0%}) | {s[0]} | {s[1]} ({s[1] / max(s[0], 1):.0%}) |")


if __name__ == "__main__":
    main()
