"""Review 59 (parse) #3: the text of a Word text box and of footnotes/endnotes is read (after the paragraph that
anchors or references it), masked like the body, said in the upload notes; a text box's Fallback copy once only."""

from __future__ import annotations

import io
import zipfile

import docx

from rag_core.documents.prepare import prepare
from rag_core.settings import Settings

W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
NOTES = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:{kind}s ' + W + '>'
         '<w:{kind} w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:{kind}>'
         '<w:{kind} w:id="1"><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:{kind}></w:{kind}s>')
PICT_BOX = ('<w:p><w:r><w:pict><v:shape style="width:400pt;height:60pt"><v:textbox><w:txbxContent>'
            '<w:p><w:r><w:t>员工入职满一年享有带薪年假十天，联系人电话13812345678。</w:t></w:r></w:p>'
            '</w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>')
DRAWING_BOX = ('<w:p><w:r><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006">'
               '<mc:Choice Requires="wps"><w:drawing><wps:txbx xmlns:wps="http://schemas.microsoft.com/office/'
               'word/2010/wordprocessingShape"><w:txbxContent><w:p><w:r><w:t>婚假三天，晚婚不再另加。</w:t></w:r></w:p>'
               '</w:txbxContent></wps:txbx></w:drawing></mc:Choice><mc:Fallback><w:pict><v:shape><v:textbox>'
               '<w:txbxContent><w:p><w:r><w:t>婚假三天，晚婚不再另加。</w:t></w:r></w:p></w:txbxContent>'
               '</v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>')
REL = '<Relationship Id="rId{k}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/{k}s" Target="{k}s.xml"/>'
TYPE = '<Override PartName="/word/{k}s.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.{k}s+xml"/>'


def _document(body: str) -> bytes:
    d = docx.Document()
    d.add_paragraph("第一条 总则。本制度适用于全体员工。")
    d.add_paragraph("MARK")
    base = io.BytesIO()
    d.save(base)
    zin = zipfile.ZipFile(io.BytesIO(base.getvalue()))
    parts = {
        "word/document.xml": zin.read("word/document.xml").decode().replace("<w:p><w:r><w:t>MARK</w:t></w:r></w:p>", body),
        "word/_rels/document.xml.rels": zin.read("word/_rels/document.xml.rels").decode().replace(
            "</Relationships>", REL.format(k="footnote") + REL.format(k="endnote") + "</Relationships>"),
        "[Content_Types].xml": zin.read("[Content_Types].xml").decode().replace(
            "</Types>", TYPE.format(k="footnote") + TYPE.format(k="endnote") + "</Types>"),
        "word/footnotes.xml": NOTES.format(kind="footnote", text="注：病假工资按国家规定发放，咨询 zhang.san@corp.com。"),
        "word/endnotes.xml": NOTES.format(kind="endnote", text="尾注：本制度自2024年1月1日起施行。"),
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in zin.infolist():
            z.writestr(info.filename, parts.pop(info.filename, None) or zin.read(info.filename))
        for name, text in parts.items():
            z.writestr(name, text)
    return out.getvalue()


BODY = ('<w:p><w:r><w:t>第二条 年假</w:t></w:r></w:p>' + PICT_BOX + DRAWING_BOX +
        '<w:p><w:r><w:t>第三条 病假需提供证明</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r><w:r><w:t>。</w:t>'
        '</w:r><w:r><w:endnoteReference w:id="1"/></w:r><w:r><w:footnoteReference w:id="1"/></w:r></w:p>')


def test_text_boxes_and_notes_are_read_masked_and_reported():
    prepared = prepare(_document(BODY), "年假制度.docx", Settings())
    chunks = {c.section: c.text for c in prepared.chunks}
    assert "带薪年假十天，联系人电话[手机号]" in chunks["第二条 年假"]
    assert chunks["第二条 年假"].count("婚假三天") == 1  # the mc:Fallback copy is not read again
    article3 = chunks["第三条 病假需提供证明"]
    assert "病假工资按国家规定发放，咨询 [邮箱]" in article3 and article3.count("病假工资") == 1
    assert "本制度自2024年1月1日起施行" in article3
    assert article3.index("病假需提供证明") < article3.index("注：") < article3.index("尾注")
    assert "13812345678" not in str(prepared.chunks) and "zhang.san" not in str(prepared.chunks)
    assert any("文本框中的 2 段文字" in n and "脚注/尾注 2 条" in n for n in prepared.parsed.reading.notes)


def test_a_text_box_in_a_table_cell_is_read_with_the_cell():
    table = ('<w:tbl><w:tr><w:tc><w:p><w:r><w:t>假别</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>说明</w:t></w:r>'
             '</w:p></w:tc></w:tr><w:tr><w:tc><w:p><w:r><w:t>年假</w:t></w:r></w:p></w:tc><w:tc>'
             + PICT_BOX + '</w:tc></w:tr><w:tr><w:tc><w:p><w:r><w:t>病假</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r>'
             '<w:t>三天</w:t></w:r></w:p></w:tc></w:tr></w:tbl>')
    text = "".join(c.text for c in prepare(_document(table), "假期.docx", Settings()).chunks)
    assert "假别：年假，说明：员工入职满一年享有带薪年假十天，联系人电话[手机号]" in text, text


def test_a_document_without_boxes_or_notes_says_nothing_new():
    d = docx.Document()
    d.add_paragraph("第一条 总则。本制度适用于全体员工。")
    out = io.BytesIO()
    d.save(out)
    assert prepare(out.getvalue(), "总则.docx", Settings()).parsed.reading.notes == []
