"""Review 62 (parse) D2, D3, D9: what a reader of the page never sees as current text is not indexed: HTML <del>,
<s>, <strike> (struck out); in Markdown an HTML comment (inline or a block of lines, not in code) and a leading YAML
front matter. Everything else reads as before.

HTML elements marked hidden (hidden, aria-hidden="true", display:none, visibility:hidden) were dropped too (D9), and
that was reverted (rev-own62 defect 7): in a saved intranet page they are inactive tab panels and collapsed
accordion answers, text a reader opens with a click, so they are indexed like the rest of the page.
"""

from __future__ import annotations

from rag_core.documents.parsing import parse_bytes


def _text(source: str, name: str) -> str:
    return parse_bytes(source.encode(), name, max_bytes=10 * 1024 * 1024).text


def test_html_struck_out_text_is_dropped():
    html = ("<h1>员工手册</h1><p>第一条 年假天数为<del>5天</del><ins>10天</ins>。</p>"
            "<p>第二条 病假工资按<s>60%</s>80%发放，<strike>婚假3天</strike>婚假10天。</p>")
    text = _text(html, "del.html")
    assert "第一条 年假天数为10天。" in text
    assert "第二条 病假工资按80%发放，婚假10天。" in text
    assert "5天" not in text and "60%" not in text and "婚假3天" not in text


def test_html_struck_out_text_in_a_table_cell_is_dropped():
    html = ("<table><tr><th>岗位</th><th>标准</th></tr><tr><td>经理</td><td><del>每晚800元</del>每晚600元</td></tr>"
            "<tr><td>专员</td><td>每晚400元</td></tr></table>")
    text = _text(html, "t.html")
    assert "每晚600元" in text and "800" not in text


def test_html_hidden_elements_are_indexed():
    """Hidden by an attribute or a style is shown on a click (a tab, an accordion): read, not dropped (defect 7)."""
    html = ('<h1>制度</h1><p>第一条 公开条款。</p><div hidden>第二条 上海标准：每晚450元</div>'
            '<p style="color:red; display : none !important">第三条 婚假三天</p>'
            '<section style="visibility:hidden"><p>第四条 <b>病假</b>需提供证明</p></section>'
            '<p>第五条 <span aria-hidden="true">★</span>年终奖按绩效发放。</p>'
            '<p>第六条 <s>旧标准</s>新标准。</p>')
    text = _text(html, "hid.html")
    for shown in ("公开条款", "每晚450元", "婚假三天", "第四条 病假需提供证明", "第五条 ★年终奖按绩效发放。"):
        assert shown in text, text
    assert "第六条 新标准。" in text and "旧标准" not in text


def test_markdown_comments_are_dropped_outside_code():
    md = ("# 加班管理规定\n\n<!-- 草稿：加班费拟改为2倍，尚未审批 -->\n\n第一条 工作日加班按1.5倍支付加班费。<!-- 待定 -->\n\n"
          "<!--\n多行注释：周末加班拟取消调休\n-->\n第二条 休息日加班优先安排补休。\n\n"
          "元数据标记行 `<!-- INFO END -->` 原样保留。\n\n```\n<!-- 代码里的注释 -->\n```\n")
    text = _text(md, "加班.md")
    assert "2倍" not in text and "待定" not in text and "取消调休" not in text
    assert "第一条 工作日加班按1.5倍支付加班费。" in text and "第二条 休息日加班优先安排补休。" in text
    assert "`<!-- INFO END -->`" in text and "<!-- 代码里的注释 -->" in text


def test_markdown_comment_left_open_is_kept():
    text = _text("# 规定\n\n<!-- 第一条 没有结束的注释\n\n第二条 正文。\n", "open.md")
    assert "第一条 没有结束的注释" in text and "第二条 正文。" in text


def test_markdown_front_matter_is_dropped():
    md = "---\ntitle: 加班管理规定\nauthor: hr\ntags:\n  - 加班\n---\n# 加班管理规定\n\n第一条 工作日加班按1.5倍支付。\n"
    doc = parse_bytes(md.encode(), "fm.md", max_bytes=10 * 1024 * 1024)
    assert "author" not in doc.text and "tags" not in doc.text
    assert "第一条 工作日加班按1.5倍支付。" in doc.text
    assert doc.title == "加班管理规定"


def test_leading_rule_that_is_not_front_matter_is_text():
    md = "---\n第一条 本制度适用于全体员工。\n---\n\n第二条 施行。\n"
    assert "第一条 本制度适用于全体员工。" in _text(md, "rule.md")


def test_the_upload_bound_does_not_count_what_markdown_never_reads():
    """The chunk cap's estimate is a lower bound of what parsing keeps: a long comment or front matter, never read,
    does not count (counted, a file under the cap could be refused as over it)."""
    from rag_core.documents.text_bound import text_min_chunks

    body = "第一条 员工每年享有带薪年假五天。\n" * 50
    hidden = "<!--\n" + "草稿：这一段还没有审批，不要公开。\n" * 5000 + "-->\n"
    front = "---\ntitle: 考勤\nnote: " + "备注" * 20000 + "\n---\n"
    plain = text_min_chunks(body.encode(), "a.md", 240, 1)
    assert text_min_chunks((hidden + body).encode(), "a.md", 240, 1) == plain
    assert text_min_chunks((front + body).encode(), "a.md", 240, 1) == plain
