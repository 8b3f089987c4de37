"""设置: every number field carries its own label, and a whole-number float (记忆半衰期 30 天) reads 30, not 30.000
(the UX walkthrough of stop 58)."""

from __future__ import annotations

from app_support import point_the_app_at
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest


def test_the_fields_are_labelled_and_days_read_whole(tmp_path, monkeypatch):
    import ui.state

    a = fake_assistant(tmp_path / "s")
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: a)
    at = AppTest.from_file("../app.py", default_timeout=120)
    at.run()
    at.switch_page("pages/settings.py").run()
    assert not at.exception, [e.value for e in at.exception]
    fields = list(at.number_input)
    assert fields and all(f.proto.label_visibility.value == 0 for f in fields), [f.label for f in fields]
    [days] = [f for f in fields if f.label == "记忆半衰期（天）"]
    assert days.proto.format == "%g"
