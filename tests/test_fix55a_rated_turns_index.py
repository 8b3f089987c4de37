"""Review 55a #3: the gap page's work per 👎 is bounded. A 👎 whose turn is not found by its conversation (a row from
before turns were kept, a purged question, a CLI rating) was matched to its asked question by a query on
`questions.question` with no index — a full scan per 👎 — after one more query per 👎 for its own row. Now every 👎
is read in one query and the question is found through an index (counted statements and the query plan, no time)."""

from __future__ import annotations

import sqlite3

import numpy as np

from rag_core.insights.log import InsightLog

MODEL = "fake-model"


def _log_with(tmp_path, dislikes: int) -> InsightLog:
    log = InsightLog(tmp_path / f"insights-{dislikes}.sqlite3")
    vector = np.ones(4, dtype=np.float32)
    for n in range(dislikes):
        question = f"公司有没有提供第{n}号班车？"
        log.log_question(asked_at="2030-01-01T00:00:00+00:00", user="emp_wang", role="employee", question=question,
                         outcome="zero_hit", hit_count=0, cited_docs=[], nearest={}, model=MODEL, vector=vector)
        log.add_feedback(created_at="2030-01-01T00:01:00+00:00", user="emp_wang", question=question, answer="没有找到",
                         rating=-1, reason="", comment="", docs=[], trace={}, nearest={}, model=MODEL, vector=vector)
    return log


def _statements(log: InsightLog) -> list[str]:
    """Every statement the gap query runs."""
    seen: list[str] = []
    log._db.set_trace_callback(seen.append)
    items, _ = log.gap_items(MODEL)
    log._db.set_trace_callback(None)
    assert [i.kind for i in items] == ["zero_hit+disliked"] * (len(items)), "each 👎 must mark its turn"
    return seen


def test_the_rows_of_the_dislikes_are_read_in_a_number_of_queries_that_does_not_grow(tmp_path) -> None:
    few, many = (_statements(_log_with(tmp_path, n)) for n in (3, 12))
    on_feedback = [len([s for s in run if "FROM feedback" in s]) for run in (few, many)]
    assert on_feedback[0] == on_feedback[1], on_feedback


def test_an_asked_question_is_found_through_an_index(tmp_path) -> None:
    log = _log_with(tmp_path, 3)
    lookups = [s for s in _statements(log) if "FROM questions WHERE question =" in s]
    assert lookups, "the test needs the fallback path"
    for sql in lookups:
        plan = " ".join(str(row[-1]) for row in log._db.execute(f"EXPLAIN QUERY PLAN {sql}", [""] * sql.count("?")))
        assert "INDEX questions_text" in plan, plan  # not a scan, nor a range of questions_time


def test_an_older_store_gets_the_index_when_it_opens(tmp_path) -> None:
    path = tmp_path / "old.sqlite3"
    InsightLog(path).close()
    with sqlite3.connect(path) as db:
        db.execute("DROP INDEX questions_text")
    reopened = InsightLog(path)
    assert reopened._db.execute("SELECT 1 FROM sqlite_master WHERE name = 'questions_text'").fetchone()
