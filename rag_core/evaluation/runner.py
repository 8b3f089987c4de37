"""Run a question set through the facade's search, exactly as chat searches."""

from __future__ import annotations

from pathlib import Path

from .metrics import first_relevant_rank, load_questions, summarise


def run_eval(assistant, path: Path, *, mode: str = "hybrid", role: str = "all") -> dict:
    results = []
    for row in load_questions(path):
        res = assistant.search(row["question"], role=role, mode=mode)
        texts = [h.chunk.text for h in res.hits]
        results.append(
            {
                "question": row["question"],
                "category": row["category"],
                "expected": row["expected"],
                "hit_count": res.hit_count,
                "rank": first_relevant_rank(texts, row["expected"]),
                "hits": [h.to_dict() for h in res.hits],
                "near_misses": [h.to_dict() for h in res.near_misses],
            }
        )
    return {"mode": mode, "metrics": summarise(results), "results": results}
