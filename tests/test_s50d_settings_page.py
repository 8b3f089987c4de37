"""The settings page (s50d review): the fitted answer threshold is offered as the field's value when HR unticks
"使用实测拟合值", and a page opened before another session's change never drops or reverts that change silently.

AppTest on the fake-embedder facade (desktop mode: the local administrator).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parent.parent / "app.py")
THRESHOLD_LABEL = "回答的把握门槛"


def settings_page(assistant, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    from app_support import point_the_app_at

    import ui.state

    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("pages/settings.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def fitted_box(at: AppTest):
    return next(box for box in at.checkbox if "使用实测拟合值" in box.label)


def apply(at: AppTest) -> AppTest:
    next(b for b in at.button if b.label == "应用").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_unticking_the_fitted_threshold_offers_the_fitted_value_not_a_placeholder(tmp_path, monkeypatch):
    assistant = fake_assistant(tmp_path / "store", answer_threshold=None)
    fitted = assistant.decision.question_threshold
    at = settings_page(assistant, tmp_path, monkeypatch)
    fitted_box(at).uncheck()
    apply(at)
    assert not any("0.75" in s.value for s in at.success), [s.value for s in at.success]
    assert assistant.settings.answer_threshold == pytest.approx(fitted, abs=1e-6)


def test_unticking_then_typing_a_threshold_applies_the_typed_value(tmp_path, monkeypatch):
    """The box re-runs the page, so the field is enabled before 应用 and shows the fitted value."""
    assistant = fake_assistant(tmp_path / "store", answer_threshold=None)
    at = settings_page(assistant, tmp_path, monkeypatch)
    fitted_box(at).uncheck().run()
    field = next(n for n in at.number_input if n.label == THRESHOLD_LABEL)
    assert not field.disabled
    assert field.value == pytest.approx(assistant.decision.question_threshold, abs=1e-6)
    field.set_value(0.4)
    apply(at)
    assert assistant.settings.answer_threshold == pytest.approx(0.4)
    fitted_box(at).check()
    apply(at)
    assert assistant.settings.answer_threshold is None
