"""Small page defects a browser review found (review 51g 5–7): the settings page said None, a standard answer's
author read as the technical name local, and the retrieval test page printed literal asterisks."""

from __future__ import annotations

from fakes import fake_assistant, fake_assistant_with_samples
from markdown_it import MarkdownIt
from test_pages_forms import LOCAL, open_page


def test_a_saved_fitted_threshold_reads_as_such_not_none(tmp_path, monkeypatch) -> None:
    assistant = fake_assistant(tmp_path / "store")
    assistant.update_settings(top_k=3, answer_threshold=None, actor=LOCAL)
    at = open_page(assistant, tmp_path, monkeypatch, "pages/settings.py")
    saved = next(i.value for i in at.info if "每次启动都优先于" in i.value)
    assert "None" not in saved and "实测拟合值" in saved, saved


def test_a_standard_answer_by_the_desktop_user_names_them_as_pages_do(tmp_path, monkeypatch) -> None:
    assistant = fake_assistant_with_samples(tmp_path / "store")
    assistant.add_standard_answer("公司有班车吗？", "没有班车。", actor=LOCAL)
    at = open_page(assistant, tmp_path, monkeypatch, "pages/standard_answers.py")
    captions = " ".join(c.value for c in at.caption)
    assert "本机用户 ·" in captions and "local ·" not in captions, captions
    from ui.verdict import _standard_note

    trace = assistant.ask("公司有班车吗？", remember=False, actor=LOCAL)
    assert "本机用户" in _standard_note(trace) and "local" not in _standard_note(trace)


def test_the_retrieval_test_page_draws_its_threshold_bold_not_as_asterisks(tmp_path, monkeypatch) -> None:
    at = open_page(fake_assistant(tmp_path / "store"), tmp_path, monkeypatch, "pages/retrieval_test.py")
    at.session_state["tech_rt_rule"] = True  # the rule's numbers sit under 技术细节 (review 384 #7)
    at.run()
    rule = next(m.value for m in at.markdown if "把握低于" in m.value)
    html = MarkdownIt("commonmark").render(rule)
    assert "**" not in html and "<strong>" in html, html
    assert "左侧边栏" not in " ".join(c.value for c in at.caption)
