"""Review rev-parse D4/D5: what is an article heading and where a short article is cited.

D4: a wrapped line that opens with a cross-reference (第十二条、第十三条的规定… / 第十二条（二）项… / 第三章、第四章的规定…)
was read as a new article or chapter, and the sentence was cited under the article it names.
D5: a short article with no 。 (第三条 婚假为3天，晚婚不再另加) was taken for a lone heading and glued into the next
article's chunk, so search cited 第五条 for 婚假.
"""

from __future__ import annotations

import pytest
from fixtures_files import make_pdf

from rag_core.documents.chunking import chunk_document, chunk_sections, rejoin
from rag_core.documents.formats import Line
from rag_core.documents.parsing import build_sections, parse_bytes
from rag_core.types import Section

LIMIT = 10**7
WRAPPED = [
    "绩效考核办法",
    "",
    "第九条 考核结果分为优秀、良好、合格、不合格四档。考核不合格的员工，公司可以依照",
    "第十二条、第十三条的规定调整岗位或者解除劳动合同，但孕期、产期、哺乳期女职工除外。",
    "",
    "第十条 考核结果作为年终奖发放依据。",
    "",
    "第十二条 调岗：连续两次不合格的，调整岗位。",
    "第十三条 解除：调岗后仍不合格的，可以解除劳动合同。",
]


def _owner(sections, needle: str) -> str:
    return next(s.path for s in sections if needle in s.text)


@pytest.mark.parametrize("name", ["绩效.txt", "绩效.md"])
def test_wrapped_cross_reference_stays_in_its_article(name: str) -> None:
    doc = parse_bytes("\n".join(WRAPPED).encode(), name, max_bytes=LIMIT)
    assert _owner(doc.sections, "哺乳期") == "第九条 考核结果分为优秀"
    assert [s.path for s in doc.sections][-3:] == ["第十条", "第十二条 调岗", "第十三条 解除"]


def test_wrapped_cross_reference_in_a_pdf() -> None:
    doc = parse_bytes(make_pdf([[line for line in WRAPPED if line]]), "绩效.pdf", max_bytes=LIMIT)
    assert _owner(doc.sections, "哺乳期") == "第九条 考核结果分为优秀"
    assert _owner(doc.sections, "连续两次不合格") == "第十二条 调岗"


@pytest.mark.parametrize(
    "line",
    [
        "第十二条（二）项规定的情形除外。",
        "第十二条第二款规定的情形除外。",
        "第十二条至第十五条的规定不适用于实习生。",
        "第十二条和第十三条规定的情形除外。",
        "第十二条或第十三条规定的情形除外。",
        "第十二条及第十三条规定的情形除外。",
        "第三章、第四章的规定同样适用于派遣员工",
    ],
)
def test_a_line_opening_with_a_reference_is_no_heading(line: str) -> None:
    text = f"第二章 假期\n\n第八条 年假。除本办法\n{line}\n\n第九条 病假。病假需提供证明。\n"
    doc = parse_bytes(text.encode(), "办法.txt", max_bytes=LIMIT)
    assert _owner(doc.sections, line) == "第二章 假期 > 第八条 年假"
    assert [s.path for s in doc.sections] == ["第二章 假期 > 第八条 年假", "第二章 假期 > 第九条 病假"]


@pytest.mark.parametrize(
    "before", ["第八条 年假。员工依照本办法，", "第八条 年假。员工的年假天数按工龄计算，但依照"]
)
def test_a_wrapped_line_is_no_heading_a_short_label_line_is(before: str) -> None:
    """A line wrapped mid-sentence that opens with a label reads on into a sentence (第十二条规定的情形除外。): it
    is no heading whatever the line before. A short label line without 。 (第十二条规定的情形除外, 第五条丧假) is a
    heading even after a line left unfinished: rev-own62 found real articles (第五条丧假 after …晚婚不再另加) and
    chapters (第一章总则 after a subtitle or a ———— divider) glued into the text above when the line before decided."""
    lines = [Line(before), Line("第十二条规定的情形除外，但本人申请的除外。"), Line("第九条 病假。")]
    assert [s.path for s in build_sections(lines)] == ["第八条 年假", "第九条 病假"]
    lines = [Line(before), Line("第十二条规定的情形除外"), Line("第九条 病假。")]
    assert [s.path for s in build_sections(lines)][1] == "第十二条规定的情形除外"


