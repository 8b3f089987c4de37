"""Review 61 (rev-memui D1): a colleague's private fact typed on the memories page was kept as the person's own.

`remember("zhang", "我同事张三得了癌症")` was added (chat write-back refuses the very sentence as someone else's), and
recall then lifted it into the prompt of the person's own questions (我的年假有几天): the outsider rule only read the
用户… form chat stores, never the 我… form a person types. Now the person's actions refuse it as chat does, and
recall reads a stored 我… text in the third person, so rows kept before stop reaching first-person questions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from fakes import BigramEmbedder, fake_assistant

from rag_core import MemoryStoreError, Principal
from rag_core.memory import MemoryStore

E = Principal("zhang", "employee")
NOW = datetime(2026, 6, 1, 9, tzinfo=UTC)


@pytest.fixture()
def assistant(tmp_path):
    return fake_assistant(tmp_path / "store")


@pytest.mark.parametrize("typed", ["我同事张三得了癌症", "我同事张三得了癌症，最近在住院", "用户同事张三得了癌症",
                                   "我领导李四在闹离婚", "同事张三得了癌症", "我同\u200b事张三得了癌症"])
def test_a_colleagues_private_fact_is_not_saved_as_the_persons_memory(assistant, typed):
    with pytest.raises(MemoryStoreError, match="这是关于别人的信息，不能保存为您的记忆"):
        assistant.remember("zhang", typed, actor=E)
    assert assistant.list_memories("zhang", actor=E) == []


def test_the_refusal_names_the_clause_and_what_could_be_kept(assistant):
    with pytest.raises(MemoryStoreError) as refused:
        assistant.remember("zhang", "我在研发部，同事张三得了癌症，最近在住院", actor=E)
    said = str(refused.value)
    assert "“同事张三得了癌症”" in said and said.endswith("请只写：我在研发部"), said


def test_an_edit_cannot_turn_a_memory_into_a_colleagues_fact(assistant):
    mid, _ = assistant.remember("zhang", "我常驻杭州", actor=E)
    with pytest.raises(MemoryStoreError, match="关于别人的信息"):
        assistant.update_memory_text(mid, "我同事张三得了癌症", actor=E)
    assert [m.content for m in assistant.list_memories("zhang", actor=E)] == ["我常驻杭州"]


@pytest.mark.parametrize("typed", ["我老婆怀孕了", "我领导派我下周去上海出差一个月", "我领导是李四", "我在研发部工作",
                                   "我同事和我都在研发部", "我常驻杭州", "别人的记忆"])
def test_the_persons_own_facts_and_familys_are_still_kept(assistant, typed):
    _, action = assistant.remember("zhang", typed, actor=E)
    assert action == "added"


def test_a_typed_first_person_fact_reads_as_chat_would_store_it():
    from rag_core.memory.text import about_an_outsider, as_the_person

    assert as_the_person("我同事张三得了癌症") == "用户同事张三得了癌症"
    assert as_the_person("用户同事张三得了癌症") == "用户同事张三得了癌症"
    assert about_an_outsider(as_the_person("我同事张三得了癌症")) and not about_an_outsider(as_the_person("我老婆怀孕了"))


def test_a_kept_first_person_fact_about_a_colleague_is_not_lifted_into_my_questions(tmp_path):
    """Rows kept before the page refused them (as typed, 我…): recall does not lift them for every 我… question."""
    store = MemoryStore(tmp_path / "memory.sqlite3", BigramEmbedder())
    store.add("u", "我同事张三得了癌症", kind="profile", importance=0.8, now=NOW)
    store.add("u", "我常驻杭州", kind="profile", importance=0.8, now=NOW)
    for question in ("我的年假有几天？", "我请病假要什么材料"):
        found = [h.content for h in store.search("u", question, now=NOW + timedelta(hours=1))]
        assert "我常驻杭州" in found and "我同事张三得了癌症" not in found, (question, found)
