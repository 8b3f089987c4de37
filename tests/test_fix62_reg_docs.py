"""Review of stop 62's own reading fixes (rev-own62, defects 3-7): what those fixes lost or misread.

3. A .txt or .md opening with `---` lost its first block: `Q: 试用期多长？` and `- 试用期员工不享受年假` passed for YAML.
   Front matter is read only in .md, its keys are ASCII identifiers and its first line is a key (not a list item).
4. A CSV holding two tables parted by a blank line read the second one as rows of the first (职级：城市，月薪：住宿标准).
   After a blank line a block continues the table above only when it is as wide and its first row reads as data.
5. An article or chapter heading after a line not ending in 。 was glued into the article above (第五条丧假 under
   第四条; 第一章总则 under a subtitle or a ———— divider): a short label line, or a label followed by a separator,
   is a heading whatever the line before.
6. `第十五条 第十四条所列假期，…` (an article whose text starts by citing another) was read as a citation: only a
   linking word or mark between the two labels (、 至 和 或 及) or a part (第二款, （二）项) makes one.
7. Hidden HTML (an inactive tab panel, a collapsed accordion answer) was dropped silently; it is indexed again.
"""

from __future__ import annotations

import pytest
from fixtures_files import make_pdf

from rag_core.documents.chunking import chunk_document
from rag_core.documents.parsing import parse_bytes
from rag_core.documents.text_bound import text_min_chunks

LIMIT = 10**7


def _doc(text: str, name: str):
    return parse_bytes(text.encode(), name, max_bytes=LIMIT)


def _owner(doc, needle: str) -> str:
    return next(s.path for s in doc.sections if needle in s.text)


# --------------------------------------------------------------------------- 3. front matter


FAQ = "---\nQ: 试用期多长？\nA: 试用期一般为3个月。\n---\nQ: 年假有几天？\nA: 满一年5天。\n---\n"


def test_a_txt_file_opening_with_a_rule_keeps_its_first_block():
    text = _doc(FAQ, "faq.txt").text
    assert "试用期多长" in text and "试用期一般为3个月" in text and "满一年5天" in text


@pytest.mark.parametrize(
    "head",
    [
        "---\n- 试用期员工不享受年假\n- 病假须提供二级以上医院证明\n---\n",  # a list, no key
        "---\n标题: 试用期员工不享受年假\n说明: 病假须提供二级以上医院证明\n---\n",  # keys that are no identifiers
        "---\nnote.a: 试用期员工不享受年假\n---\n",  # nor is a dotted name
    ],
)
def test_a_markdown_block_that_is_no_yaml_front_matter_is_text(head: str):
    text = _doc(head + "\n# 员工手册\n\n第一条 总则。\n", "rule.md").text
    assert "试用期员工不享受年假" in text and "第一条 总则。" in text


def test_real_front_matter_is_still_dropped_in_markdown_only():
    md = "---\ntitle: 考勤\nown-er: hr\ntags:\n  - 加班\n---\n# 考勤\n\n第一条 工作日加班按1.5倍支付。\n"
    assert "own-er" not in _doc(md, "fm.md").text
    assert "own-er: hr" in _doc(md, "fm.txt").text  # a .txt shows what it holds


def test_the_upload_bound_counts_a_txt_files_leading_block():
    """In a .txt the leading block is read, so the chunk cap's estimate counts it (in .md it does not)."""
    body = "第一条 员工每年享有带薪年假五天。\n" * 50
    front = "---\ntitle: 考勤\nnote: " + "备注" * 20000 + "\n---\n"
    assert text_min_chunks((front + body).encode(), "a.txt", 240, 1) > text_min_chunks(body.encode(), "a.txt", 240, 1)
    assert text_min_chunks((front + body).encode(), "a.md", 240, 1) == text_min_chunks(body.encode(), "a.md", 240, 1)


# --------------------------------------------------------------------------- 4. CSV tables


def _csv(text: str):
    return parse_bytes(text.encode(), "t.csv", max_bytes=LIMIT)


def test_a_csv_with_two_tables_reads_each_under_its_own_header():
    doc = _csv("职级,月薪\nP1,8000\nP2,10000\n\n城市,住宿标准（元/晚）\n北京,500\n上海,450\n")
    assert "职级：P1，月薪：8000" in doc.text and "职级：P2，月薪：10000" in doc.text
    assert "城市：北京，住宿标准（元/晚）：500" in doc.text and "城市：上海，住宿标准（元/晚）：450" in doc.text
    assert "职级：城市" not in doc.text and "职级：北京" not in doc.text
    assert doc.reading.tables == 2


