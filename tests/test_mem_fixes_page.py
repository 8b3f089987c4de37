"""The memories page: a forget preview belongs to the person it was made for."""

from __future__ import annotations

from pathlib import Path

from app_support import point_the_app_at
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parent.parent / "app.py")


def open_memories(assistant, tmp_path, monkeypatch) -> AppTest:
    import ui.state

    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("pages/memories.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_forget_preview_is_dropped_when_another_person_is_shown(tmp_path, monkeypatch):
    assistant = fake_assistant(tmp_path / "store")
    for text in ("我常驻杭州办公室", "我喜欢用表格", "我对花生过敏"):
        assistant.remember("local", text)
    for text in ("王五在北京办公室", "王五喜欢简短回答", "王五下个月结婚"):
        assistant.remember("王五", text)
    at = open_memories(assistant, tmp_path, monkeypatch)
    next(n for n in at.number_input if n.label == "保留条数 N").set_value(2).run()
    next(b for b in at.button if b.label == "预览将被遗忘的记忆").click().run()
    assert [b for b in at.button if b.label == "确认遗忘"]
    next(t for t in at.text_input if t.label == "查看谁的记忆").set_value("王五").run()
    assert not at.exception, [e.value for e in at.exception]
    assert not [b for b in at.button if b.label == "确认遗忘"], "本机用户's preview is offered for 王五"
    assert len(assistant.list_memories("王五")) == 3
    assert len(assistant.list_memories("local")) == 3
