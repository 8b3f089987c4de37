"""A standard answer's audience picker left empty on the page is refused (请选择可见范围), as the facade refuses an
empty label list: the page sent it on as ["all"], so clearing the picker served an answer to everyone."""

from __future__ import annotations

from fakes import fake_assistant
from test_pages_forms import LOCAL, button, open_page


def test_an_emptied_audience_picker_is_refused_not_everyone(tmp_path, monkeypatch) -> None:
    assistant = fake_assistant(tmp_path / "store")
    at = open_page(assistant, tmp_path, monkeypatch, "pages/standard_answers.py")
    next(t for t in at.text_input if t.label == "问题").set_value("绩效调薪幅度是多少？")
    next(t for t in at.text_area if t.label == "标准答复").set_value("百分之十（仅HR）")
    next(m for m in at.multiselect if m.label.startswith("受众")).set_value([])
    button(at, "添加").click().run()
    assert not at.exception and at.error
    assert assistant.standard_answers(actor=LOCAL) == []


def test_the_default_picker_still_adds_for_everyone(tmp_path, monkeypatch) -> None:
    assistant = fake_assistant(tmp_path / "store")
    at = open_page(assistant, tmp_path, monkeypatch, "pages/standard_answers.py")
    next(t for t in at.text_input if t.label == "问题").set_value("公司有班车吗？")
    next(t for t in at.text_area if t.label == "标准答复").set_value("没有班车。")
    button(at, "添加").click().run()
    assert not at.exception and not at.error
    assert [tuple(e.audience) for e in assistant.standard_answers(actor=LOCAL)] == [("all",)]
