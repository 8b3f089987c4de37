"""A Word form without a header row (姓名 | 张三 | 家庭住址 | …) is read label by label, so masking sees its labels.

Read as a guessed header over records, the form's labels ended up far from their values (姓名：家庭住址，张三：北京市…)
and a home address was stored raw. The form reading is taken only where it masks more than the record reading:
data tables, rosters included, keep their header."""

from __future__ import annotations

import io

from docx import Document

from rag_core.documents.prepare import prepare
from rag_core.documents.tables import Grid, form_pairs, table_text
from rag_core.settings import Settings

HOME = "北京市朝阳区建国路88号3单元501室"


def word_table(rows: list[list[str]], *, merge: tuple[int, int, int] | None = None) -> bytes:
    document = Document()
    document.add_paragraph("员工信息登记表")
    table = document.add_table(rows=len(rows), cols=len(rows[0]))
    for i, row in enumerate(rows):
        for j, text in enumerate(row):
            table.cell(i, j).text = text
    if merge:
        row, first, last = merge
        table.cell(row, first).merge(table.cell(row, last))
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def stored_text(data: bytes) -> str:
    return "\n".join(chunk.text for chunk in prepare(data, "登记表.docx", Settings()).chunks)


def test_a_two_column_form_keeps_each_label_beside_its_value() -> None:
    text = stored_text(word_table([["姓名", "张三"], ["家庭住址", HOME], ["手机", "13812345678"]]))
    assert "建国路88号" not in text and "13812345678" not in text
    assert "姓名：张三" in text and "家庭住址：北京市朝阳区[住址]" in text


def test_a_form_with_two_fields_a_row_and_a_merged_value() -> None:
    rows = [["姓名", "张三", "部门", "人事部"], ["家庭住址", HOME, HOME, HOME]]
    text = stored_text(word_table(rows, merge=(1, 1, 3)))
    assert "建国路88号" not in text
    assert "姓名：张三，部门：人事部" in text
    assert text.count("[住址]") == 1  # the merged value said once


def test_a_value_without_a_label_is_kept() -> None:
    assert form_pairs([["姓名", "张三", "已婚"]], set()) == ["姓名：张三，列：已婚"]


def test_data_tables_and_rosters_keep_their_header() -> None:
    cities = table_text(Grid([["城市", "住宿标准（元/晚）"], ["北京", "600"], ["兰州", "380"]]))
    assert cities is not None and cities.records == ["城市：北京，住宿标准（元/晚）：600", "城市：兰州，住宿标准（元/晚）：380"]
    roster = table_text(Grid([["姓名", "手机"], ["张三", "13812345678"], ["李四", "13912345678"]]))
    assert roster is not None and roster.records[0] == "姓名：张三，手机：13812345678"
    stated = table_text(Grid([["姓名", "家庭住址"], ["张三", HOME]], header_rows=1))  # the file says it has a header
    assert stated is not None and stated.records == [f"姓名：张三，家庭住址：{HOME}"]
