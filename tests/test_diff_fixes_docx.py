"""A content control still showing Word's prompt adds no text, wherever it stands (review of s49, defect 2).

Inline controls already left their prompt out; one around a table cell, a row or a whole
paragraph/table read the prompt as content (人力资源部 | 选择一项。 became 负责人：选择一项。).
A cell keeps its place (empty), so the row's columns do not shift.
"""

from __future__ import annotations

from fixtures_files import new_docx
from test_docx_content_controls import parsed_text, table, wrap


def test_a_cell_showing_its_placeholder_is_empty_and_keeps_its_column() -> None:
    doc = new_docx()
    t = table(doc, [["部门", "负责人", "电话"], ["人力资源部", "选择一项。", "8001"], ["财务部", "王五", "8002"]])
    wrap(t.cell(1, 1)._tc, placeholder=True)
    wrap(t.cell(2, 1)._tc)  # a filled control is read as before
    text = parsed_text(doc)
    assert "选择一项" not in text
    assert "部门：人力资源部，电话：8001" in text, text  # the empty cell is left out; 8001 stays under 电话
    assert "部门：财务部，负责人：王五，电话：8002" in text, text


def test_a_paragraph_or_table_showing_its_placeholder_adds_nothing() -> None:
    doc = new_docx()
    doc.add_paragraph("第一条 本制度适用于全体员工。")
    prompt = doc.add_paragraph("单击或点击此处输入文字。")
    wrap(prompt._p, placeholder=True)
    t = table(doc, [["项目", "说明"], ["选择一项。", "选择一项。"]])
    wrap(t._tbl, placeholder=True)
    doc.add_paragraph("第二条 年假五天。")
    text = parsed_text(doc)
    assert "单击" not in text and "选择一项" not in text, text
    assert "本制度适用于全体员工" in text and "年假五天" in text


def test_a_row_showing_its_placeholder_adds_nothing() -> None:
    doc = new_docx()
    t = table(doc, [["假期", "天数"], ["年假", "5"], ["选择一项。", "输入天数。"]])
    wrap(t._tbl.tr_lst[2], placeholder=True)
    assert parsed_text(doc) == "假期：年假，天数：5"
