"""Review 376 (a new HR user in headless Chromium): the empty 额外可读受众 box said Streamlit's English "Choose options"
(#4); 已添加标准答复 named the answer's internal id, not its question (#5). AppTest, fake embedder."""

from __future__ import annotations

from app_support import open_desktop_page, serve_desktop
from fakes import fake_assistant_with_samples

from rag_core import Principal

ADMIN = Principal("wang", "admin")


def test_the_empty_audience_boxes_speak_chinese(tmp_path, monkeypatch):
    a = fake_assistant_with_samples(tmp_path / "store")
    serve_desktop(a, tmp_path, monkeypatch)
    at = open_desktop_page("pages/users.py")
    boxes = [m for m in at.multiselect if m.label == "额外可读受众"]
    assert boxes and all(m.placeholder and m.placeholder.isascii() is False for m in boxes)


def test_an_added_standard_answer_is_named_by_its_question(tmp_path, monkeypatch):
    a = fake_assistant_with_samples(tmp_path / "store")
    serve_desktop(a, tmp_path, monkeypatch)
    at = open_desktop_page("pages/standard_answers.py")
    at.text_input(key=next(t.key for t in at.text_input if t.label.startswith("问题"))).set_value("公司有年会吗？")
    area = next(t for t in at.text_area if "标准答复" in t.label)
    area.set_value("每年一月举办年会。")
    next(b for b in at.button if b.label.startswith("添加")).click().run()
    said = " ".join(s.value for s in at.success)
    assert "公司有年会吗" in said and not any(len(w) == 10 and w.isalnum() and w.isascii() for w in said.split())
