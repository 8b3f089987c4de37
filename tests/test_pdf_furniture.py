"""PDF page furniture (running headers, footers, page numbers) and PDF tables, on real PDFs
written by reportlab with a CJK font (STSong-Light, which every PDF reader knows)."""

from __future__ import annotations

import io

import pytest

from rag_core.documents.chunking import chunk_document
from rag_core.documents.furniture import remove_furniture
from rag_core.documents.parsing import parse_bytes

LIMIT = 20 * 1024 * 1024
HEADER = "华东科技有限公司 内部资料 请勿外传"
SUB_HEADER = "员工手册（2024 年版）"


def _canvas():
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    out = io.BytesIO()
    return canvas.Canvas(out, pagesize=A4), A4, out


def handbook_pdf(pages: int = 10, *, table_on: int | None = None) -> bytes:
    """Two articles per page, a two-line running header, and a 第 X 页 共 Y 页 footer."""
    c, (width, height), out = _canvas()
    for p in range(1, pages + 1):
        c.setFont("STSong-Light", 9)
        c.drawString(60, height - 30, HEADER)
        c.drawRightString(width - 60, height - 30, SUB_HEADER)
        c.setFont("STSong-Light", 12)
        y = height - 90
        for k in (2 * p - 1, 2 * p):
            for line in (f"第{k}条 第{k}项规定", f"员工应当遵守第{k}项规定，违反的按情节轻重处理，编号 A{k * 37}。"):
                c.drawString(60, y, line)
                y -= 22
        if p == table_on:
            rows = [["职级", "月薪下限（元）", "月薪上限（元）"], ["P1", "6000", "9000"], ["P2", "9000", "14000"], ["P3", "14000", "20000"]]
            y -= 20
            for i, row in enumerate(rows):
                for j, cell in enumerate(row):
                    c.rect(60 + j * 150, y - (i + 1) * 20, 150, 20)
                    c.drawString(65 + j * 150, y - (i + 1) * 20 + 6, cell)
        c.setFont("STSong-Light", 9)
        c.drawCentredString(width / 2, 30, f"第 {p} 页 共 {pages} 页")
        c.showPage()
    c.save()
    return out.getvalue()


def test_ten_page_pdf_has_no_header_footer_or_page_number_in_its_chunks() -> None:
    doc = parse_bytes(handbook_pdf(), "员工手册.pdf", max_bytes=LIMIT)
    chunks = chunk_document(doc, 240, 60)
    assert chunks
    for c in chunks:
        assert "华东科技" not in c.text and "内部资料" not in c.text and "2024 年版" not in c.text, c.text
        assert " 页 共 " not in c.text and "共 10 页" not in c.text, c.text
    assert doc.reading.furniture_removed == 30  # two header lines and a footer on each of the 10 pages
    assert {c.page for c in chunks} == set(range(1, 11))  # the page number stays, as metadata
    assert any("第19条 第19项规定" in c.text for c in chunks if c.page == 10)
    assert any("页眉、页脚和页码 30 行" in n for n in doc.reading.notes)


def test_an_article_that_carries_its_page_number_is_not_furniture() -> None:
    pages = [[f"第{p}条 加班", f"加班应当提前申请，见附件{p * 3 + 10}。", f"- {p} -"] for p in range(1, 6)]
    kept, found = remove_furniture(pages)
    assert [page[0] for page in kept] == [f"第{p}条 加班" for p in range(1, 6)]
    assert found.removed == 5 and found.examples == ["- 1 -"]


def test_a_single_page_keeps_everything() -> None:
    kept, found = remove_furniture([["公司简介", "第 1 页"]])
    assert kept == [["公司简介", "第 1 页"]] and found.removed == 0


def test_pdf_ruled_table_becomes_records_in_place() -> None:
    doc = parse_bytes(handbook_pdf(4, table_on=3), "薪资.pdf", max_bytes=LIMIT)
    assert doc.reading.tables == 1 and doc.reading.table_rows == 3
    table = next(s for s in doc.sections if s.table)
    assert table.page == 3
    assert "职级：P2，月薪下限（元）：9000，月薪上限（元）：14000" in table.text
    text = doc.text
    assert text.index("第6条") < text.index("职级：P1") < text.index("第7条")  # read where it stands on the page
    assert "华东科技" not in text


@pytest.mark.integration
def test_search_on_a_pdf_never_returns_the_running_header(store_copy) -> None:
    from conftest import open_assistant

    assistant = open_assistant(store_copy)
    report = assistant.ingest_bytes(handbook_pdf(), "员工手册.pdf")
    assert report.ok, report.error
    assert report.reading is not None and report.reading.furniture_removed == 30
    for hit in assistant.search("华东科技有限公司内部资料").hits + assistant.search("第 3 页 共 10 页").hits:
        assert "内部资料" not in hit.chunk.text and "共 10 页" not in hit.chunk.text


def test_documents_page_block_says_how_the_file_was_read() -> None:
    """The upload report's "how this file was read" block, rendered by Streamlit."""
    from streamlit.testing.v1 import AppTest

    def page() -> None:
        from rag_core import Chunk, IngestReport
        from rag_core.types import OcrPage, ReadingReport
        from ui.reading_view import render_reading

        reading = ReadingReport(
            tables=1, table_rows=2, ocr_pages=[OcrPage(1, 0.98, 120, True, 2.1), OcrPage(2, 0.61, 40, False, 2.3)],
            furniture_removed=20, furniture=["华东科技有限公司 内部资料", "第 1 页 共 10 页"],
        )
        report = IngestReport("通知.pdf", "indexed", "通知", 1, 1, reading=reading)
        chunk = Chunk("通知@v1#0", "通知", 1, 0, "标准如下：\n城市：兰州，住宿（元/晚）：380\n城市：海口，住宿（元/晚）：400", "通知.pdf", "通知", "")
        render_reading(report, [chunk])

    at = AppTest.from_function(page, default_timeout=60).run()  # its 3 s default failed under load
    assert not at.exception
    text = " ".join(m.value for m in at.markdown)
    assert "表格：1 个（2 行" in text and "页眉、页脚和页码：20 行" in text and "华东科技有限公司 内部资料" in text
    ocr, rows = at.dataframe[0].value, at.dataframe[1].value
    assert ocr["编入索引"].tolist() == ["是", "否（置信度不足，请核对原件）"] and ocr["置信度"].tolist() == [0.98, 0.61]
    assert rows["城市"].tolist() == ["兰州", "海口"]  # the chunk preview shows the rows as a table
