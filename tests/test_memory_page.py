"""记忆管理 as HR uses it (issue 32): the search filters and the count follows, the text can be corrected.

The engine part (update_memory_text: masked, permission-checked, audited) on the fake-embedder
facade; the page part through AppTest in desktop mode on the same kind of facade.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from app_support import point_the_app_at
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest

from rag_core import MemoryStoreError, PermissionDenied, Principal, RagError

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
EMPLOYEE = Principal("zhang", "employee")
OTHER = Principal("li", "employee")
ADMIN = Principal("wang", "admin")


@pytest.fixture()
def assistant(tmp_path: Path) -> Any:
    return fake_assistant(tmp_path / "store")


# -- the engine ------------------------------------------------------------------------
def test_an_edit_is_masked_before_it_is_stored(assistant) -> None:
    mid, _ = assistant.remember("zhang", "我在上海办公室", actor=EMPLOYEE)
    stored = assistant.update_memory_text(mid, "我在杭州办公室，手机 13812345678", actor=EMPLOYEE)
    assert "13812345678" not in stored
    kept = {m.id: m.content for m in assistant.list_memories("zhang", actor=EMPLOYEE)}
    assert kept[mid] == stored and "杭州" in stored and "13812345678" not in stored
    assert "13812345678" not in str(assistant.memory.history("zhang", mid))
    edit = next(e for e in assistant.audit_entries(actor=ADMIN) if e.action == "memory.edit")
    assert (edit.actor, edit.target, edit.outcome) == ("zhang", f"zhang 的记忆 {mid}", "ok")


def test_an_edited_memory_is_recalled_by_its_new_words(assistant) -> None:
    mid, _ = assistant.remember("zhang", "用户常驻上海", actor=EMPLOYEE)
    assistant.update_memory_text(mid, "用户常驻乌鲁木齐", actor=EMPLOYEE)
    found = assistant.list_memories("zhang", query="乌鲁木齐", actor=EMPLOYEE)
    assert found[0].id == mid and found[0].relevance > 0


def test_someone_elses_memory_cannot_be_edited(assistant) -> None:
    mid, _ = assistant.remember("zhang", "我在上海办公室", actor=EMPLOYEE)
    with pytest.raises(PermissionDenied):
        assistant.update_memory_text(mid, "改掉别人的记忆", actor=OTHER)
    assert assistant.list_memories("zhang", actor=EMPLOYEE)[0].content == "我在上海办公室"
    refused = [e for e in assistant.audit_entries(actor=ADMIN) if e.outcome == "refused"]
    assert len(refused) == 1 and refused[0].actor == "li" and "memory.edit" in refused[0].target
    assistant.update_memory_text(mid, "管理员改的", actor=ADMIN)  # an administrator may
    assert assistant.list_memories("zhang", actor=EMPLOYEE)[0].content == "管理员改的"


@pytest.mark.parametrize("text", ["", "   ", "很长" * 501])
def test_an_empty_or_too_long_text_is_refused_in_chinese(assistant, text: str) -> None:
    mid, _ = assistant.remember("zhang", "我在上海办公室", actor=EMPLOYEE)
    with pytest.raises(RagError, match="记忆内容"):
        assistant.update_memory_text(mid, text, actor=EMPLOYEE)
    assert assistant.list_memories("zhang", actor=EMPLOYEE)[0].content == "我在上海办公室"


def test_an_unknown_memory_is_named(assistant) -> None:
    with pytest.raises(MemoryStoreError, match="找不到记忆"):
        assistant.update_memory_text("no-such-id", "内容", actor=ADMIN)


# -- the page ----------------------------------------------------------------------------
def open_memories(assistant: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    import ui.state

    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("pages/memories.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def heading(at: AppTest) -> str:
    return next(s.value for s in at.subheader if "的记忆" in s.value)


def search_box(at: AppTest):
    return next(t for t in at.text_input if t.label == "搜索记忆")


def test_the_search_filters_and_the_count_follows(assistant, tmp_path, monkeypatch) -> None:
    for text in ("我常驻杭州办公室", "我喜欢用表格列出报销标准", "我下个月去杭州出差", "我对花生过敏"):
        assistant.remember("local", text)
    at = open_memories(assistant, tmp_path, monkeypatch)
    assert heading(at) == "本机用户 的记忆：共 4 条"
    search_box(at).set_value("杭州").run()
    assert heading(at) == "本机用户 的记忆：共 2 条（筛选自 4 条）"
    table = next(df for df in at.dataframe if "内容" in df.value.columns)
    assert sorted(table.value["内容"]) == ["我下个月去杭州出差", "我常驻杭州办公室"]
    assert table.proto.row_height > 64  # a long memory wraps
    search_box(at).set_value("乌鲁木齐").run()
    assert heading(at) == "本机用户 的记忆：共 0 条（筛选自 4 条）"
    assert any("没有符合条件的记忆" in i.value for i in at.info)


def test_the_person_picker_sits_under_the_title(assistant, tmp_path, monkeypatch) -> None:
    at = open_memories(assistant, tmp_path, monkeypatch)
    order = [getattr(node, "label", None) or getattr(node, "value", None) for node in at.main]
    assert order.index("记忆管理") < order.index("查看谁的记忆"), order


def edit_on_the_page(at: AppTest, memory_id: str, text: str) -> AppTest:
    next(s for s in at.selectbox if s.label == "选择要修改的记忆").set_value(memory_id).run()
    next(t for t in at.text_area if t.label == "新的内容").set_value(text).run()
    next(b for b in at.button if b.label == "保存修改").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_page_edits_a_memorys_text_masked_and_says_so(assistant, tmp_path, monkeypatch) -> None:
    mid, _ = assistant.remember("local", "我在上海办公室")
    at = open_memories(assistant, tmp_path, monkeypatch)
    edit_on_the_page(at, mid, "我在杭州办公室，电话13812345678")
    stored = assistant.list_memories("local")[0].content
    assert "杭州" in stored and "13812345678" not in stored
    assert any(s.value.startswith("已保存修改（个人信息已遮盖）") for s in at.success), [s.value for s in at.success]


@pytest.mark.parametrize(("text", "said"), [("   ", "记忆内容不能为空"), ("长" * 1001, "记忆内容太长：1001 字")])
def test_the_page_says_why_an_edit_is_refused(assistant, tmp_path, monkeypatch, text: str, said: str) -> None:
    mid, _ = assistant.remember("local", "我在上海办公室")
    at = open_memories(assistant, tmp_path, monkeypatch)
    edit_on_the_page(at, mid, text)
    assert any(said in e.value for e in at.error), [e.value for e in at.error]
    assert assistant.list_memories("local")[0].content == "我在上海办公室"


def test_the_desktop_user_is_picked_as_benji_yonghu(assistant, tmp_path, monkeypatch) -> None:
    assistant.remember("local", "我常驻杭州办公室")
    assistant.remember("王五", "我在北京办公室")
    at = open_memories(assistant, tmp_path, monkeypatch)
    picker = next(t for t in at.text_input if t.label == "查看谁的记忆")
    assert picker.value == "本机用户" and "local" not in picker.help
    picker.set_value("王五").run()
    assert heading(at) == "王五 的记忆：共 1 条"
    next(t for t in at.text_input if t.label == "查看谁的记忆").set_value("本机用户").run()
    assert heading(at) == "本机用户 的记忆：共 1 条" and at.session_state["memory_owner"] == "local"