def test_a_csv_block_of_another_width_is_another_table():
    doc = _csv("岗位,标准\n经理,每晚600元\n\n城市,标准,备注\n北京,500,一类\n")
    assert "城市：北京，标准：500，备注：一类" in doc.text and doc.reading.tables == 2


def test_a_csv_block_repeating_the_header_reads_under_it():
    doc = _csv("岗位,标准\n经理,每晚600元\n\n岗位,标准\n专员,每晚400元\n")
    assert "岗位：经理，标准：每晚600元" in doc.text and "岗位：专员，标准：每晚400元" in doc.text
    assert "岗位：岗位" not in doc.text


def test_a_csv_stray_blank_line_still_keeps_one_table():
    doc = _csv("岗位,标准\n经理,每晚600元\n\n专员,每晚400元\n")
    assert "岗位：专员，标准：每晚400元" in doc.text and doc.reading.tables == 1


def test_the_csv_upload_bound_stays_below_what_parsing_keeps():
    rows = "".join(f"P{i},{8000 + i}\n" for i in range(400))
    text = "职级,月薪\n" + rows + "\n" + "职级,月薪\n" + rows + "\n" + rows
    doc = _csv(text)
    chunks = chunk_document(doc, 240, 60)
    assert 0 < text_min_chunks(text.encode(), "t.csv", 240, 1) <= len(chunks)


# --------------------------------------------------------------------------- 5. headings after an open line


PDF_PAGE = [
    "华东科技有限公司员工手册（2024年修订版，试行）",
    "第一章总则",
    "第一条为规范公司管理，根据国家有关法律法规，制定本手册。",
    "第二条本手册适用于与公司签订劳动合同的全体员工",
    "第二章假期",
    "第三条年假",
    "员工入职满一年的，每年享有带薪年假五天。",
    "第四条婚假",
    "员工依法登记结婚的，可享受婚假三天，晚婚不再另加",
    "第五条丧假",
    "直系亲属去世的，给予丧假三天。",
]


def test_a_short_article_after_an_unfinished_line_is_a_heading_in_a_pdf():
    doc = parse_bytes(make_pdf([PDF_PAGE]), "手册.pdf", max_bytes=LIMIT)
    assert _owner(doc, "直系亲属") == "第二章假期 > 第五条丧假"
    assert _owner(doc, "晚婚不再另加") == "第二章假期 > 第四条婚假"
    assert _owner(doc, "制定本手册") == "第一章总则"  # not glued under the bracketed subtitle


def test_a_chapter_after_a_subtitle_or_a_divider_is_a_heading():
    b = _doc("考勤管理办法\n（2024年1月修订，自2024年3月1日起施行）\n第一章总则\n第一条为规范考勤管理，制定本办法。\n",
             "b.txt")
    assert _owner(b, "制定本办法") == "第一章总则"
    a = _doc("公司员工手册\n————————————————\n第一章 总则\n第一条 为规范管理，制定本制度。\n"
             "第二条 适用范围，本制度适用于全体员工\n第三条年假\n员工工作满一年享有年假5天。\n", "a.txt")
    assert _owner(a, "为规范管理") == "第一章 总则 > 第一条 为规范管理"
    assert _owner(a, "工作满一年") == "第一章 总则 > 第三条年假"


def test_the_wrapped_cross_reference_stays_in_its_article():
    text = ("第九条 考核结果分为四档。考核不合格的员工，公司可以依照\n"
            "第十二条、第十三条的规定调整岗位或者解除劳动合同，但孕期女职工除外。\n\n第十条 考核结果作为年终奖发放依据。\n")
    doc = _doc(text, "绩效.txt")
    assert _owner(doc, "孕期") == "第九条 考核结果分为四档"
    assert [s.path for s in doc.sections] == ["第九条 考核结果分为四档", "第十条"]


# --------------------------------------------------------------------------- 6. an article citing another


@pytest.mark.parametrize("gap", [" ", "\u3000", "："])
def test_an_article_opening_by_citing_another_is_a_heading(gap: str):
    """A separator between the two labels, then the sentence: the article's own text cites another."""
    doc = _doc(f"第十四条 婚假三天。\n第十五条{gap}第十四条所列假期，均需提前三天申请。\n第十六条 员工应遵守考勤制度。\n",
               "a.txt")
    assert _owner(doc, "提前三天申请").startswith("第十五条")
    assert [s.path[:4] for s in doc.sections] == ["第十四条", "第十五条", "第十六条"]


