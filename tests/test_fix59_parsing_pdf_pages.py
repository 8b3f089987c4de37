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
