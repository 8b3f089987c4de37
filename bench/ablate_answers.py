"""Ablation of the answer step's hand lists on the question sets: empty one at a time (issue 30, F).

    .venv/bin/python bench/ablate_answers.py [--work-dir DIR] [--list NAME ...]

The sessions ablation (`bench/ablate_lists.py`) asks 36 open sessions; most of `answer/subject.py`'s
lists were written against question-set traps instead, so this one measures them there: the shipped
decision on the candidate pools `bench/fit_answerability.py --work-dir DIR` cached (every corpus,
questions written by helpers who did not read the engine), then the offline answer with one list
emptied, in a fresh process each. Search is not re-run, so a list that also acts in search
(`vocabulary.*`) is measured on its answer-side use only.

Per list: traps refused, paraphrases answered, paraphrases answered *from* a clause that holds the
gold wording (cited), summed over all corpora and over the three never-fitted ones.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ablate_lists import LISTS, empty, list_name  # noqa: E402

from bench.common import run_child  # noqa: E402

ANSWER_SIDE = [name for name in LISTS if name.startswith(("subject.", "vocabulary."))]
_CITED = re.compile(r"\[资料(\d+)\]")


def run_one(name: str, work: Path) -> dict:
    import fit_answerability as fa

    from rag_core.answer.answering import compose_answer
    from rag_core.answer.prompt import build_prompt
    from rag_core.evaluation.metrics import first_relevant_rank, is_refusal
    from rag_core.search.answerability import judge_all, shipped_model
    from rag_core.types import Hit, HitScores

    if name != "none":
        empty(name)
    model = shipped_model()
    counts = {scope: {"traps": 0, "refused": 0, "paraphrases": 0, "answered": 0, "cited": 0}
              for scope in ("all", "held_out")}
    for corpus, pools in fa.cached_pools(work).items():
        scopes = ["all", "held_out"] if fa.group_of(corpus) in fa.HELD_OUT else ["all"]
        for pool in pools:
            if not (pool.trap or pool.category == "paraphrase"):
                continue
            judged = judge_all(pool.signals, model, pool.unknown, pool.store_chunks)
            order = sorted(range(len(judged)), key=lambda i: -judged[i].probability)
            hits = [] if pool.foreign else [
                Hit(pool.chunks[i], HitScores(probability=judged[i].probability, verdict=judged[i].verdict))
                for i in order if judged[i].verdict][:5]
            built = build_prompt(pool.question, hits, [], 1800)
            answer = compose_answer(pool.question, built, None, None, pool.groups).text
            refused = not hits or is_refusal(answer)
            cited = [built.sources[int(n) - 1].text for n in _CITED.findall(answer) if 0 < int(n) <= len(built.sources)]
            for scope in scopes:
                row = counts[scope]
                if pool.trap:
                    row["traps"] += 1
                    row["refused"] += int(refused)
                else:
                    row["paraphrases"] += 1
                    row["answered"] += int(not refused)
                    row["cited"] += int(not refused and first_relevant_rank(cited, pool.alternatives) is not None)
    return {"list": name, **{f"{scope}_{k}": v for scope, row in counts.items() for k, v in row.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work-dir", type=Path, default=Path("/tmp/rag_fit"))
    parser.add_argument("--list", action="append", type=list_name, help="default: none and every answer-side list")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # the child process of one run
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(args.one, args.work_dir), ensure_ascii=False))
        return
    print("| list emptied | traps refused (all) | paraphrases answered | answered from a gold clause | "
          "traps refused (never fitted) | answered | from a gold clause |")
    print("|---|---|---|---|---|---|---|")
    for name in args.list or ["none", *ANSWER_SIDE]:  # each in a fresh process: a list is emptied before first use
        r = run_child(["--work-dir", args.work_dir, "--one", name], script=__file__, timeout=3600)
        cells = [f"{r[f'{s}_refused']}/{r[f'{s}_traps']}" for s in ("all",)]
        cells += [f"{r['all_answered']}/{r['all_paraphrases']}", f"{r['all_cited']}/{r['all_paraphrases']}"]
        cells += [f"{r['held_out_refused']}/{r['held_out_traps']}", f"{r['held_out_answered']}/{r['held_out_paraphrases']}",
                  f"{r['held_out_cited']}/{r['held_out_paraphrases']}"]
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
