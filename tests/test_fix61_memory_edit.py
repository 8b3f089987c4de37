"""Review 61 (rev-memui D2, D3): a memory's edit checked against the person's other memories and against what it was
edited from.

D2: 我常驻上海 added after 我常驻杭州 replaces it, but editing another memory (我对花生过敏) into 我常驻上海 left both
cities active and recall used both; an edit into a copy of another memory left two. Now the edit is matched as a new
fact is: a copy or a contradicted fact is replaced, and the result names it.
D3: two tabs editing one memory: the later save overwrote the earlier correction without a word. Now the edit carries
the text it started from (`shown`) and is refused when the memory says something else now."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core import MemoryStoreError, Principal

E = Principal("zhang", "employee")
ADMIN = Principal("wang", "admin")


@pytest.fixture()
def assistant(tmp_path):
    return fake_assistant(tmp_path / "store")


def active(assistant) -> list[str]:
    return sorted(m.content for m in assistant.list_memories("zhang", actor=E))


def test_an_edit_into_another_city_replaces_the_city_kept(assistant):
    assistant.remember("zhang", "我常驻杭州", actor=E)
    mid, _ = assistant.remember("zhang", "我对花生过敏", actor=E)
    stored = assistant.update_memory_text(mid, "我常驻上海", actor=E)
    assert stored == "我常驻上海" and stored.replaced == ("我常驻杭州",)
    assert active(assistant) == ["我常驻上海"]
    assert [h.content for h in assistant.recall("zhang", "我出差住宿标准是多少", actor=E)] == ["我常驻上海"]
    kept = assistant.list_memories("zhang", actor=E)[0]
    assert kept.id == mid  # the edited row stays; the contradicted one is replaced by it
    replaced = [h for h in assistant.memory.history("zhang") if h["action"] == "replaced"]
    assert [(h["content"], h["detail"]) for h in replaced] == [("我常驻杭州", f"replaced_by={mid}")]
    edit = [e for e in assistant.audit_entries(actor=ADMIN) if e.action == "memory.edit"][-1]
    assert "替换 1 条" in edit.detail


def test_an_edit_into_a_copy_of_another_memory_leaves_one(assistant):
    assistant.remember("zhang", "我常驻杭州", actor=E)
    mid, _ = assistant.remember("zhang", "我喜欢简短的回答", kind="preference", actor=E)
    other, _ = assistant.remember("zhang", "我对花生过敏", actor=E)
    stored = assistant.update_memory_text(other, "我常驻杭州", actor=E)
    assert stored.replaced == ("我常驻杭州",)
    assert active(assistant) == ["我喜欢简短的回答", "我常驻杭州"] and mid


def test_an_edit_that_matches_nothing_else_replaces_nothing(assistant):
    assistant.remember("zhang", "我常驻杭州", actor=E)
    mid, _ = assistant.remember("zhang", "我对花生过敏", actor=E)
    stored = assistant.update_memory_text(mid, "我对芒果过敏", actor=E)
    assert stored.replaced == () and active(assistant) == ["我对芒果过敏", "我常驻杭州"]


def test_an_edit_from_a_text_changed_since_is_refused(assistant):
    mid, _ = assistant.remember("zhang", "我在上海办公室", actor=E)
    assistant.update_memory_text(mid, "我在杭州办公室，负责招聘", shown="我在上海办公室", actor=E)  # tab B
    with pytest.raises(MemoryStoreError, match="这条记忆在您打开后已被修改：现在是“我在杭州办公室，负责招聘”"):
        assistant.update_memory_text(mid, "我在上海办公室，周五远程", shown="我在上海办公室", actor=E)  # tab A
    assert active(assistant) == ["我在杭州办公室，负责招聘"]


def test_an_edit_from_the_masked_text_shown_is_accepted(assistant):
    mid, _ = assistant.remember("zhang", "我在杭州办公室，电话13812345678", actor=E)
    shown = assistant.list_memories("zhang", actor=E)[0].content
    assert "13812345678" not in shown
    assert assistant.update_memory_text(mid, "我在杭州办公室", shown=shown, actor=E) == "我在杭州办公室"


# ---- review rev-own2 (D4): an edit deleted another memory that says more than it ------------------------------------

def test_an_edit_repeating_part_of_a_richer_memory_keeps_it(assistant):
    assistant.remember("zhang", "我常驻杭州，老婆在北京工作，对花生过敏", actor=E)
    other, _ = assistant.remember("zhang", "我下个月结婚", actor=E)
    stored = assistant.update_memory_text(other, "我常驻杭州", actor=E)
    assert stored.replaced == () and active(assistant) == ["我常驻杭州", "我常驻杭州，老婆在北京工作，对花生过敏"]


def test_an_edit_into_the_department_keeps_the_memory_that_says_more(assistant):
    assistant.remember("zhang", "我在研发部，负责招聘系统的开发，入职5年", actor=E)
    other, _ = assistant.remember("zhang", "我下个月结婚", actor=E)
    assert assistant.update_memory_text(other, "我在研发部工作", actor=E).replaced == ()
    assert "我在研发部，负责招聘系统的开发，入职5年" in active(assistant)


def test_an_edit_contradicting_part_of_a_memory_keeps_it_and_names_it(assistant):
    assistant.remember("zhang", "我常驻杭州，对花生过敏", actor=E)
    other, _ = assistant.remember("zhang", "我下个月结婚", actor=E)
    stored = assistant.update_memory_text(other, "我常驻上海", actor=E)
    assert stored.replaced == () and stored.contradicted == ("我常驻杭州，对花生过敏",)
    assert active(assistant) == ["我常驻上海", "我常驻杭州，对花生过敏"]
    edit = [e for e in assistant.audit_entries(actor=ADMIN) if e.action == "memory.edit"][-1]
    assert "1 条冲突的记忆说得更多而保留" in edit.detail
