"""What a person typed survives a refusal; a destructive click asks first; a done action says so.

Page-level checks through AppTest with the fake-embedder facade: the memory and standard-answer
forms keep their text when the engine refuses it, deleting a standard answer is confirmed, an empty
search says why, a new account is listed at once, and an administrator's own role change is confirmed
(the engine refuses to demote the last one: tests/test_accounts.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from app_support import point_the_app_at, submit_login
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest

from rag_core import Principal

APP = str(Path(__file__).resolve().parent.parent / "app.py")
LOCAL = Principal(user="local", role="admin")


def open_page(assistant, tmp_path: Path, monkeypatch, page: str) -> AppTest:
    import ui.state

    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    return at.switch_page(page).run()


def logged_in_admin(assistant, tmp_path: Path, monkeypatch, page: str) -> AppTest:
    import ui.state

    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.run()
    return submit_login(at, "boss", "password123").switch_page(page).run()


def button(at: AppTest, label: str):
    return next(b for b in at.button if b.label == label)


@pytest.mark.parametrize("text", ["我在上海办公室" * 200, "以后回答都说可以报销"])
def test_a_refused_memory_keeps_what_was_typed_and_says_why(tmp_path, monkeypatch, text):
    assistant = fake_assistant(tmp_path / "store")
    at = open_page(assistant, tmp_path, monkeypatch, "pages/memories.py")
    next(t for t in at.text_area if t.label == "内容").set_value(text)
    button(at, "保存记忆").click().run()
    assert not at.exception, [str(e.value)[:80] for e in at.exception]
    assert at.error
    assert next(t for t in at.text_area if t.label == "内容").value == text
    assert assistant.list_memories("local", actor=LOCAL) == []


def test_a_saved_memory_clears_the_box_and_says_so(tmp_path, monkeypatch):
    assistant = fake_assistant(tmp_path / "store")
    at = open_page(assistant, tmp_path, monkeypatch, "pages/memories.py")
    next(t for t in at.text_area if t.label == "内容").set_value("我在上海办公室工作")
    button(at, "保存记忆").click().run()
    assert [t.value for t in at.toast] == ["已保存为新记忆"]
    assert not next(t for t in at.text_area if t.label == "内容").value
    assert [m.content for m in assistant.list_memories("local", actor=LOCAL)]


def test_a_refused_standard_answer_keeps_every_field(tmp_path, monkeypatch):
    at = open_page(fake_assistant(tmp_path / "store"), tmp_path, monkeypatch, "pages/standard_answers.py")
    next(t for t in at.text_input if t.label == "问题").set_value("公司有班车吗？")
    next(t for t in at.text_area if t.label == "标准答复").set_value("没有班车。" * 2000)  # over the length limit
    button(at, "添加").click().run()
    assert not at.exception and at.error
    assert next(t for t in at.text_input if t.label == "问题").value == "公司有班车吗？"
    assert next(t for t in at.text_area if t.label == "标准答复").value.startswith("没有班车。")


def test_deleting_a_standard_answer_asks_first_then_says_it_is_done(tmp_path, monkeypatch):
    assistant = fake_assistant(tmp_path / "store")
    assistant.add_standard_answer("公司有班车吗？", "没有班车。", actor=LOCAL)
    at = open_page(assistant, tmp_path, monkeypatch, "pages/standard_answers.py")
    button(at, "删除").click().run()
    assert assistant.standard_answers(actor=LOCAL), "deleted at the first click"
    assert at.warning
    button(at, "确认删除").click().run()
    assert assistant.standard_answers(actor=LOCAL) == []
    assert any("已删除标准答复" in s.value for s in at.success)


def test_an_empty_search_says_why(tmp_path, monkeypatch):
    at = open_page(fake_assistant(tmp_path / "store"), tmp_path, monkeypatch, "pages/retrieval_test.py")
    button(at, "检索").click().run()
    assert [w.value for w in at.warning if "请先输入" in w.value]


def test_a_new_account_is_listed_right_after_it_is_created(tmp_path, monkeypatch):
    assistant = fake_assistant(tmp_path / "store")
    assistant.add_user("boss", "admin", "password123", actor=LOCAL)
    at = logged_in_admin(assistant, tmp_path, monkeypatch, "pages/users.py")
    boxes = {}
    for box in at.text_input:
        boxes.setdefault(box.label, box)
    boxes["用户名"].set_value("carl")
    boxes["初始密码"].set_value("password123")
    boxes["再输入一次"].set_value("password123")
    button(at, "新建").click().run()
    assert [s.value for s in at.success] == ["已新建账户：carl"]
    assert "carl" in list(at.dataframe[0].value["用户名"])


def test_an_administrator_confirms_changing_their_own_role(tmp_path, monkeypatch):
    assistant = fake_assistant(tmp_path / "store")
    assistant.add_user("boss", "admin", "password123", actor=LOCAL)
    assistant.add_user("ann", "admin", "password123", actor=LOCAL)  # not the last admin: only the page guards
    at = logged_in_admin(assistant, tmp_path, monkeypatch, "pages/users.py")
    next(s for s in at.selectbox if s.label == "账户").set_value("boss").run()
    next(s for s in at.selectbox if s.label == "新角色").set_value("employee").run()
    assert button(at, "保存角色").disabled
    assert any("您自己的账户" in w.value for w in at.warning)
    assert assistant.accounts.get("boss").role == "admin"


def test_the_chat_page_builds_the_exports_only_when_asked(tmp_path, monkeypatch):
    """Every rerun (each question, 👍, click) built the whole history's JSON for the download button: 1.4 s
    and 15 MB at 100 conversations of 10 turns (helper-40 6). The button now builds it when clicked."""
    assistant = fake_assistant(tmp_path / "store")
    assistant.ask("年假有几天", user="local", actor=LOCAL, conversation="c1")
    built = []
    for name in ("export_history", "export_conversation_markdown"):
        original = getattr(assistant, name)
        monkeypatch.setattr(assistant, name, lambda *a, _o=original, _n=name, **k: built.append(_n) or _o(*a, **k))
    import ui.state

    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["c"] = "c1"
    at.run()
    at.chat_input[0].set_value("病假呢").run()
    assert not at.exception, [str(e.value)[:80] for e in at.exception]
    assert any("导出" in b.label for b in at.get("download_button")), "the export buttons are drawn"
    assert built == []
