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
    # the number untouched: still the fitted decision (saving 0.35 also dropped a small store's 0.10; review 52p #1)
    assert assistant.settings.answer_threshold is None
    field = next(n for n in at.number_input if n.label == THRESHOLD_LABEL)
    assert field.value == pytest.approx(fitted, abs=1e-6)


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


def test_a_page_opened_before_another_change_does_not_drop_its_value(tmp_path, monkeypatch):
    """Session B sets top_k 8 after A opened the page; A sets 6 and applies: A's value is applied and A is told,
    in Chinese with both values, that it replaced the other change (before: '设置没有变化。', A's 6 dropped)."""
    assistant = fake_assistant(tmp_path / "store", top_k=5)
    at = settings_page(assistant, tmp_path, monkeypatch)
    assistant.update_settings(top_k=8)  # session B
    next(n for n in at.number_input if n.label == "每次检索返回条数").set_value(6)
    apply(at)
    assert assistant.settings.top_k == 6
    shown = " ".join(m.value for m in [*at.success, *at.info, *at.warning])
    assert "没有变化" not in shown and "8" in shown and "6" in shown and "5" in shown, shown


def test_a_stale_page_does_not_revert_a_knob_it_did_not_touch(tmp_path, monkeypatch):
    assistant = fake_assistant(tmp_path / "store")
    at = settings_page(assistant, tmp_path, monkeypatch)
    assistant.update_settings(candidates=40, memory_top_k=5)  # session B
    next(n for n in at.number_input if n.label == "每次检索返回条数").set_value(7)
    apply(at)
    assert (assistant.settings.top_k, assistant.settings.candidates, assistant.settings.memory_top_k) == (7, 40, 5)
    assert next(n for n in at.number_input if n.label == "初选条数").value == 40  # the page shows B's value now


def test_a_stale_page_with_nothing_changed_shows_the_new_values(tmp_path, monkeypatch):
    assistant = fake_assistant(tmp_path / "store", top_k=5)
    at = settings_page(assistant, tmp_path, monkeypatch)
    assistant.update_settings(top_k=8)  # session B
    apply(at)
    assert assistant.settings.top_k == 8
    assert next(n for n in at.number_input if n.label == "每次检索返回条数").value == 8
