"""Review 61 (rev-memui D3–D5): the memories page in two tabs, and an administrator switching whose memories.

D3: tab A's stale edit box overwrote tab B's correction without a word; now a box nobody typed in shows the change at
once, and an edit typed before it is refused, the box refilled, the typed text said.
D4: an edit typed for a memory deleted in another tab vanished with its box without any message.
D5: 清空全部记忆 armed for one person stayed armed after switching to another: one click purged the wrong one."""

from __future__ import annotations

import pytest
from app_support import open_desktop_page, serve_desktop
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest


@pytest.fixture()
def assistant(tmp_path, monkeypatch):
    a = fake_assistant(tmp_path / "store")
    serve_desktop(a, tmp_path, monkeypatch)
    return a


def open_page() -> AppTest:
    return open_desktop_page("pages/memories.py")


def choose(at: AppTest, memory_id: str) -> None:
    next(s for s in at.selectbox if s.label == "选择要修改的记忆").set_value(memory_id).run()


def box(at: AppTest):
    return next(t for t in at.text_area if t.label == "新的内容")


def click(at: AppTest, label: str) -> None:
    next(b for b in at.button if b.label == label).click().run()
    assert not at.exception, [e.value for e in at.exception]


def test_a_stale_tab_never_overwrites_a_correction_saved_in_another(assistant):
    mid, _ = assistant.remember("local", "我在上海办公室")
    tab_a, tab_b = open_page(), open_page()
    choose(tab_a, mid)
    box(tab_a).set_value("我在上海办公室，周五远程").run()  # A types, then B saves first
    choose(tab_b, mid)
    box(tab_b).set_value("我在杭州办公室，负责招聘").run()
    click(tab_b, "保存修改")
    click(tab_a, "保存修改")
    assert [m.content for m in assistant.list_memories("local")] == ["我在杭州办公室，负责招聘"]
    warned = " ".join(w.value for w in tab_a.warning)
    assert "这条记忆在您打开后已被修改" in warned and "我在上海办公室，周五远程" in warned, warned
    assert box(tab_a).value == "我在杭州办公室，负责招聘"  # refilled with the memory as it is now
    box(tab_a).set_value("我在杭州办公室，负责招聘，周五远程").run()
    click(tab_a, "保存修改")
    assert [m.content for m in assistant.list_memories("local")] == ["我在杭州办公室，负责招聘，周五远程"]


def test_a_box_nobody_typed_in_shows_a_change_made_elsewhere(assistant):
    mid, _ = assistant.remember("local", "我在上海办公室")
    tab = open_page()
    choose(tab, mid)
    assistant.update_memory_text(mid, "我在杭州办公室")
    tab.run()
    assert box(tab).value == "我在杭州办公室"


def test_an_edit_of_a_memory_deleted_elsewhere_is_said_with_the_typed_text(assistant):
    mid, _ = assistant.remember("local", "我在上海办公室")
    assistant.remember("local", "我对花生过敏")
    tab = open_page()
    choose(tab, mid)
    box(tab).set_value("我在上海办公室，负责*招聘*").run()
    assistant.delete_memories([mid])
    click(tab, "保存修改")
    warned = [w.value for w in tab.warning]
    assert any(w.startswith("这条记忆已在别处删除，您输入的内容没有保存：") and "负责\\*招聘\\*" in w for w in warned), warned
    tab.run()
    assert not any("别处删除" in w.value for w in tab.warning)  # said once


def test_a_memory_deleted_on_this_page_is_not_said_deleted_elsewhere(assistant):
    mid, _ = assistant.remember("local", "我在上海办公室")
    assistant.remember("local", "我对花生过敏")
    tab = open_page()
    choose(tab, mid)
    box(tab).set_value("我在上海办公室，负责招聘").run()
    next(m for m in tab.multiselect if m.label.startswith("选择要删除的记忆")).set_value([mid]).run()
    click(tab, "删除所选")
    click(tab, "确认删除")
    assert not any("别处删除" in w.value for w in tab.warning)


def test_a_purge_armed_for_one_person_is_dropped_when_switching_to_another(assistant):
    assistant.remember("王五", "我在北京办公室")
    for text in ("我常驻杭州办公室", "我喜欢表格"):
        assistant.remember("赵六", text)
    tab = open_page()
    owner = next(t for t in tab.text_input if t.label == "查看谁的记忆")
    owner.set_value("王五").run()
    click(tab, "清空全部记忆")
    assert any("确定清空 王五" in w.value for w in tab.warning)
    next(t for t in tab.text_input if t.label == "查看谁的记忆").set_value("赵六").run()
    assert not any("确认清空" == b.label for b in tab.button)
    assert not any("确定清空" in w.value for w in tab.warning)
    assert len(assistant.list_memories("赵六")) == 2
    next(t for t in tab.text_input if t.label == "查看谁的记忆").set_value("王五").run()
    assert not any("确认清空" == b.label for b in tab.button)  # switching back does not re-arm it either


def test_an_edit_names_a_contradicting_memory_it_kept(assistant):
    assistant.remember("local", "我常驻杭州，对花生过敏")
    mid, _ = assistant.remember("local", "我喜欢简短的回答")
    tab = open_page()
    choose(tab, mid)
    box(tab).set_value("我常驻上海").run()
    click(tab, "保存修改")
    said = " ".join(m.value for m in [*tab.success, *tab.info, *tab.markdown, *tab.toast])
    assert "已保存修改" in said and "与此冲突但内容更多，没有删除" in said and "我常驻杭州，对花生过敏" in said, said
