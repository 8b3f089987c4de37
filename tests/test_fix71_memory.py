"""Review 390 (memories): a move told with a question, or in everyday words, replaces the city it contradicts; an
edit takes the memory's earlier text out of the turns that quoted it, as a delete does."""

from __future__ import annotations

import json

import pytest
from fakes import fake_assistant, fake_assistant_with_samples

from rag_core import Principal

ZHANG = Principal("zhang", "employee")


def _cities(a) -> list[str]:
    return [m.content for m in a.list_memories("zhang", actor=ZHANG) if "杭州" in m.content or "上海" in m.content]


def test_a_move_told_with_a_question_replaces_the_city(tmp_path) -> None:
    a = fake_assistant_with_samples(tmp_path / "s")
    a.ask("我常驻杭州", user="zhang", actor=ZHANG, conversation="c1")
    trace = a.ask("我现在调到上海了，出差住宿标准是多少？", user="zhang", actor=ZHANG, conversation="c1")
    assert "杭州" not in trace.search_question
    kept = _cities(a)
    assert any("上海" in k for k in kept) and not any("杭州" in k for k in kept), kept


@pytest.mark.parametrize("move", ["我去上海工作了", "我的工作地点改成上海了", "我到上海上班了", "我搬去上海住了"])
def test_everyday_wordings_of_a_move_replace_the_city(tmp_path, move) -> None:
    a = fake_assistant(tmp_path / "s")
    a.ask("我常驻杭州", user="zhang", actor=ZHANG, conversation="c1")
    a.ask(move, user="zhang", actor=ZHANG, conversation="c1")
    kept = _cities(a)
    assert any("上海" in k for k in kept) and not any("杭州" in k for k in kept), kept


def test_an_errand_in_a_city_is_no_move(tmp_path) -> None:
    a = fake_assistant(tmp_path / "s")
    a.ask("我常驻杭州", user="zhang", actor=ZHANG, conversation="c1")
    a.ask("我去上海出差了", user="zhang", actor=ZHANG, conversation="c1")
    assert any("杭州" in k for k in _cities(a)), _cities(a)


def test_an_edit_takes_the_earlier_text_out_of_the_turns_that_quoted_it(tmp_path) -> None:
    a = fake_assistant_with_samples(tmp_path / "s")
    memory_id, _ = a.remember("zhang", "我常驻杭州，我有抑郁症", actor=ZHANG)
    trace = a.ask("我出差补贴怎么算？", user="zhang", actor=ZHANG, conversation="c1")
    assert any("抑郁" in m.content for m in trace.memories)
    a.update_memory_text(memory_id, "我常驻杭州", actor=ZHANG)
    _conversation, traces = a.open_conversation("c1", actor=ZHANG)
    assert not any("抑郁" in m.content for t in traces for m in t.memories)
    assert not any("抑郁" in (t.prompt or "") for t in traces)
    assert "抑郁" not in json.dumps(a.export_history("zhang", actor=ZHANG), ensure_ascii=False)


@pytest.mark.parametrize("pasted", ["![截图](http://evil.example/a.png)", "http://evil.example/a", "www.evil.example"])
def test_a_pasted_picture_or_address_is_no_memory(tmp_path, pasted) -> None:
    a = fake_assistant(tmp_path / "s")
    a.ask(f"我常驻北京 {pasted}", user="zhang", actor=ZHANG, conversation="c1")
    kept = [m.content for m in a.list_memories("zhang", actor=ZHANG)]
    assert kept == ["用户常驻北京"], kept


@pytest.mark.parametrize("trip", ["我明天去北京", "我今天到北京，明天回来", "我到上海住酒店了", "我去北京工作一周"])
def test_a_trip_keeps_the_home_city(tmp_path, trip) -> None:
    # review 394 #1: the everyday wordings of a move took a trip for one
    a = fake_assistant(tmp_path / "s")
    a.ask("我常驻杭州", user="zhang", actor=ZHANG, conversation="c1")
    a.ask(trip, user="zhang", actor=ZHANG, conversation="c1")
    assert "用户常驻杭州" in _cities(a), _cities(a)


