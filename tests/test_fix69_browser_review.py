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


def test_a_short_document_is_named_only_where_the_search_showed_it(tmp_path):
    """Review 376 #3: every answer warned about every short document in the library, cited or not."""
    a = fake_assistant_with_samples(tmp_path / "store")
    assert a.ingest_bytes("食堂规定\n\n第一条 食堂午餐时间为十一点半到一点。\n".encode(), "食堂规定.txt").ok
    about_leave = a.search("年假有几天？")
    assert not any("食堂规定" in w for w in about_leave.warnings)
    about_lunch = a.search("食堂午餐时间是几点？")
    shown = {h.chunk.doc_id for h in (*about_lunch.hits, *about_lunch.near_misses)}
    assert "食堂规定" in shown and any("《食堂规定》只有" in w for w in about_lunch.warnings)
