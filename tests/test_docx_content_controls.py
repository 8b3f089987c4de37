"""Word text held in wrappers python-docx does not look into is still read on upload.

HR templates put the values people fill in (生效日期, 部门, amounts, whole table rows)
in content controls (w:sdt) around a row, a cell or a few runs; tracked insertions
(w:ins), smart tags and simple fields (w:fldSimple) wrap runs the same way.
python-docx's Paragraph.text, tr_lst and tc_lst see direct children only, so each
of these tests lost the wrapped text before `docx_format` walked the wrappers itself.
"""

from __future__ import annotations

from copy import deepcopy

import pytest
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls, qn
from fakes import fake_assistant
from fixtures_files import add_article_numbering, docx_bytes, new_docx, numbered_paragraph

from rag_core.documents.parsing import parse_bytes
from rag_core.errors import IngestError
from rag_core.types import Principal

LIMIT = 20 * 1024 * 1024
ADMIN = Principal("boss", "admin")


def wrap(element, kind: str = "sdt", placeholder: bool = False):
    """Put `element` inside a content control (or a w:customXml / w:ins / … wrapper) where it stood."""
    if kind == "sdt":
        props = "<w:showingPlcHdr/>" if placeholder else ""
        wrapper = parse_xml(f"<w:sdt {nsdecls('w')}><w:sdtPr>{props}</w:sdtPr><w:sdtContent/></w:sdt>")
        inner = wrapper[1]
    else:
        wrapper = parse_xml(f"<w:{kind} {nsdecls('w')} {_ATTRS.get(kind, '')}/>")
        inner = wrapper
    element.addprevious(wrapper)
    inner.append(element)
    return wrapper


_ATTRS = {
    "customXml": 'w:element="field"',
    "ins": 'w:id="1" w:author="HR" w:date="2024-06-01T00:00:00Z"',
    "del": 'w:id="2" w:author="HR" w:date="2024-06-01T00:00:00Z"',
    "moveTo": 'w:id="3" w:author="HR" w:date="2024-06-01T00:00:00Z"',
    "moveFrom": 'w:id="4" w:author="HR" w:date="2024-06-01T00:00:00Z"',
    "smartTag": 'w:uri="urn:schemas-microsoft-com:office:smarttags" w:element="place"',
    "fldSimple": 'w:instr=" DOCPROPERTY Company "',
}


def table(doc, rows: list[list[str]], header: bool = True):
    t = doc.add_table(rows=len(rows), cols=len(rows[0]))
    for r, values in enumerate(rows):
        for c, value in enumerate(values):
            t.cell(r, c).text = value
    if header:
        t.rows[0]._tr.get_or_add_trPr().append(parse_xml(f"<w:tblHeader {nsdecls('w')}/>"))
    return t


def parsed_text(doc) -> str:
    return parse_bytes(docx_bytes(doc), "模板.docx", max_bytes=LIMIT).text


@pytest.mark.parametrize("kind", ["sdt", "customXml"])
def test_table_rows_in_a_content_control_are_read(kind: str) -> None:
    doc = new_docx()
    t = table(doc, [["假期", "天数"], ["年假", "5"], ["婚假", "3"], ["产假", "158"]])
    trs = t._tbl.tr_lst
    wrap(trs[0], kind)  # the header row, still counted as header
    wrap(trs[2], kind)
    wrap(wrap(trs[3], kind), kind)  # nested controls
    text = parsed_text(doc)
    assert text == "假期：年假，天数：5\n假期：婚假，天数：3\n假期：产假，天数：158"


def test_a_cell_in_a_content_control_keeps_its_column() -> None:
    doc = new_docx()
    t = table(doc, [["假期", "天数", "备注"], ["年假", "5", "带薪"], ["婚假", "3", "凭结婚证"]])
    wrap(t.cell(1, 1)._tc)
    wrap(t.cell(2, 0)._tc)
    assert parsed_text(doc) == "假期：年假，天数：5，备注：带薪\n假期：婚假，天数：3，备注：凭结婚证"


def test_merges_reach_through_content_controls() -> None:
    """A vertical merge continues the wrapped cell above; a wrapped cell's gridSpan still spans."""
    doc = new_docx()
    t = table(doc, [["部门", "岗位", "补贴"], ["人力资源部", "专员", "300"], ["", "经理", "500"], ["合计", "", "800"]])
    t.cell(1, 0).merge(t.cell(2, 0))  # 人力资源部 over two rows
    t.cell(3, 0).merge(t.cell(3, 1))  # 合计 over two columns
    trs = t._tbl.tr_lst
    wrap(trs[1].tc_lst[0])  # the restart cell of the vertical merge
    wrap(trs[3].tc_lst[0])  # the cell that spans two columns
    wrap(trs[2])  # the row with the continuing cell, itself wrapped
    assert parsed_text(doc) == (
        "部门：人力资源部，岗位：专员，补贴：300\n部门：人力资源部，岗位：经理，补贴：500\n部门：合计，岗位：合计，补贴：800"
    )


