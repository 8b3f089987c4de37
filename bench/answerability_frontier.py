"""What any question threshold could reach: the limit of the current signals, per corpus.

    python bench/answerability_frontier.py --work-dir DIR    # DIR: the one fit_answerability.py used

The fitted thresholds are chosen on other corpora. This script asks a different question: if
the threshold were chosen on each corpus's own answers (an oracle no deployment has), could the
issue's bars (paraphrase recall@3 >= 0.85 and absent zero hits >= 0.90 at once) be met? It tries
every question threshold that changes an outcome (each question probability in the corpus) with
everything else as fitted — for a fitting corpus the model fitted on the others, for a held-out
corpus the model fitted on the six — and prints:

- the paraphrase recall with no gate at all, neither question nor chunk threshold (the ranking's
  own ceiling: what a perfect gate could keep);
- the best paraphrase recall among thresholds that give absent questions zero hits >= 0.90;
- the best absent zero-hit rate among thresholds that keep paraphrase recall >= 0.85;
- whether one threshold meets both bars.

It reads the pools fit_answerability.py cached (run that first); nothing is re-collected.
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_answerability as fa  # noqa: E402

from rag_core.search.answerability import judge_all  # noqa: E402

PARAPHRASE_BAR, ABSENT_BAR = 0.85, 0.90


def thresholds(pools: list[fa.Pool], model: fa.Model) -> list[float]:
    """Every question threshold that changes an outcome: each question's own probability (and 0)."""
    values = {0.0}
    for pool in pools:
        judged = judge_all(pool.signals, model, pool.unknown, pool.store_chunks)
        if judged:
            values.add(judged[0].question_probability)
    return sorted(values)


def sweep(pools: list[fa.Pool], model: fa.Model) -> list[tuple[float, dict[str, float]]]:
    """Recall and zero hits at every question threshold (no offline answers: traps are not the question here)."""
    return [(t, fa.measure(pools, replace(model, question_threshold=t), ask=False)) for t in thresholds(pools, model)]


def summary(pools: list[fa.Pool], model: fa.Model) -> dict[str, float | bool]:
    rows = sweep(pools, model)
    best = lambda xs: max(xs, default=math.nan)  # noqa: E731
    ungated = fa.measure(pools, replace(model, question_threshold=0.0, chunk_threshold=0.0), ask=False)
    return {
        "ceiling": ungated["paraphrase"],
        "para_at_absent_bar": best(r["paraphrase"] for _, r in rows if r["absent"] >= ABSENT_BAR),
        "absent_at_para_bar": best(r["absent"] for _, r in rows if r["paraphrase"] >= PARAPHRASE_BAR),
        "both": any(r["paraphrase"] >= PARAPHRASE_BAR and r["absent"] >= ABSENT_BAR for _, r in rows),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work-dir", type=Path, default=Path("/tmp/rag_fit"))
    args = parser.parse_args()
    everything = fa.cached_pools(args.work_dir)
    fitting = {k: v for k, v in everything.items() if fa.group_of(k) not in fa.HELD_OUT}
    table: dict[str, dict] = {}
    for name in [k for k in fitting if "/" not in k]:
        train = {k: v for k, v in fitting.items() if fa.group_of(k) != name}
        chunk, question = fa.fit([p for v in train.values() for p in v])
        table[f"{name} (left out)"] = summary(fitting[name], fa.choose(train, chunk, question))
    chunk, question = fa.fit([p for v in fitting.values() for p in v])
    shipped = fa.choose(fitting, chunk, question)
    for name in [k for k in everything if fa.group_of(k) in fa.HELD_OUT]:
        table[f"{name} (held out)"] = summary(everything[name], shipped)
    show = lambda x: "none" if x != x else f"{x:.3f}"  # noqa: E731  (3 places: 0.846 is under 0.85)
    print(f"\n| corpus | paraphrase, no gate | best paraphrase with absent ≥ {ABSENT_BAR:.2f} | "
          f"best absent with paraphrase ≥ {PARAPHRASE_BAR:.2f} | both bars at one threshold |")
    print("|---|---|---|---|---|")
    for name, s in table.items():
        print(f"| {name} | {s['ceiling']:.3f} | {show(s['para_at_absent_bar'])} | {show(s['absent_at_para_bar'])} | "
              f"{'yes' if s['both'] else 'no'} |")


if __name__ == "__main__":
    main()
