"""Review 59 (parse) #1: in HTML, an e-mail or card number split by an inline tag (Word's <span class=SpellE>)
is read as one in headings, table cells and captions, as in body text, so it is masked there too."""

from __future__ import annotations

from rag_core.documents.html_format import html_lines
from rag_core.documents.prepare import prepare
from rag_core.settings import Settings

HTML = """<html><head><title>报销制度</title></head><body>
<h2>第一条 联系人 <span class=SpellE>zhangsan</span>@corp.com</h2>
<p>正文：邮箱 <span class=SpellE>lisi</span>@corp.com。</p>
<table><caption>收款表 <span>6222</span>021234567890128</caption>
<tr><th>姓名</th><th>邮箱</th><th>收款</th></tr>
<tr><td>王五</td><td><span class=SpellE>wangwu</span>@corp.com</td><td>6222<span>0212</span>34567890128</td></tr>
<tr><td>赵六</td><td>zhaoliu@corp.com</td><td>6222021234567890128</td></tr></table>
</body></html>"""


def test_split_personal_data_is_masked_in_headings_cells_and_captions():
    prepared = prepare(HTML.encode(), "报销.html", Settings())
    text = "\n".join(c.text for c in prepared.chunks) + "\n".join(c.section for c in prepared.chunks)
    for leaked in ("zhangsan", "wangwu", "6222", "34567890128", "corp.com"):
        assert leaked not in text, (leaked, text)
    assert prepared.chunks[0].section == "第一条 联系人 [邮箱]"
    assert "邮箱：[邮箱]，收款：[银行卡号]" in text


def test_inline_tags_join_with_nothing_block_tags_and_breaks_with_a_space():
    lines, _ = html_lines("<h2>第二条 <b>年</b>假<br>说明</h2><table><tr><th>项目</th><th>说明</th></tr>"
                          "<tr><td><p>带薪</p><p>年假</p></td><td>1<i>0</i>天</td></tr>"
                          "<tr><td>病假</td><td>3天</td></tr></table>")
    assert lines[0].text == "第二条 年假 说明"
    assert any(line.text == "项目：带薪 年假，说明：10天" for line in lines), lines
