"""What the first memory fixes of stop 49 broke, found by the review of those fixes (pure functions, no model).

A denial was read into any negative sentence naming the city (不喜欢杭州), 他 inside 其他 made the user's own
clause someone else's, a trailing 了 became part of a city (人事部了), and 我要当爸爸了。 with its full stop
was taken for a request.
"""

from __future__ import annotations

import pytest

from rag_core.conversations.statements import split_turn, without_requests
from rag_core.memory.text import about_someone_else, denies, slots


@pytest.mark.parametrize(("new", "old"), [
    ("用户不喜欢杭州的天气", "用户常驻杭州"),
    ("用户不想再去北京出差了", "用户常驻北京"),
    ("用户没有去过研发部", "用户在研发部工作"),
])
def test_a_negative_sentence_about_something_else_denies_nothing(new: str, old: str) -> None:
    assert not denies(new, old, near=False)


@pytest.mark.parametrize(("new", "old"), [
    ("用户已经不在杭州了", "用户常驻杭州"),
    ("用户不再常驻杭州", "用户常驻杭州"),
    ("用户不在财务部了", "用户在财务部"),
])
def test_a_denial_of_the_slot_itself_still_denies_it(new: str, old: str) -> None:
    assert denies(new, old, near=False)


@pytest.mark.parametrize(("fact", "found"), [
    ("用户从其他公司调到研发部", {"department": "研发部"}),
    ("用户带他的团队常驻杭州", {"city": "杭州"}),
    ("用户和妈妈一起常驻杭州", {"city": "杭州"}),
    ("用户调到人事部了", {"department": "人事部"}),
    ("用户调到上海了", {"city": "上海"}),
    ("用户同事在研发部", {}),
    ("用户老婆常驻北京", {}),
])
def test_the_users_own_slots_and_only_those(fact: str, found: dict) -> None:
    assert slots(fact) == found
    assert about_someone_else(fact) == (not found)


@pytest.mark.parametrize("said", ["我要当爸爸了", "我要当爸爸了。", "我要当爸爸了！", "我要结婚了。"])
def test_news_about_oneself_is_told_whatever_its_end_punctuation(said: str) -> None:
    parts = split_turn(said)
    assert parts.statement and not parts.question
    assert without_requests(said)


def test_a_request_is_still_a_request_with_its_full_stop() -> None:
    assert split_turn("我想请假。").question and not without_requests("我想请假。")
