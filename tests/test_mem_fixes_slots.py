"""Whose fact it is, and what a fact denies: slots belong to the user only, a denial replaces what it denies."""

from __future__ import annotations

from datetime import timedelta

import pytest
from memory_support import NOW, make_store

from rag_core.memory.text import slots

U = "u"


def active(store) -> list[str]:
    return sorted(h.content for h in store.list(U, now=NOW))


@pytest.mark.parametrize(("text", "expected"), [
    ("用户同事在研发部", {}),
    ("用户老婆常驻北京", {}),
    ("用户老婆常驻北京，在研发部工作", {}),  # a clause without a subject has the one before
    ("用户在财务部工作，老婆常驻北京", {"department": "财务部"}),
    ("用户老婆的主管是张三", {}),
    ("用户王五是研发部员工,直属主管是李四", {"department": "研发部", "manager": "李四"}),
    ("用户在财务部工作，主管是李四", {"department": "财务部", "manager": "李四"}),
])
def test_a_slot_is_the_users_own_only(text, expected):
    assert slots(text) == expected


def test_a_colleagues_department_and_a_wifes_city_do_not_replace_mine(tmp_path):
    store = make_store(tmp_path)
    store.write_back(U, "我在财务部工作，我常驻杭州", "", now=NOW)
    store.write_back(U, "我同事在研发部，他出差能报多少", "", now=NOW + timedelta(minutes=1))
    store.write_back(U, "我老婆常驻北京", "", now=NOW + timedelta(minutes=2))
    facts = active(store)
    assert "用户在财务部工作" in facts and "用户常驻杭州" in facts, facts
    # a colleague's fact is not the person's own: not kept at all since review 219
    assert "用户同事在研发部" not in facts and "用户老婆常驻北京" in facts, facts


@pytest.mark.parametrize(("first", "denial", "stored"), [
    ("我常驻杭州", "我已经不在杭州了", "用户已经不在杭州了"),
    ("我在财务部", "我不在财务部了", "用户不在财务部了"),
    ("我在财务部工作", "我不在财务部工作了", "用户不在财务部工作了"),
    ("我对花生过敏", "我对花生不过敏了", "用户对花生不过敏"),
])
def test_a_denial_replaces_the_fact_it_denies(tmp_path, first, denial, stored):
    store = make_store(tmp_path)
    store.write_back(U, first, "", now=NOW)
    before = store.list(U, now=NOW)
    written = store.told_facts(U, denial, "", now=NOW + timedelta(minutes=1))
    assert [(action, told) for _, action, told in written] == [("replaced", stored)]
    assert active(store) == [stored]
    assert store.get(before[0].id).deleted and store.get(before[0].id).importance == before[0].importance


def test_another_persons_fact_does_not_strengthen_mine(tmp_path):
    store = make_store(tmp_path)
    store.write_back(U, "我常驻杭州", "", now=NOW)
    importance = store.list(U, now=NOW)[0].importance
    written = store.told_facts(U, "我老婆在杭州", "", now=NOW + timedelta(minutes=1))
    assert [action for _, action, _ in written] == ["added"]
    assert active(store) == ["用户常驻杭州", "用户老婆在杭州"]
    assert next(h for h in store.list(U, now=NOW) if h.content == "用户常驻杭州").importance == importance


@pytest.mark.parametrize("move", ["我调到上海了", "我外派到上海了", "我调去上海分公司了"])
def test_moving_to_a_city_replaces_the_old_city(tmp_path, move):
    store = make_store(tmp_path)
    store.write_back(U, "我是财务部的李娜，我常驻杭州", "", now=NOW)
    written = store.told_facts(U, move, "", now=NOW + timedelta(minutes=1))
    assert [action for _, action, _ in written] == ["replaced"]
    facts = active(store)
    assert "用户常驻杭州" not in facts and any("上海" in f for f in facts), facts


def test_moving_to_a_department_is_no_city():
    assert slots("用户调到了研发部") == {"department": "研发部"}
    assert slots("用户调到上海了，在销售部工作") == {"city": "上海", "department": "销售部"}


@pytest.mark.parametrize(("first", "later", "kept"), [
    ("我常驻杭州", "我不喜欢杭州的天气", "用户常驻杭州"),
    ("我常驻北京", "我不想再去北京出差了", "用户常驻北京"),
])
def test_a_negative_sentence_about_something_else_keeps_the_fact(tmp_path, first, later, kept):
    """Found by the review of the first fixes: any 不/没 near the city was read as a denial of it."""
    store = make_store(tmp_path)
    store.write_back(U, first, "", now=NOW)
    store.told_facts(U, later, "", now=NOW + timedelta(minutes=1))
    assert kept in active(store), active(store)


def test_moving_from_other_departments_still_replaces_mine(tmp_path):
    """他 inside 其他 made 我从其他部门调到研发部了 a fact about someone else."""
    store = make_store(tmp_path)
    store.write_back(U, "我在财务部工作", "", now=NOW)
    store.told_facts(U, "我从其他部门调到研发部了", "", now=NOW + timedelta(minutes=1))
    assert "用户在财务部工作" not in active(store), active(store)


def test_a_move_to_a_department_keeps_the_city(tmp_path):
    """用户调到人事部了 gave the city 人事部了 and replaced 用户常驻杭州 (the add form, an LLM's fact)."""
    store = make_store(tmp_path)
    store.add(U, "用户常驻杭州", now=NOW)
    store.add(U, "用户调到人事部了", now=NOW + timedelta(minutes=1))
    assert "用户常驻杭州" in active(store), active(store)
