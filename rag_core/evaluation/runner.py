"""Run a question set through the facade, exactly as chat searches and answers."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..text.inputs import InputError, checked
from ..text.pii import redact_text
from ..types import REFUSED
from .metrics import QuestionSetError, citation_totals, first_relevant_rank, jsonl_lines, load_questions, summarise

EVAL = "eval"  # the traffic mark of every question asked here: left out of usage, gaps and feedback
MAX_QUESTIONS = 2000
"""Questions one run takes. Each is searched and answered (about a second on a CPU) and a run cannot be stopped
between questions, so a 7 MB upload of 100,000 questions held the page for a day; the shipped set has under a
hundred, and a larger one is split into several files."""


def run_eval(
    assistant, path: Path, *, mode: str = "hybrid", role: str | None = None, ask: bool = True, actor=None,
    progress: Callable[[int, int], None] | None = None, shown: str | None = None,
) -> dict:
    """Search every question as `actor` (what they may read) through chat's own search (`search_as_chat`, no
    memories): a statement about the asker is left out of what is searched, and a row chat would not search at all
    (small talk, or only telling something) is marked `not_searched` and left out of the rates, not counted as a
    zero-hit search. With `ask`, also answer it (no memory) to measure refusals.

    `progress(done, total)` is called before each question and once at the end. Each question is masked
    before it is searched, answered or returned (a set may hold real questions with personal data). `shown`: the
    name a refusal gives the file (an upload's own, not the server path it was kept under: review 349)."""
    results = []
    rows = checked_questions(path, load_questions(path, shown), shown)
    for row in rows:
        if progress:
            progress(len(results), len(rows))
        question = row["question"]
        found = assistant.search_as_chat(question, role=role, mode=mode, actor=actor, with_memories=False)
        res = found.result
        not_searched = "chatter" if found.chatter else "told_only" if found.told_only else ""
        texts = [h.chunk.text for h in res.hits]
        result = {
            "question": question,
            "searched": found.question,  # what chat searches: the question part of 「我是销售部的，…？」
            "not_searched": not_searched,  # only small talk or only about the asker: chat searches nothing
            "category": row["category"],
            "expected": row["expected"],
            "alternatives": row["alternatives"],
            "answer_should_refuse": bool(row.get("answer_should_refuse")),
            "hit_count": None if not_searched else res.hit_count,  # no search is no zero-hit search
            "rank": first_relevant_rank(texts, row["alternatives"]),
            "hits": [h.to_dict() for h in res.hits],
            "near_misses": [h.to_dict() for h in res.near_misses],
            "refused": None,
        }
        if ask and mode == "hybrid" and not not_searched:  # chat answers no question there: nothing to measure
            trace = assistant.ask(question, user="", role=role, remember=False, actor=actor, traffic=EVAL)
            result["answer"] = trace.answer
            result["refused"] = trace.outcome == REFUSED
            result["citations"] = trace.citations.to_dict()
        results.append(result)
    if progress:
        progress(len(results), len(rows))
    return {"mode": mode, "metrics": summarise(results), "citations": citation_totals(results), "results": results}


def checked_questions(path: Path, rows: list[dict], shown: str | None = None) -> list[dict]:
    """`rows` with each question checked (as chat checks it) and masked, before any is searched: a question the
    search would refuse is named by its line (it ended the run halfway, without one), and a set over
    `MAX_QUESTIONS` is refused whole."""
    where = path if shown is None else shown
    if len(rows) > MAX_QUESTIONS:
        raise QuestionSetError(f"{where}: 有 {len(rows):,} 道题，一次最多评测 {MAX_QUESTIONS:,} 道。请拆成几个文件分别评测")
    # load_questions keeps every non-blank line as one row, in order: the same rule gives each row its line
    lines = [n for n, line in enumerate(jsonl_lines(Path(path).read_text(encoding="utf-8")), start=1) if line.strip()]
    for row, line in zip(rows, lines, strict=True):
        try:
            row["question"] = redact_text(checked(row["question"]))
        except InputError as exc:
            raise QuestionSetError(f"{where}:{line}: {exc}") from None
    return rows