@pytest.mark.parametrize(
    "line",
    ["第十二条、第十三条的规定同样适用。", "第十二条 、第十三条的规定同样适用。", "第十二条至第十三条的规定同样适用。",
     "第十二条第二款规定的情形除外。", "第十二条（二）项规定的情形除外。", "第三章、第四章的规定同样适用于派遣员工"],
)
def test_two_labels_joined_by_a_link_are_a_citation(line: str):
    doc = _doc(f"第八条 年假。除本办法\n{line}\n\n第九条 病假。\n", "a.txt")
    assert _owner(doc, line) == "第八条 年假"


# --------------------------------------------------------------------------- 7. hidden HTML


FAQ_HTML = """<html><head><title>员工常见问题</title></head><body>
<h1>员工常见问题</h1>
<div role="tabpanel" id="bj"><h2>北京差旅标准</h2><p>住宿标准每晚500元。</p></div>
<div role="tabpanel" id="sh" hidden><h2>上海差旅标准</h2><p>住宿标准每晚450元。</p></div>
<details><summary>年假</summary><div style="display:none" class="answer"><p>入职满一年享有年假5天。</p></div></details>
<p>原价<s>300元</s>现价200元</p>
</body></html>"""


def test_hidden_tab_panels_and_collapsed_answers_are_indexed():
    doc = _doc(FAQ_HTML, "faq.html")
    assert _owner(doc, "每晚450元") == "员工常见问题 > 上海差旅标准"
    assert "入职满一年享有年假5天。" in doc.text
    assert "原价现价200元" in doc.text and "300元" not in doc.text  # struck out: still left out


def _csv_text(source: str) -> str:
    from rag_core.documents.parsing import parse_bytes

    return parse_bytes(source.encode(), "t.csv", max_bytes=1 << 20).text


def test_a_second_csv_table_whose_header_holds_a_year_keeps_its_header():
    """Review 295: 2024年餐补（元/天） holds a digit, but under a column of plain numbers (600, 550) it is a header."""
    text = _csv_text("城市,2024年住宿标准（元/晚）\n北京,600\n上海,550\n\n职级,2024年餐补（元/天）\n经理,100\n专员,80\n")
    assert "职级：经理，2024年餐补（元/天）：100" in text
    assert "住宿标准（元/晚）：100" not in text


def test_rows_after_a_blank_line_with_an_empty_last_column_continue_the_table():
    text = _csv_text("职级,住宿标准,备注\n经理,600,含早餐\n\n专员,400,\n主管,500,\n")
    assert "职级：专员，住宿标准：400" in text and "职级：主管，住宿标准：500" in text


@pytest.mark.parametrize(("source", "wanted", "unwanted"), [
    ("职级,住宿标准（元/晚）\n总经理,按实际发生额报销\n\n经理,600\n专员,400\n", "职级：经理，住宿标准（元/晚）：600", "经理：专员"),
    ("绩效等级,年终奖系数\nA,15%\nB,10%\n\nC,5%-8%\nD,0", "绩效等级：C，年终奖系数：5%-8%", "C：D"),
    ("项目,标准\n餐补,100元/天\n交通,50元/天\n\n通讯,200", "项目：通讯，标准：200", "通讯 |"),
    ("姓名,部门,金额\n张三,销售,500\n李四,研发,500\n\n合计（2人）,,1000", "姓名：合计（2人），金额：1000", "合计（2人） |"),
    ("项目,金额\n社保,-120.50\n\n公积金,（120.50）", "项目：公积金，金额：（120.50）", "公积金 |"),
    ("月份,发薪日\n2024-01,1月15日\n2024-02,2月15日\n\n注：遇节假日提前至前一个工作日发放", "\n\n注：遇节假日", "月份：注"),
], ids=["words-then-numbers", "range", "unit-then-number", "totals", "accounting-negative", "footnote"])
def test_a_column_s_usual_variety_after_a_blank_line_continues_the_table(source, wanted, unwanted):
    """Review 297: a strict match of each cell's kind split these (按实际发生额报销 above 600 made 经理,600 a header);
    a footnote of one value is no row of the table."""
    text = _csv_text(source)
    assert wanted in text and unwanted not in text