@pytest.mark.parametrize(
    "line",
    ["第一条、总则", "第一条（目的）为规范管理，制定本办法。", "第一章、总则", "第十二条 调岗：连续两次不合格的，调整岗位。"],
)
def test_real_headings_still_open_sections(line: str) -> None:
    doc = parse_bytes(f"前言。\n\n{line}\n正文。\n".encode(), "办法.txt", max_bytes=LIMIT)
    assert doc.sections[-1].path.startswith(line[:3])


SHORT = (
    "# 假期管理办法\n\n第一条 员工入职满一年享有年假5天\n\n第二条 病假期间工资按本人工资的80%发放\n\n"
    "第三条 婚假为3天，晚婚不再另加\n\n第四条 本办法由人力资源部负责解释\n\n第五条 本办法自2025年1月1日起施行。\n"
)


def test_a_short_article_without_full_stop_is_its_own_chunk() -> None:
    doc = parse_bytes(SHORT.encode(), "假期.md", max_bytes=LIMIT)
    chunks = chunk_document(doc, 240, 60)
    assert [c.section for c in chunks if "婚假" in c.text] == ["假期管理办法 > 第三条 婚假为3天"]
    assert [c.section for c in chunks] == [
        "假期管理办法 > 第一条",
        "假期管理办法 > 第二条",
        "假期管理办法 > 第三条 婚假为3天",
        "假期管理办法 > 第四条",
        "假期管理办法 > 第五条",
    ]
    assert chunks[0].text.startswith("假期管理办法\n\n第一条")  # the title still travels with the first article
    assert rejoin(chunks).replace("\n", "") == doc.text.replace("\n", "")


def test_a_heading_glues_only_into_a_section_nested_under_it() -> None:
    sections = [
        Section("附件", "附件"),
        Section("附件一 请假单", "附件 > 附件一"),
        Section("第八条 年假", "第八条 年假"),
        Section("假期 | 天数\n年假 | 5\n", "第八条 年假", table=True),
        Section("注：以上为试行标准", "第八条 年假"),
        Section("第九条 病假", "第九条 病假"),
        Section("员工病假需提供证明。", "第九条 病假"),
    ]
    chunks = chunk_sections(sections, 200, 40)
    assert [(c.section, c.text.strip()) for c in chunks][:1] == [("附件", "附件\n附件一 请假单")]
    assert chunks[1].section == "第八条 年假" and chunks[1].text.startswith("第八条 年假\n假期 | 天数")
    assert [(c.section, c.text.strip()) for c in chunks][2:] == [
        ("第八条 年假", "注：以上为试行标准"),  # heading-only, but 第九条 is not under it
        ("第九条 病假", "第九条 病假\n员工病假需提供证明。"),
    ]


def test_a_contents_list_is_one_chunk_of_the_document() -> None:
    """Chapter names listed one a line (目录) head nothing after them: one chunk, cited as the document."""
    names = ["第一章 总则", "第二章 招聘与录用", "第三章 附则"]
    sections = [Section("员工手册\n\n目录", ""), *(Section(n, n) for n in names), Section("第一章 总则\n===", "第一章 总则")]
    sections.append(Section("第一条 目的。为规范管理，制定本手册。", "第一章 总则 > 第一条 目的"))
    chunks = chunk_sections(sections, 240, 60)
    assert [(c.section, c.text.strip()) for c in chunks][:2] == [("", "员工手册\n\n目录"), ("", "\n".join(names))]
