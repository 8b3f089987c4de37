"""Review 62 (parse) D1, D6 and the header/footer note: Word text set hidden (w:vanish, directly or through the run's
character style) is not indexed and the upload notes say how much was left out; a tracked-deleted numbered paragraph
does not advance its list; a w:num with w:startOverride restarts its list; dropped headers/footers are reported."""

from __future__ import annotations

import io

import docx
from docx.enum.style import WD_STYLE_TYPE
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls

from rag_core.documents.parsing import parse_bytes

W = nsdecls("w")


def _parse(d: docx.Document, name: str = "制度.docx"):
    out = io.BytesIO()
    d.save(out)
    return parse_bytes(out.getvalue(), name, max_bytes=10 * 1024 * 1024)


def test_hidden_runs_are_not_indexed_and_are_reported():
    d = docx.Document()
    d.add_heading("考勤制度", 0)
    p = d.add_paragraph("第一条 迟到扣款标准为每次")
    p.add_run("500元（内部草稿，勿公开）").font.hidden = True
    p.add_run("50元。")
    cell = d.add_table(rows=1, cols=2).rows[0].cells
    cell[0].text = "岗位"
    cell[1].paragraphs[0].add_run("经理")
    cell[1].paragraphs[0].add_run("（隐藏备注）").font.hidden = True
    parsed = _parse(d)
    assert "500元" not in parsed.text and "隐藏备注" not in parsed.text
    assert "第一条 迟到扣款标准为每次50元。" in parsed.text
    assert "经理" in parsed.text
    said = [n for n in parsed.reading.notes if "隐藏" in n]
    assert said and "20" in said[0], parsed.reading.notes  # 14 + 6 characters left out


def test_hidden_through_character_style_and_explicit_off():
    d = docx.Document()
    secret = d.styles.add_style("内部批注", WD_STYLE_TYPE.CHARACTER)
    secret.font.hidden = True
    child = d.styles.add_style("内部批注二", WD_STYLE_TYPE.CHARACTER)
    child.base_style = secret
    p = d.add_paragraph("第二条 病假工资按")
    p.add_run("60%（草稿）", style=secret)
    p.add_run("（拟议）", style=child)
    shown = p.add_run("80%", style=secret)
    shown.font.hidden = False  # w:vanish w:val="0" on the run wins over its style
    p.add_run("发放。")
    parsed = _parse(d)
    assert "第二条 病假工资按80%发放。" in parsed.text
    assert "草稿" not in parsed.text and "拟议" not in parsed.text


def test_hidden_through_paragraph_style():
    d = docx.Document()
    notes = d.styles.add_style("编写说明", WD_STYLE_TYPE.PARAGRAPH)
    notes.font.hidden = True
    d.add_paragraph("第一条 本制度适用于全体员工。")
    d.add_paragraph("填写说明：此处写明适用范围，正式发布前删除。", style=notes)
    kept = d.add_paragraph("", style=notes).add_run("第二条 本制度自发布之日起施行。")
    kept.font.hidden = False
    parsed = _parse(d)
    assert "填写说明" not in parsed.text and "第二条 本制度自发布之日起施行。" in parsed.text


def test_visible_document_has_no_hidden_note():
    d = docx.Document()
    d.add_paragraph("第一条 本制度适用于全体员工。")
    assert not [n for n in _parse(d).reading.notes if "隐藏" in n or "页眉" in n]


def test_headers_and_footers_are_reported_not_indexed():
    d = docx.Document()
    d.add_paragraph("第一条 本制度适用于全体员工。")
    d.sections[0].header.paragraphs[0].text = "内部资料 严禁外传"
    d.sections[0].footer.paragraphs[0].text = "人力资源部 编制"
    parsed = _parse(d)
    assert "内部资料" not in parsed.text and "编制" not in parsed.text
    assert [n for n in parsed.reading.notes if "页眉" in n and "页脚" in n], parsed.reading.notes


def _numbered_document() -> docx.Document:
    d = docx.Document()
    nb = d.part.numbering_part.element
    for el in list(nb):
        nb.remove(el)
    lvl = ('<w:abstractNum {W} w:abstractNumId="{id}"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt '
           'w:val="chineseCounting"/><w:lvlText w:val="{text}"/><w:suff w:val="{suff}"/></w:lvl></w:abstractNum>')
    nb.append(parse_xml(lvl.format(W=W, id=10, text="第%1条", suff="space")))
    nb.append(parse_xml(lvl.format(W=W, id=20, text="（%1）", suff="nothing")))
    nb.append(parse_xml(f'<w:num {W} w:numId="1"><w:abstractNumId w:val="10"/></w:num>'))
    nb.append(parse_xml(f'<w:num {W} w:numId="2"><w:abstractNumId w:val="20"/></w:num>'))
    nb.append(parse_xml(f'<w:num {W} w:numId="3"><w:abstractNumId w:val="20"/>'
                        '<w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>'))
    return d


def _numbered(d: docx.Document, text: str, num_id: int, deleted: bool = False) -> None:
    p = d.add_paragraph()
    ppr = p._p.get_or_add_pPr()
    ppr.append(parse_xml(f'<w:numPr {W}><w:ilvl w:val="0"/><w:numId w:val="{num_id}"/></w:numPr>'))
    if deleted:  # the whole paragraph, its mark included, deleted with changes tracked
        ppr.append(parse_xml(f'<w:rPr {W}><w:del w:id="91" w:author="hr" w:date="2024-01-01T00:00:00Z"/></w:rPr>'))
        p._p.append(parse_xml(f'<w:del {W} w:id="81" w:author="hr" w:date="2024-01-01T00:00:00Z">'
                              f'<w:r><w:delText>{text}</w:delText></w:r></w:del>'))
    else:
        p.add_run(text)


def test_deleted_numbered_paragraph_and_start_override():
    d = _numbered_document()
    d.add_heading("奖惩制度", 0)
    _numbered(d, "员工有下列情形之一的，给予表彰：", 1)
    _numbered(d, "全年无迟到", 2)
    _numbered(d, "提出合理化建议被采纳", 2)
    _numbered(d, "本条已废止：员工迟到一次罚款200元。", 1, deleted=True)
    _numbered(d, "员工有下列情形之一的，予以辞退：", 1)
    _numbered(d, "连续旷工三日", 3)
    _numbered(d, "严重违反保密规定", 3)
    _numbered(d, "本制度自发布之日起施行。", 1)
    text = _parse(d).text
    assert "（一）全年无迟到" in text and "（二）提出合理化建议被采纳" in text
    assert "第二条 员工有下列情形之一的，予以辞退" in text
    assert "（一）连续旷工三日" in text and "（二）严重违反保密规定" in text
    assert "第三条 本制度自发布之日起施行。" in text
    assert "废止" not in text


def test_nums_sharing_a_list_without_override_continue():
    d = _numbered_document()
    _numbered(d, "甲", 2)
    _numbered(d, "乙", 2)
    _numbered(d, "丙", 3)  # restarts at its first paragraph
    _numbered(d, "丁", 3)
    _numbered(d, "戊", 2)  # num 2 has no override: continues the shared list
    text = _parse(d).text
    for expected in ("（一）甲", "（二）乙", "（一）丙", "（二）丁", "（三）戊"):
        assert expected in text, text
