"""A damaged feature store costs its feature, never a page: one Chinese line, and chat still answers.

Each page that reads a store of its own (对话记录, 记忆, 使用情况, 标准答复) is opened on a data dir
whose file was garbled after use; the page must show the engine's Chinese line, not a traceback.
A damaged conversations.sqlite3 must not cost an answer either: it is shown, just not kept.
"""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from app_support import point_the_app_at
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest

from rag_core import Principal

APP = str(Path(__file__).resolve().parent.parent / "app.py")
LOCAL = Principal(user="local", role="admin")
POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n".encode()


def garble(path: Path) -> None:
    """Overwrite the first 4 KB (the SQLite header and first pages) with noise, as a bad disk would."""
    for side in path.parent.glob(path.name + "-*"):
        side.unlink()
    data = bytearray(path.read_bytes())
    for i in range(min(len(data), 4096)):
        data[i] = (data[i] * 7 + 13) % 256
    path.write_bytes(bytes(data))


def damaged(tmp_path: Path, name: str):
    """A used data dir (a document, a memory, a turn, a standard answer) with `name` garbled."""
    data = tmp_path / "store"
    a = fake_assistant(data)
    a.ingest_bytes(POLICY, "leave.md", actor=LOCAL)
    a.remember("local", "我在研发部工作", actor=LOCAL)
    a.ask("年假有几天", user="local", actor=LOCAL, conversation="c1")
    a.add_standard_answer("公司有班车吗？", "没有班车。", actor=LOCAL)
    a.memory.close()
    del a
    gc.collect()
    garble(data / name)
    return fake_assistant(data)


def plain(shown: str) -> str:
    """Markdown text as read: the pages escape punctuation (memory\\.sqlite3)."""
    return shown.replace("\\", "")


def open_page(assistant, tmp_path: Path, monkeypatch, page: str | None = None) -> AppTest:
    import ui.state

    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    if page:
        at.switch_page(page).run()
    return at


def test_chat_answers_and_shows_the_answer_with_a_damaged_conversation_store(tmp_path, monkeypatch):
    assistant = damaged(tmp_path, "conversations.sqlite3")
    expected = assistant.ask("年假有几天", user="local", actor=LOCAL, conversation="c2").answer.splitlines()[0]
    at = open_page(assistant, tmp_path, monkeypatch)  # 问答, the default page
    assert not at.exception, [str(e.value)[:80] for e in at.exception]
    assert any("conversations.sqlite3" in plain(w.value) and "不会保存" in w.value for w in at.warning)
    at.chat_input[0].set_value("年假有几天").run()
    assert not at.exception, [str(e.value)[:80] for e in at.exception]
    shown = " ".join(m.value for m in at.markdown)
    assert expected in shown, "the answer was produced, then lost by the redraw from the store"
    assert not [i for i in at.info if "不存在或已被删除" in i.value]


@pytest.mark.parametrize(("store", "page"), [("memory.sqlite3", "pages/memories.py"),
                                             ("insights.sqlite3", "pages/usage.py"),
                                             ("standard_answers.sqlite3", "pages/standard_answers.py")])
def test_a_damaged_feature_store_is_one_chinese_line_on_its_page(tmp_path, monkeypatch, store, page):
    at = open_page(damaged(tmp_path, store), tmp_path, monkeypatch, page)
    assert not at.exception, [str(e.value)[:80] for e in at.exception]
    assert [e.value for e in at.error if store in plain(e.value) and "损坏" in e.value]
