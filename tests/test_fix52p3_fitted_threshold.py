"""Review 52p #1: unticking 使用实测拟合值 and pressing 应用 without touching the number changes nothing in effect.

The page showed the usual fitted 0.350 and saved it, yet a store with fewer than `small_store` visible chunks
answers with its own 0.10, and a threshold set by a person also turns that small-store rule off: one short policy
went from 1 hit to 0. AppTest on the fake-embedder facade (desktop mode: the local administrator).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import fake_assistant
from test_s50d_settings_page import apply, fitted_box, settings_page

QUESTION = "通勤车从哪里出发？"


def small_store(tmp_path: Path):
    assistant = fake_assistant(tmp_path / "store", answer_threshold=None)  # the shipped fitted decision
    report = assistant.ingest_bytes("# 班车制度\n\n第一条 公司每天早上八点从地铁站发一班通勤车。\n".encode(), "班车制度.md")
    assert report.ok
    return assistant


def test_unticking_and_applying_an_untouched_number_keeps_the_small_store_threshold(tmp_path, monkeypatch):
    assistant = small_store(tmp_path)
    assert assistant.search(QUESTION).hit_count == 1
    at = settings_page(assistant, tmp_path, monkeypatch)
    apply(fitted_box(at).uncheck().run())
    assert assistant.settings.answer_threshold is None
    assert assistant.search(QUESTION).hit_count == 1
    assert any("数字没有改，仍使用实测拟合值" in i.value for i in at.info), [i.value for i in at.info]


def test_the_page_shows_the_small_store_threshold_and_that_a_set_value_replaces_it(tmp_path, monkeypatch):
    assistant = small_store(tmp_path)
    model = assistant.decision
    assert model.small_store and model.small_question_threshold is not None
    at = settings_page(assistant, tmp_path, monkeypatch)
    captions = " ".join(c.value for c in at.caption)
    assert f"不到 {model.small_store} 块时为 {model.small_question_threshold:.3f}" in captions, captions
    fitted_box(at).uncheck().run()
    captions = " ".join(c.value for c in at.caption)
    assert f"也替换资料不到 {model.small_store} 块时的 {model.small_question_threshold:.3f}" in captions, captions


def test_an_edited_number_is_still_saved(tmp_path, monkeypatch):
    assistant = small_store(tmp_path)
    at = settings_page(assistant, tmp_path, monkeypatch)
    fitted_box(at).uncheck().run()
    next(n for n in at.number_input if n.label == "回答的把握门槛").set_value(0.2)
    apply(at)
    assert assistant.settings.answer_threshold == pytest.approx(0.2)
