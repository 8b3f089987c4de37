"""Review 62 (parse) D7, D8: a CSV with a blank line is still one table (the row after the blank is data under the
file's header, not a header of its own); rows and columns hidden in an .xlsx sheet are not indexed, and the upload
notes say how many were skipped, as for hidden sheets."""

from __future__ import annotations

import io

import openpyxl

from rag_core.documents.parsing import parse_bytes


def _parse(data: bytes, name: str):
    return parse_bytes(data, name, max_bytes=10 * 1024 * 1024)


def test_csv_blank_line_keeps_one_table():
    doc = _parse("岗位,标准\n经理,每晚600元\n\n专员,每晚400元\n,\n主管,每晚500元\n".encode(), "住宿.csv")
    for row in ("岗位：经理，标准：每晚600元", "岗位：专员，标准：每晚400元", "岗位：主管，标准：每晚500元"):
        assert row in doc.text, doc.text
    assert "专员：" not in doc.text
    assert doc.reading.tables == 1 and doc.reading.table_rows == 3


def _workbook() -> openpyxl.Workbook:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "差旅标准"
    ws.append(["城市", "住宿标准", "备注", "餐补"])
    ws.append(["北京", 600, "一类", 100])
    ws.append(["上海", 9999, "草稿勿用", 999])
    ws.append(["广州", 500, "二类", 80])
    return wb


def _bytes(wb: openpyxl.Workbook) -> bytes:
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def test_xlsx_hidden_rows_and_columns_are_skipped_and_reported():
    wb = _workbook()
    ws = wb.active
    ws.row_dimensions[3].hidden = True
    ws.column_dimensions["C"].hidden = True
    doc = _parse(_bytes(wb), "差旅.xlsx")
    assert "9999" not in doc.text and "备注" not in doc.text and "一类" not in doc.text
    assert "城市：北京，住宿标准：600，餐补：100" in doc.text
    assert "城市：广州，住宿标准：500，餐补：80" in doc.text
    said = [n for n in doc.reading.notes if "隐藏的" in n]
    assert said and "1 行" in said[0] and "1 列" in said[0], doc.reading.notes


def test_xlsx_merged_cell_across_a_hidden_column_keeps_its_value():
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["部门", "岗位", "职级", "标准"])
    ws.append(["销售部", "经理", "", "每晚600元"])
    ws.append(["销售部", "专员", "P3", "每晚400元"])
    ws.merge_cells("B2:C2")
    ws.column_dimensions["B"].hidden = True  # the merge's first column: its value still shows in C
    doc = _parse(_bytes(wb), "m.xlsx")
    assert "职级：经理" in doc.text and "职级：P3" in doc.text and "岗位" not in doc.text, doc.text


def test_xlsx_without_hidden_parts_has_no_note():
    doc = _parse(_bytes(_workbook()), "差旅.xlsx")
    assert "9999" in doc.text and not [n for n in doc.reading.notes if "隐藏的" in n]
