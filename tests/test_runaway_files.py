"""Small files that ask for unbounded work: a merged range over two million cells, a Word cell spanning a
million columns, thousands of blank PDF pages sent to OCR, HTML spans multiplied across a table.

Each is refused in Chinese (or read in a bounded way) before the expensive step runs: the step is counted
(openpyxl.load_workbook, cell text reads, OCR calls, grid positions), never timed. Through the facade the
library keeps what it had. Real Chroma and SQLite in a temp dir, the fake embedder.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import openpyxl
import pytest
from fakes import fake_assistant
from fixtures_files import IMAGE_ONLY, docx_bytes, make_pdf, new_docx, patch_sheet

from rag_core.documents import formats, html_format, pdf_format, spreadsheet_format
from rag_core.documents.ocr import OcrText
from rag_core.documents.parsing import parse_bytes

POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n"
LIMIT = 20 * 1024 * 1024


@pytest.fixture()
def assistant(tmp_path: Path):
    facade = fake_assistant(tmp_path / "store")
    assert facade.ingest_bytes(POLICY.encode(), "leave.md").ok
    return facade


def unchanged(assistant) -> None:
    assert [d.doc_id for d in assistant.list_documents()] == ["leave"]


# --------------------------------------------------------------------------- Excel


def workbook(rows: int = 0) -> bytes:
    """Two rows of allowances, then `rows` more rows of 20 numbers written straight into the sheet XML."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "补贴"
    ws.append(["项目", "标准（元/月）"])
    ws.append(["通讯补贴", 200])
    out = io.BytesIO()
    wb.save(out)
    if not rows:
        return out.getvalue()
    body = "".join(
        f'<row r="{r}">' + "".join(f'<c r="{chr(65 + c)}{r}"><v>{r + c}</v></c>' for c in range(20)) + "</row>"
        for r in range(3, rows + 3)
    )
    return patch_sheet(out.getvalue(), lambda xml: xml.replace("</sheetData>", body + "</sheetData>"))


@pytest.fixture()
def loads(monkeypatch) -> list[int]:
    """Counts openpyxl.load_workbook calls (each builds an object per cell and per merged cell)."""
    calls: list[int] = []
    real = openpyxl.load_workbook

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(openpyxl, "load_workbook", counted)
    return calls


@pytest.mark.parametrize("ranges", [
    '<mergeCells count="1"><mergeCell ref="C3:ZZ3000"/></mergeCells>',
    '<mergeCells count="1"><mergeCell ref="C3:ZZ20000"/></mergeCells>',  # was a MemoryError, "文件已损坏"
    '<hyperlinks><hyperlink ref="C3:ZZ3000" location="\'补贴\'!A1" display="x"/></hyperlinks>',
])
def test_a_merged_or_linked_range_over_millions_of_cells_is_refused_before_loading(assistant, loads, ranges) -> None:
    data = patch_sheet(workbook(), lambda xml: xml.replace("</sheetData>", "</sheetData>" + ranges))
    assert len(data) < 8000
    report = assistant.ingest_bytes(data, "补贴标准.xlsx")
    assert not report.ok
    assert "工作表「补贴」" in report.error and "合并单元格和超链接" in report.error
    assert f"{spreadsheet_format.MAX_RANGE_CELLS:,}" in report.error and "已损坏" not in report.error
    assert loads == []  # refused from the XML: openpyxl never built the range
    unchanged(assistant)


def test_a_workbook_with_too_many_cells_is_refused_before_loading(assistant, loads, monkeypatch) -> None:
    monkeypatch.setattr(spreadsheet_format, "MAX_STORED_CELLS", 1000, raising=False)  # the same count, on a small file
    report = assistant.ingest_bytes(workbook(rows=60), "薪资明细.xlsx")  # 4 + 1200 cells
    assert not report.ok and "工作表「补贴」" in report.error and "1,000 个的上限" in report.error
    assert loads == []
    unchanged(assistant)


def test_a_sheet_of_too_many_tags_is_refused_from_the_bytes(loads, monkeypatch) -> None:
    monkeypatch.setattr(spreadsheet_format, "MAX_XML_TAGS", 2000, raising=False)
    with pytest.raises(Exception, match="工作表「补贴」的内容过多") as caught:
        parse_bytes(workbook(rows=60), "薪资明细.xlsx", max_bytes=LIMIT)
    assert "2,000 个 XML 元素" in str(caught.value)
    assert loads == []


def test_a_sparse_sheet_is_sized_by_its_extent_before_loading(assistant, loads) -> None:
    """A1 and T100000 are two stored cells, but openpyxl reads the 2,000,000 positions between them; three
    such sheets took 26 s and 2.1 GB (helper-48 2). The extent is summed over the sheets from the XML."""
    far = '<row r="100000"><c r="T100000"><v>1</v></c></row>'
    data = patch_sheet(workbook(), lambda xml: xml.replace("</sheetData>", far + "</sheetData>"))
    report = assistant.ingest_bytes(data, "补贴标准.xlsx")
    assert not report.ok and "工作表「补贴」" in report.error and "行 × 列" in report.error
    assert loads == []
    unchanged(assistant)


