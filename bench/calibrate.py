"""Calibrate retrieval thresholds on an eval set, and check them on a held-out one.

    python bench/calibrate.py [--model e5] [--eval tests/data/eval.jsonl] [--policies data/samples] \
        [--check tests/data/heldout/eval.jsonl --check-policies tests/data/heldout/policies]

Collects every fused candidate (all scores) once per question, then scores a
grid of thresholds without searching again. Objective: maximise recall@3 on
literal+paraphrase subject to zero hits on absent questions, with a tie-break
on the zero-hit rate. Prints the best settings and a table.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rag_core.assistant import Assistant  # noqa: E402
from rag_core.evaluation.metrics import first_relevant_rank, load_questions  # noqa: E402
from rag_core.search.fusion import Thresholds, passed_threshold  # noqa: E402


def collect(assistant: Assistant, questions: list[dict]) -> list[tuple[dict, list, dict]]:
    rows = []
    for q in questions:
        _, cands, _ = assistant.retriever.candidates(q["question"], assistant.settings)
        texts = assistant.catalog.chunks_by_id([c.chunk_id for c in cands])
        rows.append((q, cands, {cid: ch.text for cid, ch in texts.items()}))
    return rows


def evaluate(rows, t: Thresholds, top_k: int = 5) -> dict[str, dict[str, float]]:
    out: dict[str, list] = {}
    for q, cands, texts in rows:
        hits = [c for c in cands if passed_threshold(c, t)][:top_k]
        rank = first_relevant_rank([texts[c.chunk_id] for c in hits], q["expected"])
        out.setdefault(q["category"], []).append((rank, len(hits)))
    metrics = {}
    for cat, vals in out.items():
        metrics[cat] = {
            "recall@3": sum(1 for r, _ in vals if r and r <= 3) / len(vals),
            "zero": sum(1 for _, n in vals if n == 0) / len(vals),
        }
    return metrics


def objective(m) -> float:
    lit = m.get("literal", {}).get("recall@3", 0)
    par = m.get("paraphrase", {}).get("recall@3", 0)
    absent = m.get("absent", {}).get("zero", 0)
    return lit + par + 2 * absent


def open_store(model: str, policies: Path) -> Assistant:
    tmp = tempfile.mkdtemp(prefix="calib_")
    a = Assistant.open(data_dir=tmp, embedding_model=model)
    for f in sorted(policies.glob("*")):
        rep = a.ingest_file(f)
        assert rep.ok, rep.error
    return a


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="e5")
    ap.add_argument("--eval", default="tests/data/eval.jsonl")
    ap.add_argument("--policies", default="data/samples")
    ap.add_argument("--check", default=None)
    ap.add_argument("--check-policies", default=None)
    args = ap.parse_args()

    a = open_store(args.model, Path(args.policies))
    rows = collect(a, load_questions(Path(args.eval)))
    if args.model == "e5":
        floors, margins = [0.80, 0.82, 0.84, 0.85, 0.86], [0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08]
    else:
        floors, margins = [0.2, 0.25, 0.3, 0.35, 0.4], [0.1, 0.15, 0.2, 0.25, 0.3, 0.35]
    grid = []
    for bm, cov, fl, mg in itertools.product([1.0, 2.0, 3.0, 4.0, 5.0], [0.4, 0.5, 0.6, 0.7], floors, margins):
        t = Thresholds(bm, cov, fl, mg)
        m = evaluate(rows, t)
        grid.append((objective(m), t, m))
    grid.sort(key=lambda g: -g[0])
    print(f"model={args.model}  top thresholds on {args.eval}")
    print("| bm25 | coverage | cos floor | margin | literal r@3 | paraphrase r@3 | near_miss zero | absent zero |")
    print("|---|---|---|---|---|---|---|---|")
    for _score, t, m in grid[:12]:
        print(
            f"| {t.bm25:g} | {t.min_coverage:g} | {t.cosine_floor:g} | {t.cosine_margin:g} | "
            f"{m['literal']['recall@3']:.3f} | {m['paraphrase']['recall@3']:.3f} | "
            f"{m.get('near_miss', {}).get('zero', 0):.3f} | {m['absent']['zero']:.3f} |"
        )
    # vector-only and keyword-only references at the best setting
    best = grid[0][1]
    if args.check:
        b = open_store(args.model, Path(args.check_policies))
        crow = collect(b, load_questions(Path(args.check)))
        m = evaluate(crow, best)
        print(f"\nheld-out check with the best thresholds {best}:")
        for cat, v in m.items():
            print(f"  {cat}: recall@3={v['recall@3']:.3f} zero-hit={v['zero']:.3f}")


if __name__ == "__main__":
    main()
