"""Review 59 (parse) #4: an article whose sentence runs across a PDF page break stays one section (cited by the
page it starts on), and a phone number broken by the page break is joined and masked."""

from __future__ import annotations

from fixtures_files import make_pdf

from rag_core.documents.parsing import parse_bytes
from rag_core.documents.prepare import prepare
from rag_core.settings import Settings

HEADER = "华东科技有限公司 员工手册"
PAGES = [
    [HEADER, "第十一条 事假", "员工请事假须提前一天申请。", "第十二条 年假", "员工入职满一年的，每年享有带薪年假", "1"],
    [HEADER, "十天；满十年的，享有十五天。联系人电话138", "12345678。", "第十三条 病假", "病假需提供证明。", "2"],
    [HEADER, "第十四条 婚假", "婚假三天，", "晚婚不再另加。", "3"],
    [HEADER, "第十五条 产假", "产假按国家规定执行。", "4"],
]


def test_a_sentence_across_a_page_break_stays_in_one_section_with_its_start_page():
    sections = parse_bytes(make_pdf(PAGES), "手册.pdf", max_bytes=10**7).sections
    article = [s for s in sections if s.path == "第十二条 年假"]
    assert len(article) == 1, sections
    assert article[0].page == 1
    assert "每年享有带薪年假\n十天；满十年的" in article[0].text


def test_a_page_that_ends_a_sentence_still_starts_a_section_of_its_own():
    sections = parse_bytes(make_pdf(PAGES), "手册.pdf", max_bytes=10**7).sections
    assert [(s.path, s.page) for s in sections][-2:] == [("第十四条 婚假", 3), ("第十五条 产假", 4)]


def test_the_whole_article_is_one_chunk_and_the_split_phone_is_masked():
    chunks = prepare(make_pdf(PAGES), "手册.pdf", Settings()).chunks
    article = [c for c in chunks if c.section == "第十二条 年假"]
    assert len(article) == 1 and article[0].page == 1
    assert "带薪年假\n十天" in article[0].text and "[手机号]" in article[0].text
    assert "138" not in "".join(c.text for c in chunks)


def test_a_phone_number_broken_by_the_page_break_itself_is_masked():
    pages = [[HEADER, "第一条 联系方式", "人事部热线电话138", "1"], [HEADER, "12345678，工作日接听。", "2"]]
    chunks = prepare(make_pdf(pages), "通讯录.pdf", Settings()).chunks
    text = "".join(c.text for c in chunks)
    assert "[手机号]" in text and "1234" not in text and "138" not in text, text


# Review of ace0ccc: pages that end without punctuation but are rows of a list or a table (a directory, a salary
# table, a form) are no sentence running on: each page keeps its own page number.


def test_a_directory_whose_rows_end_without_punctuation_cites_each_page():
    pages = [
        [HEADER, "第一条 各部门联系人", "人事部 张三 分机8001", "财务部 李四 分机8002", "1"],
        [HEADER, "行政部 王五 分机8003", "法务部 赵六 分机8004", "2"],
        [HEADER, "销售部 孙七 分机8005", "研发部 周八 分机8006", "3"],
        [HEADER, "采购部 吴九 分机8007", "后勤部 郑十 分机8008", "4"],
    ]
    sections = parse_bytes(make_pdf(pages), "通讯录.pdf", max_bytes=10**7).sections
    assert [s.page for s in sections] == [1, 2, 3, 4], sections
    chunks = prepare(make_pdf(pages), "通讯录.pdf", Settings()).chunks
    assert [c.page for c in chunks if "后勤部" in c.text] == [4]


def test_a_table_of_grades_over_five_pages_cites_the_page_of_each_row():
    pages = [[f"岗位{p}{i:02d} 职级P{(p + i) % 9} 月度标准{3000 + p * 100 + i}元" for i in range(18)] + [str(p)]
             for p in range(1, 6)]
    pages[0].insert(0, "第五条 岗位职级对照")
    chunks = prepare(make_pdf(pages), "职级表.pdf", Settings()).chunks
    for chunk in chunks:
        rows = [line for line in chunk.text.splitlines() if line.startswith("岗位")]
        assert {int(row[2]) for row in rows} == {chunk.page}, (chunk.page, rows)


def test_a_run_on_crosses_one_page_break_at_most():
    lines = [f"员工应当按照公司规定的第{n}道流程提交申请并等待审批结果后再行安排" for n in "一二三四"]  # no full stop
    pages = [[HEADER, "第一条 申请流程", lines[0], "1"]] + [[HEADER, lines[n], str(n + 1)] for n in (1, 2, 3)]
    sections = parse_bytes(make_pdf(pages), "流程.pdf", max_bytes=10**7).sections
    assert [s.page for s in sections] == [1, 3], sections


def test_a_short_line_without_punctuation_ends_its_page():
    pages = [[HEADER, "第一条 签字", "员工签字", "1"], [HEADER, "部门负责人意见", "2"]]
    sections = parse_bytes(make_pdf(pages), "表单.pdf", max_bytes=10**7).sections
    assert [s.page for s in sections] == [1, 2], sections
