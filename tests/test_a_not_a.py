"""An A-not-A question (补不补, 算不算, 能不能) asks yes or no; it names nothing the clause must say (stop 46)."""

from __future__ import annotations

from rag_core.answer.extractive import ExtractiveAnswerer
from rag_core.answer.prompt import NOT_IN_POLICY
from rag_core.answer.subject import question_terms
from rag_core.text.asking import outside_yes_no_forms
from rag_core.types import SourceRef

HOLIDAYS = SourceRef(1, (
    "部分公民放假的节日及纪念日：妇女节（3月8日），妇女放假半天。"
    "部分公民放假的假日，如果适逢星期六、星期日，则不补假。"
), "全国年节及纪念日放假办法.md", "第三条", "h@v1#0")


def test_the_form_is_not_a_word_of_the_question():
    assert question_terms("妇女节放假赶上星期六补不补") == ["妇女节", "放假", "赶上", "星期六"]
    assert "不算" not in question_terms("加班路上出事算不算工伤")  # jieba cuts 算不算 into 算 + 不算
    assert "不能" not in question_terms("年假能不能折现")


def test_the_word_asked_about_is_kept_when_it_is_the_form_itself():
    """折现不折现 asks whether 折现: the form's 不折现 is dropped, 折现 is what a clause must say (found by review)."""
    assert "折现" in question_terms("年假折现不折现")
    assert question_terms("年假折现不折现") == question_terms("年假能不能折现")


def test_a_word_also_said_outside_the_form_is_kept():
    assert outside_yes_no_forms(["不能", "报销"], "能不能报销不能报的") == ["不能", "报销"]
    assert outside_yes_no_forms(["工伤"], "算不算工伤") == ["工伤"]


def test_a_clause_that_answers_is_not_refused_for_the_form():
    answer = ExtractiveAnswerer().answer("妇女节放假赶上星期六补不补", [HOLIDAYS])
    assert not answer.startswith(NOT_IN_POLICY), answer
    assert "则不补假" in answer
