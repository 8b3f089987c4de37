"""The settings page and `Settings.validate` share one table of ranges, and a stored value never breaks the page.

A threshold of 0.99 (valid for the engine, above the page's old 0.95) replaced the whole page, 恢复默认值
included, with "The value 0.99 is greater than the max_value 0.95."; memory_top_k=-1 was accepted;
a string top_k reached a comparison as a raw TypeError.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest

from rag_core import Settings, SettingsError
from rag_core.settings import LIMITS

APP = str(Path(__file__).resolve().parent.parent / "app.py")


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


@pytest.mark.parametrize("changes", [{"memory_top_k": -1}, {"memory_top_k": 51}, {"memory_half_life_days": float("inf")},
                                     {"answer_threshold": 1.0}, {"top_k": 0}])
def test_values_outside_the_table_are_refused(changes):
    with pytest.raises(SettingsError):
        Settings().with_changes(**changes)


@pytest.mark.parametrize("changes", [{"question_retention_days": 1e6}, {"conversation_retention_days": float("nan")},
                                     {"memory_retention_days": float("inf")}, {"ingest_seconds_per_chunk": float("nan")},
                                     {"llm_timeout_s": float("nan")}, {"embed_batch_size": 0}, {"chunk_size": 10**6},
                                     {"token_budget": 10**9}, {"max_file_mb": float("inf")}])
def test_a_knob_only_env_sets_is_finite_and_in_range(changes):
    """1e6 days as "keep forever" overflowed a date on every question; NaN read 约 nan 小时; a chunk size of a
    million cut in quadratic time (helper-41 8). Refused in Chinese at start, like a page knob."""
    with pytest.raises(SettingsError, match="须"):
        Settings().with_changes(**changes)


@pytest.mark.parametrize("changes", [{"top_k": "5"}, {"memory_threshold": "高"}, {"redact_pii": "yes"}])
def test_a_value_of_the_wrong_kind_is_a_chinese_refusal_not_a_type_error(changes):
    with pytest.raises(SettingsError, match=next(iter(changes))):
        Settings().with_changes(**changes)


def test_every_engine_limit_is_accepted():
    for name, (low, high, _) in LIMITS.items():
        for value in (low, high):
            if value is not None:
                other = {"chunk_overlap": 0} if name == "chunk_size" else {}  # the overlap stays below the size
                assert getattr(Settings().with_changes(**{name: value}, **other), name) == value


@pytest.mark.parametrize("changes", [{"answer_threshold": 0.99}, {"answer_threshold": 0.01},
                                     {"memory_half_life_days": 0.05}, {"memory_top_k": 0}])
def test_a_value_the_engine_accepts_is_shown_as_stored_with_the_engines_range(tmp_path, monkeypatch, changes):
    assistant = fake_assistant(tmp_path / "store")
    assistant.update_settings(**changes)
    at = settings_page(assistant, tmp_path, monkeypatch)
    assert not at.error and not [w for w in at.warning if "超出本页" in w.value]
    name, value = next(iter(changes.items()))
    widget = next(n for n in at.number_input if n.label.startswith(FIELD_LABELS[name]))
    assert widget.value == pytest.approx(value)
    low, high, _ = LIMITS[name]
    assert (widget.min, widget.max) == (pytest.approx(low), None if high is None else pytest.approx(high))


def test_a_stored_value_outside_the_page_is_clamped_with_a_warning_and_defaults_can_be_restored(tmp_path, monkeypatch):
    assistant = fake_assistant(tmp_path / "store")
    # what an older version or a hand-built Settings may hold: nothing validated it
    assistant._settings = replace(assistant.settings, memory_top_k=-1, answer_threshold=1.5)
    at = settings_page(assistant, tmp_path, monkeypatch)
    warnings = [w.value for w in at.warning if "超出本页" in w.value]
    assert len(warnings) == 2 and any("-1" in w for w in warnings), warnings
    assert next(n for n in at.number_input if n.label == FIELD_LABELS["memory_top_k"]).value == 0
    next(b for b in at.button if b.label == "恢复默认值").click().run()
    # the fake's .env sets the threshold (0.1): asked first since review 395 #3
    next(b for b in at.button if b.label == "仍然恢复默认值").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert assistant.settings.memory_top_k == Settings().memory_top_k
    assert assistant.settings.answer_threshold is None


FIELD_LABELS = {"answer_threshold": "回答的把握门槛", "memory_half_life_days": "记忆半衰期（天）",
                "memory_top_k": "每次最多使用的记忆条数"}
