"""Review 55h #2: a phone or ID number typed in front of a question stayed in the searched question (masked) and was
carried into every rewritten follow-up, which then read weak or 制度里没有写这一条."""

from __future__ import annotations

from fakes import fake_assistant_with_samples

from rag_core import Principal
from rag_core.conversations.statements import gives_contact_only, split_turn

LOCAL = Principal(user="local", role="admin")
WITH_NUMBER = ("我的手机号是13812345678，身份证110101199003071234，年假有几天？", "病假有几天？", "病假要谁批")
WITHOUT = ("年假有几天？", "病假有几天？", "病假要谁批")


def test_a_clause_of_only_a_masked_number_is_neither_asked_nor_told() -> None:
    assert split_turn("我的手机号是[手机号]，身份证[身份证号]，病假要谁批") == split_turn("病假要谁批")
    parts = split_turn("我是销售部的，手机[手机号]，年假有几天？")
    assert (parts.statement, parts.question) == ("我是销售部的", "年假有几天？")
    assert (split_turn("我的邮箱是[邮箱]").statement, split_turn("我的邮箱是[邮箱]").question) == ("", "")
    # a clause that says more than the number is asked as before
    assert not gives_contact_only("请打[手机号]联系我") and not gives_contact_only("我的工资卡[银行卡号]的工资没到账")
    assert split_turn("请打[手机号]联系我").question == "请打[手机号]联系我"


def test_follow_ups_after_a_number_are_searched_and_answered_as_without_it(tmp_path) -> None:
    a = fake_assistant_with_samples(tmp_path / "store")
    told = [a.ask(q, actor=LOCAL, conversation="c1") for q in WITH_NUMBER]
    plain = [a.ask(q, actor=LOCAL, conversation="c2") for q in WITHOUT]
    for with_number, without in zip(told, plain, strict=True):
        assert "[" not in with_number.search_question, with_number.search_question
        assert with_number.search_question == without.search_question
        assert with_number.outcome == without.outcome
        assert not with_number.acknowledged
    assert told[0].question.startswith("我的手机号是[手机号]")  # the turn is kept as typed, masked
    assert a.list_memories("local") == []  # no memory of a masked number


def test_a_turn_of_only_a_number_remembers_nothing(tmp_path) -> None:
    a = fake_assistant_with_samples(tmp_path / "store")
    trace = a.ask("我的手机号是13812345678", actor=LOCAL, conversation="c1")
    assert not trace.acknowledged and a.list_memories("local") == []
    assert "没有我能记住的个人信息" in trace.answer
