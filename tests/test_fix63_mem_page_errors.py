"""Review 63 (memory) #3: on the memories page a delete, purge, forget preview or forget that fails (a busy file, a
full disk) is one Chinese line, not a traceback, and what was chosen stays to try again."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_support import point_the_app_at
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest

from rag_core.errors import MemoryStoreError

APP = str(Path(__file__).resolve().parents[1] / "app.py")
BUSY = "记忆库（memory.sqlite3）正被另一个进程占用，请稍后再试"


def _busy(*_args, **_kwargs):
    raise MemoryStoreError(BUSY)


@pytest.fixture
def page(tmp_path, monkeypatch):
    import ui.state

    a = fake_assistant(tmp_path / "store")
    a.remember("local", "我常驻杭州")
    a.remember("local", "我喜欢喝茶")
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: a)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("pages/memories.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return a, at


def _click(at, label):
    next(b for b in at.button if b.label == label).click().run()
    assert not at.exception, [str(e.value)[:300] for e in at.exception]


def _said(at, start):
    errors = [e.value for e in at.error]
    assert any(e.startswith(start) and "另一个进程占用" in e for e in errors), errors


def test_a_failed_delete_is_said_and_the_choice_stays(page, monkeypatch):
    a, at = page
    first = a.list_memories("local")[0].id
    next(m for m in at.multiselect if m.label.startswith("选择要删除")).set_value([first]).run()
    _click(at, "删除所选")
    monkeypatch.setattr(a, "delete_memories", _busy)
    _click(at, "确认删除")
    _said(at, "删除失败")
    assert any(b.label == "确认删除" for b in at.button)  # still asked, to try again or cancel
    assert len(a.list_memories("local")) == 2


def test_a_failed_purge_is_said_and_the_confirmation_stays(page, monkeypatch):
    a, at = page
    _click(at, "清空全部记忆")
    monkeypatch.setattr(a, "purge_memories", _busy)
    _click(at, "确认清空")
    _said(at, "清空失败")
    assert any(b.label == "确认清空" for b in at.button)


def test_a_failed_forget_preview_and_forget_are_said(page, monkeypatch):
    a, at = page
    real_preview = a.preview_forget
    monkeypatch.setattr(a, "preview_forget", _busy)
    _click(at, "预览将被遗忘的记忆")
    _said(at, "预览失败")
    monkeypatch.setattr(a, "preview_forget", real_preview)
    _click(at, "预览将被遗忘的记忆")
    monkeypatch.setattr(a, "forget_previewed", _busy)
    _click(at, "确认遗忘")
    _said(at, "遗忘失败")
    assert any(b.label == "确认遗忘" for b in at.button)  # the preview stays
    assert len(a.list_memories("local")) == 2
