"""A pronoun points back only as words of its own (review 241 #2): 其它假期, 那种植牙, 这项目奖金 carry 它, 那种, 这项
inside or across other words, and were glued to the previous question as certain (其出差住宿标准假期有哪些？)."""

from __future__ import annotations

import pytest
from fakes import fake_assistant_with_samples

from rag_core.conversations.followup import dependence, pronoun_in
from rag_core.types import Principal

PREVIOUS = "出差住宿标准是多少？"


@pytest.mark.parametrize("typed", ["其它假期有哪些？", "那种植牙能报销吗？", "这项目奖金怎么算？"])
def test_a_pronoun_inside_another_word_does_not_point_back(typed):
    assert pronoun_in(typed) is None
    assert dependence(typed) != "指代上文"


@pytest.mark.parametrize("typed,pronoun", [
    ("这个需要谁审批？", "这个"), ("这种情况怎么办？", "这种"), ("这笔钱什么时候发？", "这笔"), ("它们有什么区别？", "它们"),
    ("这条规定适用于实习生吗？", "这条"), ("此项补贴怎么领？", "此项"), ("这期间工资怎么算？", "这期间"),
    ("这项补贴怎么申请？", "这项"), ("上面说的这个标准是多少？", "上面说的这个"),
])
def test_a_pronoun_of_its_own_still_points_back(typed, pronoun):
    assert pronoun_in(typed) == (0, pronoun)
    assert dependence(typed) == "指代上文"


def test_in_a_conversation_the_question_is_not_cut(tmp_path):
    a = fake_assistant_with_samples(tmp_path / "s")
    me = Principal("local", "admin")
    a.ask(PREVIOUS, user="local", actor=me, conversation="c1")
    trace = a.ask("那种植牙能报销吗？", user="local", actor=me, conversation="c1")
    assert "种植牙" in trace.search_question and "植牙" in trace.search_question, trace.search_question
    assert "出差住宿标准植牙" not in trace.search_question, trace.search_question
