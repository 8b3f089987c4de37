"""HR loop fixes (review s49): what a rating keeps, retention at 0, standard answer bounds, eval hit counts.

Each test failed before its fix (checked by running it on the unfixed code).
"""

from __future__ import annotations

from test_audience_leaks import ADMIN, HR, MANAGER, QUESTION, SECRET, _with_repeating_llm


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
