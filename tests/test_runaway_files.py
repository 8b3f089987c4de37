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

from rag_core.documents import spreadsheet_format
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


def patch_sheet(data: bytes, change) -> bytes:
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dest:
        for item in src.infolist():
            body = src.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                body = change(body.decode()).encode()
            dest.writestr(item, body)
    return out.getvalue()


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


def test_a_plain_workbook_is_loaded_once_and_still_reads(loads) -> None:
    parsed = parse_bytes(workbook(rows=3), "补贴.xlsx", max_bytes=LIMIT)
    assert "通讯补贴" in parsed.text and parsed.reading.sheets == ["补贴"]
    assert len(loads) == 1