def test_a_part_moved_away_from_its_usual_path_is_counted_too(loads, monkeypatch) -> None:
    """Shared strings at xl/strs.xml (declared in the content types) skipped the tag count (helper-48 3)."""
    monkeypatch.setattr(spreadsheet_format, "MAX_XML_TAGS", 2000, raising=False)
    src = zipfile.ZipFile(io.BytesIO(workbook()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dest:
        for item in src.infolist():
            dest.writestr(item, src.read(item.filename))
        dest.writestr("xl/strs.xml", "<sst>" + "<si><t>x</t></si>" * 1000 + "</sst>")
    with pytest.raises(Exception, match="xl/strs.xml"):
        parse_bytes(out.getvalue(), "补贴.xlsx", max_bytes=LIMIT)
    assert loads == []


def test_a_plain_workbook_is_loaded_once_and_still_reads(loads) -> None:
    parsed = parse_bytes(workbook(rows=3), "补贴.xlsx", max_bytes=LIMIT)
    assert "通讯补贴" in parsed.text and parsed.reading.sheets == ["补贴"]
    assert len(loads) == 1


# --------------------------------------------------------------------------- Word


def spanning_docx(span: int) -> bytes:
    """A 2 × 2 table whose last cell claims to span `span` grid columns."""
    document = new_docx()
    document.add_paragraph("第一条 差旅标准如下。")
    table = document.add_table(rows=2, cols=2)
    for (r, c), text in {(0, 0): "城市", (0, 1): "标准", (1, 0): "北京", (1, 1): "500"}.items():
        table.cell(r, c).text = text
    tc = table.rows[1]._tr.tc_lst[1]
    tc.get_or_add_tcPr().get_or_add_gridSpan().val = span
    return docx_bytes(document)


@pytest.fixture()
def cell_reads(monkeypatch) -> list[int]:
    """Counts _Cell.text reads (python-docx's row.cells repeats a spanning cell once per grid column)."""
    from docx.table import _Cell

    calls: list[int] = []
    real = _Cell.text

    def counted(self):
        calls.append(1)
        return real.fget(self)

    monkeypatch.setattr(_Cell, "text", property(counted, real.fset))
    return calls


def test_a_word_cell_spanning_a_million_columns_is_refused(assistant, cell_reads) -> None:
    data = spanning_docx(1_000_000)
    assert len(data) < 60_000
    report = assistant.ingest_bytes(data, "差旅标准.docx")
    assert not report.ok and "Word 文档中的表格" in report.error
    assert f"超过 {formats.MAX_TABLE_COLUMNS} 列" in report.error and "1,000,000" in report.error
    assert len(cell_reads) < 10
    unchanged(assistant)


def test_word_tables_over_the_cell_budget_are_refused(monkeypatch) -> None:
    monkeypatch.setattr(formats, "MAX_TABLE_CELLS", 50, raising=False)
    monkeypatch.setattr("rag_core.documents.docx_format.MAX_TABLE_CELLS", 50, raising=False)
    document = new_docx()
    table = document.add_table(rows=30, cols=2)
    for r in range(30):
        table.cell(r, 0).text, table.cell(r, 1).text = f"第{r}级", str(r * 100)
    with pytest.raises(Exception, match="共超过 50 个单元格"):
        parse_bytes(docx_bytes(document), "职级.docx", max_bytes=LIMIT)


def test_a_table_nested_in_a_word_cell_is_read(cell_reads) -> None:
    document = new_docx()
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "项目", "标准"
    table.cell(1, 0).text = "住宿"
    inner = table.cell(1, 1).add_table(rows=2, cols=2)
    for (r, c), text in {(0, 0): "一线城市", (0, 1): "600元", (1, 0): "其他城市", (1, 1): "400元"}.items():
        inner.cell(r, c).text = text
    parsed = parse_bytes(docx_bytes(document), "住宿.docx", max_bytes=LIMIT)
    assert "一线城市" in parsed.text and "600元" in parsed.text and "其他城市" in parsed.text
    assert "住宿" in parsed.text


def test_a_spanned_word_table_reads_as_before() -> None:
    document = new_docx()
    table = document.add_table(rows=3, cols=3)
    for c, text in enumerate(["城市", "住宿", "伙食"]):
        table.cell(0, c).text = text
    table.cell(1, 0).merge(table.cell(2, 0)).text = "一线城市"  # vertical merge
    table.cell(1, 1).merge(table.cell(1, 2)).text = "实报实销"  # horizontal merge
    table.cell(2, 1).text, table.cell(2, 2).text = "500", "100"
    parsed = parse_bytes(docx_bytes(document), "差旅.docx", max_bytes=LIMIT)
    assert "城市：一线城市，住宿：实报实销，伙食：实报实销" in parsed.text
    assert "城市：一线城市，住宿：500，伙食：100" in parsed.text


# --------------------------------------------------------------------------- HTML


@pytest.fixture()
def positions(monkeypatch) -> list[int]:
    """Counts grid positions handed to the table reader (each a cell text in memory)."""
    from rag_core.documents import tables

    seen: list[int] = []
    real = formats.TableCounter.lines

    def counted(self, grid: tables.Grid, page=None):
        seen.append(sum(len(row) for row in grid.cells))
        return real(self, grid, page)

    monkeypatch.setattr(formats.TableCounter, "lines", counted)
    return seen


def test_html_spans_multiplied_across_a_table_are_read_row_by_row(assistant, positions) -> None:
    cells = '<td rowspan="200" colspan="50">北京</td>' * 300  # 3,000,000 positions from 11 KB
    page = f"<html><body><h1>差旅标准</h1><p>第一条 住宿标准见下表。</p><table><tr>{cells}</tr></table></body></html>"
    parsed = parse_bytes(page.encode(), "差旅.html", max_bytes=LIMIT)
    assert "北京 | 北京" in parsed.text and "住宿标准见下表" in parsed.text
    assert positions == []  # never laid out as a grid
    report = assistant.ingest_bytes(page.encode(), "差旅.html")
    assert report.ok, report.error
    assert {d.doc_id for d in assistant.list_documents()} == {"leave", "差旅"}


def test_html_tables_share_one_budget(positions, monkeypatch) -> None:
    monkeypatch.setattr(html_format, "MAX_TABLE_CELLS", 30)  # html_grid reads it there
    table = "<table><tr><th>城市</th><th>标准</th></tr>" + "<tr><td>北京</td><td>500</td></tr>" * 5 + "</table>"
    parsed = parse_bytes(f"<html><body>{table}{table}{table}</body></html>".encode(), "t.html", max_bytes=LIMIT)
    assert positions == [12, 12]  # the third would pass the budget: read as plain rows
    assert "城市：北京，标准：500" in parsed.text and "北京 | 500" in parsed.text


# --------------------------------------------------------------------------- PDF


@pytest.fixture()
def ocr_calls(monkeypatch) -> list[int]:
    """OCR replaced by a counter that reads nothing (a blank page); each real call is about 1.3 s."""
    calls: list[int] = []

    def blank(image):
        calls.append(1)
        return OcrText([], 0.0, 0)

    monkeypatch.setattr(pdf_format, "recognize", blank)
    return calls


def test_a_pdf_of_thousands_of_blank_pages_is_refused_before_any_ocr(assistant, ocr_calls) -> None:
    cap = getattr(pdf_format, "MAX_PDF_PAGES", 500)
    data = make_pdf([IMAGE_ONLY] * (cap + 1))
    report = assistant.ingest_bytes(data, "扫描件.pdf")
    assert not report.ok and f"有 {cap + 1:,} 页" in report.error and f"{cap} 页的上限" in report.error
    assert ocr_calls == []
    estimate = assistant.estimate_ingest(data, "扫描件.pdf")  # the estimate, before anyone confirms
    assert not estimate.ok and ocr_calls == []
    unchanged(assistant)


def test_ocr_stops_at_the_cap_and_the_report_names_the_pages_not_read(assistant, ocr_calls, monkeypatch) -> None:
    monkeypatch.setattr(pdf_format, "MAX_OCR_PAGES", 3, raising=False)
    text_page = ["第一条 员工出差住宿标准为每晚五百元，凭发票报销。"]
    data = make_pdf([text_page, *[IMAGE_ONLY] * 6, text_page])  # scanned: pages 2-7
    report = assistant.ingest_bytes(data, "出差.pdf")
    assert report.ok, report.error
    assert len(ocr_calls) == 3
    note = next(w for w in report.warnings if "OCR 3 页的上限" in w)
    assert "以下 3 页没有识别" in note and "第 5–7 页" in note
    assert {d.doc_id for d in assistant.list_documents()} == {"leave", "出差"}


def test_blank_scans_past_the_cap_are_refused_saying_so(ocr_calls, monkeypatch) -> None:
    monkeypatch.setattr(pdf_format, "MAX_OCR_PAGES", 2, raising=False)
    with pytest.raises(Exception, match="另有 3 页扫描页超过 OCR 2 页的上限"):
        parse_bytes(make_pdf([IMAGE_ONLY] * 5), "扫描.pdf", max_bytes=LIMIT)
    assert len(ocr_calls) == 2


def test_a_page_with_a_huge_media_box_is_rendered_at_a_bounded_size(monkeypatch) -> None:
    from pypdf import PdfWriter

    sides: list[int] = []

    def blank(image):
        sides.append(max(image.size))
        return OcrText([], 0.0, 0)

    monkeypatch.setattr(pdf_format, "recognize", blank)
    writer = PdfWriter()
    writer.add_blank_page(width=3000, height=3000)  # 42 inches: 8,333 pixels a side at the OCR's 200 DPI
    out = io.BytesIO()
    writer.write(out)
    with pytest.raises(Exception, match="OCR 也没有识别出文字"):
        parse_bytes(out.getvalue(), "海报.pdf", max_bytes=LIMIT)
    assert sides and max(sides) <= getattr(pdf_format, "MAX_RENDER_SIDE", 4000)
