"""Review 364 #1: 反馈审阅 and 知识缺口 built their Excel workbook at every click on the page (6,000 ratings: seconds a
click); it is built when 导出 Excel is clicked. AppTest over a fake-backed assistant."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import fake_assistant_with_samples

from rag_core import Principal

EMP = Principal("emp_wang", "employee")


def _page_counting_exports(tmp_path: Path, monkeypatch, page: str):
    """(the assistant with one 👎 rating, its page opened, the export kinds it built so far)."""
    from app_support import open_desktop_page, serve_desktop

    a = fake_assistant_with_samples(tmp_path / "store")
    a.record_feedback(a.ask("年假有几天？", actor=EMP), -1, actor=EMP, reason="信息过时")
    built: list[str] = []
    real = a.export_insights
    monkeypatch.setattr(a, "export_insights", lambda *args, **kw: built.append(args[0]) or real(*args, **kw))
    serve_desktop(a, tmp_path, monkeypatch)
    return a, open_desktop_page(page), built


@pytest.mark.parametrize("page", ["pages/feedback_review.py", "pages/gaps.py"])
def test_the_pages_build_the_workbook_only_when_it_is_downloaded(tmp_path: Path, monkeypatch, page: str) -> None:
    a, at, built = _page_counting_exports(tmp_path, monkeypatch, page)
    assert not at.exception
    assert built == []  # drawn without building it


@pytest.mark.parametrize("page", ["pages/feedback_review.py", "pages/gaps.py"])
def test_the_click_builds_it_and_a_failure_is_said_in_chinese(tmp_path: Path, monkeypatch, page: str) -> None:
    """Review 366 #6: built by the download button's deferred callable, a failure reached the browser as Streamlit's
    English "Failed to generate file for download"; the click builds it in the page's run now."""
    from rag_core import RagError

    a, at, built = _page_counting_exports(tmp_path, monkeypatch, page)
    next(b for b in at.button if b.label == "导出 Excel").click().run()
    assert not at.exception and len(built) == 1 and not at.error
    assert any("文件已生成" in c.value for c in at.caption)

    def broken(*args, **kw):
        raise RagError("问题记录文件 insights.sqlite3 已损坏")

    monkeypatch.setattr(a, "export_insights", broken)
    next(b for b in at.button if b.label == "导出 Excel").click().run()
    assert not at.exception and any("导出失败" in e.value and "已损坏" in e.value for e in at.error)
