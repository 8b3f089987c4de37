"""Renaming a conversation says the title that was kept (masked), not the one typed (found by review)."""

from __future__ import annotations

from pathlib import Path

from app_support import point_the_app_at
from fakes import fake_assistant

APP = str(Path(__file__).resolve().parents[1] / "app.py")


def test_the_rename_notice_and_the_box_show_the_masked_title(tmp_path, monkeypatch):
    from streamlit.testing.v1 import AppTest

    import ui.state

    assistant = fake_assistant(tmp_path / "store")
    assistant.ask("我常驻杭州", conversation="c1")
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["c"] = "c1"
    at.run()
    at.run()
    next(t for t in at.sidebar.text_input if t.label == "新标题").set_value("李娜 13812345678 的报销").run()
    next(b for b in at.sidebar.button if b.label == "保存标题").click().run()
    assert not at.exception, [e.value for e in at.exception]
    stored = assistant.get_conversation("c1").title
    assert "13812345678" not in stored and "[手机号]" in stored
    shown = [s.value for s in at.success]
    assert shown and not any("13812345678" in s for s in shown) and any("手机号" in s for s in shown)
    assert next(t for t in at.sidebar.text_input if t.label == "新标题").value == stored
