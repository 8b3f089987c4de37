"""Review 52r2 #2: zero-width characters (ZWSP, BOM, joiners, soft hyphen) and direction controls pasted with a
question (from WeChat) are dropped where every typed text enters (`text.inputs.checked`), so the turn is split,
searched and remembered as the visible text, and masking still sees a number split by them."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core.conversations.statements import split_turn
from rag_core.text.inputs import InputError, checked

ZWSP, BOM, RLO, LRI, PDI, SHY = "\u200b", "\ufeff", "\u202e", "\u2066", "\u2069", "\u00ad"


@pytest.mark.parametrize("typed", [f"试用{ZWSP}期多久？", f"{BOM}试用期多久？", f"试用{SHY}期{RLO}多久？",
                                   f"{LRI}试用期多久？{PDI}", "试\u200d用\u200c期\u2060多久？"])
def test_checked_drops_invisible_characters(typed):
    assert checked(typed) == "试用期多久？"


def test_only_invisible_characters_are_still_empty():
    with pytest.raises(InputError, match="不能为空"):
        checked(f"{ZWSP}{BOM} {RLO}")


def test_a_wish_after_a_zero_width_space_is_asked_not_remembered():
    parts = split_turn(checked(f"我是新员工{ZWSP}想问下试用期"))
    assert parts.statement == "我是新员工"
    assert "试用期" in parts.question


def test_the_question_is_searched_and_the_fact_kept_without_the_zwsp(tmp_path):
    a = fake_assistant(tmp_path / "store")
    trace = a.ask(f"我是新员工{ZWSP}想问下试用期", user="zw", conversation="c")
    assert "试用期" in trace.search_question and ZWSP not in trace.search_question
    kept = [m.content for m in a.list_memories("zw")]
    assert kept == ["用户是新员工"], kept
    assert ZWSP not in trace.answer


def test_a_zwsp_inside_a_word_is_not_searched(tmp_path):
    a = fake_assistant(tmp_path / "store")
    trace = a.ask(f"试用{ZWSP}期多久？", user="zw", conversation="c")
    assert ZWSP not in trace.search_question and "试用期" in trace.search_question


def test_a_mobile_split_by_zero_width_spaces_is_still_masked(tmp_path):
    a = fake_assistant(tmp_path / "store")
    trace = a.ask(f"我的手机138{ZWSP}1234{ZWSP}5678，年假有几天？", user="zw", conversation="c")
    assert "5678" not in trace.question and "5678" not in trace.search_question
    assert not any("5678" in m.content for m in a.list_memories("zw"))


@pytest.mark.parametrize(("typed", "told", "asked"), [("我是新员工想问下试用期", "我是新员工", "试用期"),
                                                      ("我在研发部想了解一下加班费", "我在研发部", "加班费"),
                                                      ("我叫张三想知道年假有几天", "我叫张三", "年假")])
def test_a_wish_right_after_a_statement_is_asked(typed, told, asked):
    parts = split_turn(typed)
    assert parts.statement == told and asked in parts.question


@pytest.mark.parametrize("typed", ["我是理想问题专家", "我是想问下试用期", "我想问下试用期", "我是来问下试用期"])
def test_no_wish_is_cut_out_of_a_word_or_off_its_own_opener(typed):
    parts = split_turn(typed)
    assert parts.statement in ("", typed) and (parts.statement == typed or "试用期" in parts.question)
