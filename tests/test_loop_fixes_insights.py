"""HR loop fixes (review s49): what a rating keeps, retention at 0, standard answer bounds, eval hit counts.

Each test failed before its fix (checked by running it on the unfixed code).
"""

from __future__ import annotations

from fakes import fake_assistant
from test_audience_leaks import ADMIN, HR, MANAGER, QUESTION, SECRET, _with_repeating_llm

from rag_core.types import Principal

EMPLOYEE = Principal("emp_wang", "employee")
ABSENT = "公司有没有提供班车？"


def test_a_dislike_of_a_reworded_follow_up_keeps_the_typed_question_from_hr(tmp_path):
    """The rewrite folded in an earlier managers-only answer: HR's 知识缺口 (and its export) must not show it."""
    a = _with_repeating_llm(tmp_path)
    second = a.ask("那副经理呢？", user="mgr_zhou", actor=MANAGER, conversation="m1")
    assert SECRET in second.search_question
    a.record_feedback(second, -1, actor=MANAGER, reason="答非所问")
    stored = a.insight_log.feedback(include_tests=True)
    assert [e.question for e in stored] == ["那副经理呢？"]
    assert all(SECRET not in g.representative + "".join(g.questions) for g in a.knowledge_gaps(actor=HR))
    assert SECRET.encode() not in a.export_insights("gaps", "csv", actor=HR)
    assert SECRET.encode() not in a.export_insights("gaps", "xlsx", actor=HR)


def test_a_dislike_of_a_managers_answer_is_not_a_gap_hr_sees(tmp_path):
    """A 👎 row is on the gap page as the rated question: HR sees it only when they may read what the answer
    showed, as in 反馈审阅."""
    a = _with_repeating_llm(tmp_path)
    rated = a.ask(QUESTION, user="mgr_zhou", actor=MANAGER, remember=False)
    assert SECRET in rated.answer
    a.record_feedback(rated, -1, actor=MANAGER, reason="答非所问")
    assert [g.kinds for g in a.knowledge_gaps(actor=ADMIN)] == [{"disliked": 1}]
    assert a.knowledge_gaps(actor=HR) == []


def test_retention_zero_keeps_no_question_or_comment_and_purges_what_was_kept(tmp_path):
    """0 表示不记录: switching to 0 leaves no question text anywhere in the insight log, and a new rating keeps none."""
    kept = fake_assistant(tmp_path / "s", answer_threshold=0.99)
    kept.ensure_samples()
    old = kept.ask(ABSENT, actor=EMPLOYEE, remember=False, user="")
    kept.record_feedback(old, -1, actor=EMPLOYEE, reason="答非所问", comment="班车的事没人回答")
    assert kept.insight_log.question_rows() and kept.knowledge_gaps(actor=HR)
    none = fake_assistant(tmp_path / "s", answer_threshold=0.99, question_retention_days=0)
    new = none.ask("食堂几点开门？", actor=EMPLOYEE, remember=False, user="")
    none.record_feedback(new, -1, actor=EMPLOYEE, reason="其他", comment="食堂的事")
    assert none.knowledge_gaps(actor=HR) == []
    assert none.insight_log.question_rows(include_tests=True) == []
    reviews = none.feedback_reviews(actor=HR)
    assert len(reviews) == 2 and {(e.question, e.comment) for e in reviews} == {("", "")}
    stored = str([none.feedback_detail(e.id, actor=ADMIN).trace for e in reviews])
    assert ABSENT not in stored and "食堂几点开门" not in stored
