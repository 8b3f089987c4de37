"""Review 353's masking-in-files defects 4 to 6 (fake embedder, real stores; PDFs drawn with reportlab). Each test is
one of the review's reproductions (/tmp/rev_ocr/repro_04.py to repro_06.py) and failed before the fix:

- #4: a number wrapped after its dash, as Word and WPS break a line after a hyphen (联系电话：138-⏎0013-8000,
  座机 0571-⏎88886666), was stored whole: the masking joined a break only between two digits. The page-break join
  (`parsing._runs_on`) had the same blind spot, so the number was also cut in two across pages.
- #5: a web page's <wbr> (and <nobr>, <ruby>, a custom tag) inside a value ended a paragraph: 138<wbr>0013<wbr>8000
  was masked one piece at a time, i.e. not at all.
- #6: a <dl>'s <dt>QQ号</dt><dd>12345678</dd> became two paragraphs: the value never sat beside its label, and QQ,
  WeChat id and home address were stored whole.
"""

from __future__ import annotations

import io

import pytest
from fakes import fake_assistant

from rag_core import Principal
from rag_core.documents.parsing import parse_bytes
from rag_core.text.pii import redact_text

HR = Principal("li", "hr")


def pdf(*pages: list[str]) -> bytes:
    """A PDF whose text layer has `pages`' lines, one drawString each (a CJK CID font, as Word's PDFs have)."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    out = io.BytesIO()
    drawn = canvas.Canvas(out)
    for lines in pages:
        drawn.setFont("STSong-Light", 12)
        for i, line in enumerate(lines):
            drawn.drawString(40, 800 - 18 * i, line)
        drawn.showPage()
    drawn.save()
    return out.getvalue()


def stored(tmp_path, data: bytes, name: str) -> str:
    """What the upload stored: the chunk text the 分块预览 and the evidence cards show."""
    a = fake_assistant(tmp_path / "store")
    report = a.ingest_bytes(data, name, actor=HR)
    assert report.ok, report.error
    return "\n".join(c.text for c in a.document_chunks(report.doc_id, actor=HR))


@pytest.mark.parametrize(("text", "masked"), [
    ("联系电话：138-\n0013-8000", "联系电话：[手机号]"),
    ("座机 0571-\n88886666 转 8001", "座机 [座机号]"),  # the extension goes with it, as on one line
    ("请拨打0571-\n88886666咨询", "请拨打[座机号]咨询"),  # no 电话 word before it (review 354)
], ids=["mobile", "landline", "landline-without-its-word"])
def test_a_number_wrapped_after_its_dash_is_masked_as_text(text, masked):
    """#4 (the masking): the break after 138- is crossed as the dash it follows, as one between two digits is."""
    assert redact_text(text) == masked


def test_a_number_wrapped_after_its_dash_in_a_pdf_is_stored_masked(tmp_path):
    """#4 (repro_04): the PDF text layer has 联系电话：138- / 0013-8000 and 座机 0571- / 88886666: both masked."""
    data = pdf([
        "第五条 加班申请须提前一天提交，如有疑问请联系人事专员张三，联系电话：138-",
        "0013-8000，或联系人事专员李四，身份证复印件请交至本人，座机 0571-",
        "88886666 转 8001，工作日 9:00 至 18:00 受理。",
    ])
    text = stored(tmp_path, data, "加班制度.pdf")
    assert "0013-8000" not in text and "88886666" not in text, text
    assert "[手机号]" in text and "[座机号]" in text, text


PAGE_ONE = ["第四条 加班应当经部门负责人批准后方可进行，未经批准的不计加班。",
            "员工加班后应当在系统中如实登记加班时长。",
            "第五条 加班申请须提前一天提交，如有疑问请联系人事专员张三，联系电话：138-"]
PAGE_TWO = ["0013-8000，工作日 9:00 至 18:00 受理。", "第六条 加班费按国家规定计算。"]


def test_a_number_wrapped_after_its_dash_across_a_page_break_is_read_whole(tmp_path):
    """#4 (page break): page 1 ends 联系电话：138-, page 2 opens 0013-8000，…: the parser carries the paragraph on
    (a line ending digit + dash is open, `parsing._runs_on`), and the upload stores the number masked."""
    data = pdf(PAGE_ONE, PAGE_TWO)
    sections = [s.text for s in parse_bytes(data, "加班制度.pdf", max_bytes=10 * 2**20).sections]
    assert any("138-" in s and "0013-8000" in s for s in sections), sections
    text = stored(tmp_path, data, "加班制度.pdf")
    assert "0013-8000" not in text and "[手机号]" in text, text


def test_wbr_inside_values_of_a_web_page_splits_nothing(tmp_path):
    """#5 (repro_05): <wbr> break hints inside an e-mail address, a mobile and an ID number: each is read whole and
    masked, and the sentence stays one paragraph."""
    html = """<html><head><title>报销制度</title></head><body>
<h1>报销制度</h1>
<p>第一条 报销单据请发送至财务专员邮箱 zhangsan<wbr>@corp<wbr>.com，手机 138<wbr>0013<wbr>8000。</p>
<p>第二条 领款人身份证号 110101<wbr>19900307<wbr>4514 须与银行卡一致。</p>
</body></html>"""
    text = stored(tmp_path, html.encode(), "报销制度.html")
    assert not [x for x in ("zhangsan", "0013", "19900307") if x in text], text
    assert "[邮箱]" in text and "[手机号]" in text and "[身份证号]" in text, text
    assert any("第一条" in line and "[手机号]" in line for line in text.splitlines()), text


def test_nobr_data_and_custom_tags_inside_a_value_split_nothing(tmp_path):
    """#5 (the other inline elements the review names): <nobr>, <data> and a custom element inside a number are read
    inline, as a browser lays them out; the numbers are masked."""
    html = """<html><body><h1>联系方式</h1>
<p>第一条 人事专员手机 <nobr>138</nobr><nobr>0013</nobr><nobr>8000</nobr>。</p>
<p>第二条 财务专员手机 <x-phone>139</x-phone><x-phone>0013</x-phone><x-phone>9000</x-phone>。</p>
<p>第三条 值班手机 <data value="1">137</data><big>0013</big><tt>7000</tt>。</p>
</body></html>"""
    text = stored(tmp_path, html.encode(), "联系方式.html")
    assert "0013" not in text, text
    assert text.count("[手机号]") == 3, text


def test_a_description_lists_labels_mask_their_values(tmp_path):
    """#6 (repro_06): <dt>QQ号</dt><dd>12345678</dd>, 微信号 and 家庭住址 pairs are read as 术语：描述 lines, so each
    value is masked beside its label, as in a table row."""
    html = """<html><body><h1>员工紧急联系方式</h1>
<p>以下为值班负责人的联系方式，请勿外传。</p>
<dl>
  <dt>QQ号</dt><dd>12345678</dd>
  <dt>微信号</dt><dd>zhangsan_1990</dd>
  <dt>家庭住址</dt><dd>北京市朝阳区建国路88号院3号楼2单元501室</dd>
</dl></body></html>"""
    text = stored(tmp_path, html.encode(), "值班联系.html")
    assert not [x for x in ("12345678", "zhangsan_1990", "2单元501室") if x in text], text
    assert "QQ号" in text and "家庭住址" in text, text  # the labels are kept, only the values masked