@pytest.mark.parametrize(("typed", "kept"), [
    ("我常驻北京 http://a.example/x,我是研发部的", "研发部"),  # an address ends at its own characters (review 394 #5)
    ("我常驻北京（见 http://a.example/x）", "用户常驻北京"),
    ("我常驻北京 [主页](http://a.example/(1))", "用户常驻北京"),
])
def test_what_stands_around_an_address_is_read_as_said(tmp_path, typed, kept) -> None:
    a = fake_assistant(tmp_path / "s")
    a.ask(typed, user="zhang", actor=ZHANG, conversation="c1")
    memories = [m.content for m in a.list_memories("zhang", actor=ZHANG)]
    assert any(kept in m for m in memories), memories
    assert not any(piece in m for m in memories for piece in ("（见", ")", "http")), memories


def test_a_memory_edited_while_a_turn_was_answered_leaves_that_turn_too(tmp_path) -> None:
    # review 394 #3: the check made when a turn is stored looked for deleted memories only
    from rag_core.facade.purge_race import as_left

    a = fake_assistant(tmp_path / "s")
    memory_id, _ = a.remember("zhang", "我常驻杭州", actor=ZHANG)
    record = {"memories": [{"id": memory_id, "content": "用户常驻杭州，用户有抑郁症"}], "prompt": "…用户有抑郁症…",
              "memory_search": ""}
    left = as_left(lambda: a.memory, record, "答复", "zhang")
    assert left is not None and "抑郁" not in json.dumps(left, ensure_ascii=False)
    current = a.list_memories("zhang", actor=ZHANG)[0].content
    assert as_left(lambda: a.memory, {"memories": [{"id": memory_id, "content": current}]}, "答复", "zhang") is None


@pytest.mark.parametrize("not_now", ["我明天去北京工作", "我下周去北京上班", "我以前在北京工作"])
def test_a_plan_or_a_past_job_keeps_the_home_city(tmp_path, not_now) -> None:
    # review 396 #3
    a = fake_assistant(tmp_path / "s")
    a.ask("我常驻杭州", user="zhang", actor=ZHANG, conversation="c1")
    a.ask(not_now, user="zhang", actor=ZHANG, conversation="c1")
    assert "用户常驻杭州" in _cities(a), _cities(a)


@pytest.mark.parametrize("pasted", ["我常驻北京 http://x.cn/路径/图片", "我常驻北京http://x.cn/a", "我常驻北京，见www.evil.example"])
def test_an_address_glued_to_chinese_or_with_a_chinese_path_goes_whole(tmp_path, pasted) -> None:
    # review 396 #2
    a = fake_assistant(tmp_path / "s")
    a.ask(pasted, user="zhang", actor=ZHANG, conversation="c1")
    assert [m.content for m in a.list_memories("zhang", actor=ZHANG)] == ["用户常驻北京"]


@pytest.mark.parametrize(("said", "home_kept"), [
    ("我已经到上海上班", False), ("我毕业以后在上海工作", False), ("我现在住在上海", False),
    ("我现在常驻上海，出差住宿标准是多少？", False), ("我搬到上海了，出差住宿标准是多少？", False),
    ("我以前一直在北京工作", True), ("我原来常驻北京", True), ("我下个月调到上海", True),
])
def test_now_and_not_now(tmp_path, said, home_kept) -> None:
    # review 397 #2-#4: moves said now replace the city; a past or a plan, in any of the city wordings, does not
    a = fake_assistant(tmp_path / "s")
    a.ask("我常驻杭州", user="zhang", actor=ZHANG, conversation="c1")
    a.ask(said, user="zhang", actor=ZHANG, conversation="c1")
    assert ("用户常驻杭州" in _cities(a)) == home_kept, _cities(a)


@pytest.mark.parametrize("pasted", ["我常驻北京 http://例子.中国/a", "我常驻北京《http://x.cn》", "我常驻北京【见 www.x.cn】"])
def test_a_chinese_host_or_an_address_in_book_brackets_goes_whole(tmp_path, pasted) -> None:
    # review 397 #7
    a = fake_assistant(tmp_path / "s")
    a.ask(pasted, user="zhang", actor=ZHANG, conversation="c1")
    assert [m.content for m in a.list_memories("zhang", actor=ZHANG)] == ["用户常驻北京"]