def test_a_row_in_a_content_control_counts_toward_the_cell_bound(monkeypatch) -> None:
    monkeypatch.setattr("rag_core.documents.docx_format.MAX_TABLE_CELLS", 6)
    doc = new_docx()
    t = table(doc, [["假期", "天数"], ["年假", "5"], ["婚假", "3"], ["产假", "158"]])
    wrap(t._tbl.tr_lst[3])  # 8 positions, 6 of them outside the control
    with pytest.raises(IngestError, match="超过 6 个单元格"):
        parsed_text(doc)


def test_a_cell_in_a_content_control_counts_toward_the_column_bound(monkeypatch) -> None:
    monkeypatch.setattr("rag_core.documents.docx_format.MAX_TABLE_COLUMNS", 2)
    doc = new_docx()
    t = table(doc, [["假期", "天数"], ["年假", "5"]])
    extra = deepcopy(t.cell(1, 1)._tc)
    t._tbl.tr_lst[1].append(extra)
    wrap(extra)  # a third cell, only inside a control
    with pytest.raises(IngestError, match="超过 2 列"):
        parsed_text(doc)


def inline(paragraph, text: str, kind: str = "sdt", placeholder: bool = False) -> None:
    """Append a run holding `text` to the paragraph, inside a wrapper of `kind`."""
    run = paragraph.add_run(text)
    if kind == "del":  # Word writes deleted text as w:delText (python-docx skips it anyway)
        t = run._r.find(qn("w:t"))
        t.tag = qn("w:delText")
    wrap(run._r, kind, placeholder)


def test_inline_content_controls_are_read_and_placeholders_left_out() -> None:
    doc = new_docx()
    p = doc.add_paragraph("本制度自")
    inline(p, "2024年7月1日")
    p.add_run("起施行")
    inline(p, "单击或点击此处输入文字。", placeholder=True)  # Word's prompt in an unfilled control
    p.add_run("。")
    t = table(doc, [["部门", "负责人"], ["", "王经理"]])
    inline(t.cell(1, 0).paragraphs[0], "人力资源部")
    assert parsed_text(doc) == "本制度自2024年7月1日起施行。\n\n部门：人力资源部，负责人：王经理"


def test_headings_and_numbered_articles_filled_by_a_control() -> None:
    doc = new_docx()
    inline(doc.add_heading("", level=1), "第一章 总则")
    num = add_article_numbering(doc)
    numbered_paragraph(doc, "", num)
    inline(doc.paragraphs[-1], "目的。为规范考勤管理，制定本制度。")
    parsed = parse_bytes(docx_bytes(doc), "考勤.docx", max_bytes=LIMIT)
    assert [s.path for s in parsed.sections] == ["第一章 总则 > 第一条 目的"]
    assert parsed.text == "第一章 总则\n\n第一条 目的。为规范考勤管理，制定本制度。"


def test_tracked_changes_read_as_accepted() -> None:
    """Inserted and moved-to text is read; deleted and moved-from text is not (it has left the document)."""
    doc = new_docx()
    p = doc.add_paragraph("试用期为")
    inline(p, "三个月", "del")
    inline(p, "六个月", "ins")
    p.add_run("，")
    inline(p, "期满考核合格后转正", "moveTo")
    inline(p, "期满后转正", "moveFrom")  # kept as w:t here, as some generators write it
    p.add_run("。")
    assert parsed_text(doc) == "试用期为六个月，期满考核合格后转正。"


def test_smart_tags_simple_fields_and_wrappers_inside_links_are_read() -> None:
    doc = new_docx()
    p = doc.add_paragraph("办公地点：")
    inline(p, "北京市", "smartTag")
    p.add_run("；用人单位：")
    inline(p, "某某科技有限公司", "fldSimple")  # a field's last shown result
    p.add_run("；详见")
    link = parse_xml(
        f'<w:hyperlink {nsdecls("w")} w:anchor="附件一"><w:r><w:t>附件</w:t></w:r><w:r><w:t>一</w:t></w:r></w:hyperlink>'
    )
    p._p.append(link)
    wrap(link[1], "ins")  # a tracked insertion inside the link
    p.add_run("。")
    assert parsed_text(doc) == "办公地点：北京市；用人单位：某某科技有限公司；详见附件一。"


def test_an_uploaded_template_keeps_every_filled_in_value(tmp_path) -> None:
    """Through the facade: the stored chunks hold the row, the cell and the inline values."""
    doc = new_docx()
    doc.add_heading("第一章 补贴标准", level=1)
    p = doc.add_paragraph("本标准自")
    inline(p, "2024年9月1日")
    p.add_run("起执行。")
    t = table(doc, [["岗位", "交通补贴"], ["专员", "300元"], ["经理", "500元"]])
    wrap(t._tbl.tr_lst[2])
    wrap(t.cell(1, 1)._tc)
    assistant = fake_assistant(tmp_path / "store")
    report = assistant.ingest_bytes(docx_bytes(doc), "补贴标准.docx", actor=ADMIN)
    assert report.ok, report.error
    stored = "\n".join(c.text for c in assistant.document_chunks(report.doc_id, actor=ADMIN))
    for value in ("2024年9月1日", "岗位：专员，交通补贴：300元", "岗位：经理，交通补贴：500元"):
        assert value in stored, (value, stored)
