"""The PDF table pass spends its file budget only on pages that draw lines or rectangles, and says why it stopped.

A 70-page salary appendix (a ruled 50-row table a page, 30 KB of content each) had its last tables read as loose
words: the 2 MB file share was spent on every page, and the note blamed 图形或文字过多. Now pages without a line or
rectangle operator spend nothing, the share is 4 MB (pdfplumber read that appendix at 8 s per MB), and pages skipped
once it is spent get a note of their own.
"""

from __future__ import annotations

import io

import pytest

from rag_core.documents import pdf_budget, pdf_format
from rag_core.documents.parsing import parse_bytes

reportlab = pytest.importorskip("reportlab")


def _pdf(kinds: str) -> bytes:
    """A page per letter: `t` a ruled 12-row table, `p` paragraphs of prose (no line or rectangle)."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Table, TableStyle

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    style = getSampleStyleSheet()["Normal"]
    story: list = []
    for p, kind in enumerate(kinds):
        if kind == "t":
            rows = [["序号", "岗位", "基本工资", "备注"]] + [[f"{p}-{i}", f"岗位{i}", f"{5000 + i * 37}", "按月"]
                                                     for i in range(12)]
            table = Table(rows)
            table.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), "STSong-Light", 8),
                                       ("GRID", (0, 0), (-1, -1), 0.25, colors.black)]))
            story.append(table)
        else:
            story += [Paragraph(f"Page {p} leave rule {i}: staff take annual leave in agreed blocks.", style)
                      for i in range(40)]
        story.append(PageBreak())
    buf = io.BytesIO()
    SimpleDocTemplate(buf, pagesize=A4).build(story[:-1])
    return buf.getvalue()


def _sizes(data: bytes) -> tuple[list[int], set[int]]:
    from pypdf import PdfReader

    return pdf_budget.page_budget(list(PdfReader(io.BytesIO(data)).pages), "a.pdf")


def _content(data: bytes) -> list[int]:
    from pypdf import PdfReader

    return pdf_budget.content_sizes(list(PdfReader(io.BytesIO(data)).pages), "a.pdf")


def test_only_pages_with_lines_or_rectangles_are_table_candidates():
    sizes, ruled = _sizes(_pdf("ptp"))
    assert ruled == {1} and all(sizes)


def test_prose_pages_spend_nothing_of_the_table_share(monkeypatch):
    data = _pdf("pppppt")
    sizes = _content(data)
    monkeypatch.setattr(pdf_budget, "TABLE_FILE_CONTENT", sizes[-1] + min(sizes[:-1]))  # less than the prose pages
    doc = parse_bytes(data, "appendix.pdf", max_bytes=20 << 20)
    assert any(s.table and s.page == 6 for s in doc.sections)  # the last page's table is read as a table
    assert not any("没有识别其中的表格" in note for note in doc.reading.notes)


def test_pages_past_the_spent_share_get_their_own_note(monkeypatch):
    data = _pdf("tttt")
    sizes = _content(data)
    monkeypatch.setattr(pdf_budget, "TABLE_FILE_CONTENT", sizes[0] + sizes[1])
    doc = parse_bytes(data, "appendix.pdf", max_bytes=20 << 20)
    assert {s.page for s in doc.sections if s.table} == {1, 2}
    assert any("表格识别的总量已用完，第 3–4 页没有识别其中的表格" in note for note in doc.reading.notes)
    assert not any("图形或文字过多" in note for note in doc.reading.notes)


def test_the_share_is_spent_only_on_candidates():
    allowed, skipped = pdf_budget.table_pass_pages([3 << 20] * 5 + [100_000, 100_000], {5, 6})
    assert allowed == {5, 6} and skipped == []
    per_file = pdf_budget.TABLE_FILE_CONTENT // pdf_budget.TABLE_PAGE_CONTENT
    allowed, skipped = pdf_budget.table_pass_pages([pdf_budget.TABLE_PAGE_CONTENT] * (per_file + 2))
    assert allowed == set(range(per_file)) and skipped == [per_file, per_file + 1]


def test_the_share_holds_a_long_table_appendix():
    """The reviewer's 70 dense table pages (30 KB each, 2.1 MB) fit; 8 s per MB keeps the pass about 30 s."""
    assert 70 * 30 * 1024 < pdf_budget.TABLE_FILE_CONTENT <= 4 * pdf_budget.MB
    assert pdf_format.TABLE_PAGE_CONTENT == pdf_budget.TABLE_PAGE_CONTENT
