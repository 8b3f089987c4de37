"""Review 382 #4 on the page: a gap HR answered says so, and offers no second 设为标准答复 form."""

from __future__ import annotations

from app_support import logged_in_with
from test_fix70_standard import answered_gap

from rag_core.types import Principal
from tests.test_hr_tools import APP, PASSWORD


def test_an_answered_gap_says_so_and_offers_no_second_form(tmp_path, monkeypatch) -> None:
    a, question, entry = answered_gap(tmp_path)
    a.add_user("wang", "admin", PASSWORD)
    a.add_user("li", "hr", PASSWORD, actor=Principal("wang", "admin"))
    at = logged_in_with(a, APP, "li", PASSWORD, tmp_path, monkeypatch)
    at.switch_page("pages/gaps.py").run()
    assert not at.exception, [e.value for e in at.exception]
    number = next(i for i, e in enumerate(at.expander) if question in e.label)
    assert "已有标准答复" in at.expander[number].label
    assert any(entry.id in s.value for s in at.expander[number].success)
    assert not [b for b in at.expander[number].button if b.label == "设为标准答复"]
