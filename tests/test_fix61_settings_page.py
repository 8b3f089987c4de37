"""Review 61 (rev-memui D6): the settings page when a save changes the chunking.

(a) The warning that this save replaced a value another administrator changed meanwhile was dropped whenever the save
also changed a 分块 field: the page asked about re-indexing and lost it. Now it is shown with the question and after.
(b) 相邻段重复字数 at or above 每段字数 was refused only after the person agreed to re-index everything, and in the
engine's technical name (chunk_overlap). Now it is refused before the question, in the page's labels, with both values."""

from __future__ import annotations

import pytest
from app_support import open_desktop_page, serve_desktop
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest


@pytest.fixture()
def assistant(tmp_path, monkeypatch):
    a = fake_assistant(tmp_path / "store")
    serve_desktop(a, tmp_path, monkeypatch)
    return a


def open_page() -> AppTest:
    return open_desktop_page("pages/settings.py")


def number(at: AppTest, label: str):
    return next(n for n in at.number_input if n.label == label)


def click(at: AppTest, label: str) -> None:
    next(b for b in at.button if b.label == label).click().run()
    assert not at.exception, [e.value for e in at.exception]


def test_a_change_made_elsewhere_is_still_said_when_the_save_recuts(assistant):
    page = open_page()
    drawn = number(page, "每次检索返回条数").value
    assistant.update_settings(top_k=drawn + 3)  # another administrator, after the page was drawn
    number(page, "每次检索返回条数").set_value(drawn + 1)
    number(page, "每段字数").set_value(assistant.settings.chunk_size + 60)
    click(page, "应用")
    asked = " ".join(w.value for w in page.warning)
    assert "重新索引" in asked and "已在别处从" in asked, asked
    click(page, "确认并重新索引")
    assert assistant.settings.top_k == drawn + 1
    warned = [w.value for w in page.warning]
    assert any(f"已在别处从 {drawn} 改成 {drawn + 3}" in w for w in warned), warned


def test_an_overlap_not_below_the_chunk_size_is_refused_before_asking_to_reindex(assistant):
    page = open_page()
    size, overlap = assistant.settings.chunk_size, assistant.settings.chunk_overlap
    number(page, "相邻段重复字数").set_value(size + 260)
    click(page, "应用")
    assert not any(b.label == "确认并重新索引" for b in page.button)
    errors = [e.value for e in page.error]
    assert any("相邻段重复字数" in e and f"（{size + 260}）" in e and f"每段字数（{size}）" in e for e in errors), errors
    assert not any("chunk_overlap" in e for e in errors)
    assert assistant.settings.chunk_overlap == overlap
