"""Review 52k1 #4: a greeting (你好, 早上好, 在吗, 哈哈) is chatter, never searched nor logged as a question."""

from __future__ import annotations

import pytest

from rag_core.conversations.statements import split_turn
from tests.fakes import fake_assistant_with_samples

GREETINGS = ["你好", "您好！", "早上好", "下午好呀", "在吗", "在吗？", "哈哈", "hi", "Hello", "嗨，你好", "晚上好"]


@pytest.mark.parametrize("text", GREETINGS)
def test_a_greeting_is_chatter(text):
    parts = split_turn(text)
    assert parts.chatter and not parts.question and not parts.statement, parts


@pytest.mark.parametrize(("text", "question"), [("你好，年假有几天？", "年假有几天？"), ("早上好，我想问一下婚假", "婚假")])
def test_a_greeting_before_a_question_leaves_the_question(text, question):
    assert split_turn(text).question == question


@pytest.mark.parametrize("text", ["在上海吗", "早退怎么处理", "你好像说错了"])
def test_what_only_starts_like_a_greeting_is_not_one(text):
    assert not split_turn(text).chatter


def test_a_greeting_is_not_searched(tmp_path):
    a = fake_assistant_with_samples(tmp_path / "s")
    trace = a.ask("你好", user="u1", conversation="c1")
    assert trace.search_question == "" and not trace.sources
    assert a.list_memories("u1") == []
