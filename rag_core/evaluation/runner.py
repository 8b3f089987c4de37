"""Run a question set through the facade, exactly as chat searches and answers."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..text.pii import redact_text
from ..types import REFUSED
from .metrics import citation_totals, first_relevant_rank, load_questions, summarise

EVAL = "eval"  # the traffic mark of every question asked here: left out of usage, gaps and feedback


def run_eval(
    assistant, path: Path, *, mode: str = "hybrid", role: str | None = None, ask: bool = True, actor=None,
    progress: Callable[[int, int], None] | None = None,
) -> dict:
    """Search every question as `actor` (what they may read); with `ask`, also answer it (no memory) to measure refusals.

    `progress(done, total)` is called before each question and once at the end. Each question is masked
    before it is searched, answered or returned (a set may hold real questions with personal data)."""
    results = []
    rows = load_questions(path)
    for row in rows:
        if progress:
            progress(len(results), len(rows))
        question = redact_text(row["question"])
        res = assistant.search(question, role=role, mode=mode, actor=actor)
        texts = [h.chunk.text for h in res.hits]
        result = {
            "question": question,
            "category": row["category"],
            "expected": row["expected"],
            "alternatives": row["alternatives"],
            "answer_should_refuse": bool(row.get("answer_should_refuse")),
            "hit_count": res.hit_count,
            "rank": first_relevant_rank(texts, row["alternatives"]),
            "hits": [h.to_dict() for h in res.hits],
            "near_misses": [h.to_dict() for h in res.near_misses],
            "refused": None,
        }
        if ask and mode == "hybrid":
            trace = assistant.ask(question, user="", role=role, remember=False, actor=actor, traffic=EVAL)
            result["answer"] = trace.answer
            result["refused"] = trace.outcome == REFUSED
            result["citations"] = trace.citations.to_dict()
        results.append(result)
    if progress:
        progress(len(results), len(rows))
    return {"mode": mode, "metrics": summarise(results), "citations": citation_totals(results), "results": results}
