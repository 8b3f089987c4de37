"""Review 53 #2: a document's title line is a heading, never quoted as an answer sentence.

A PDF's first chunk starts with its title (哺乳期工作安排规定) on a line of its own; it is not numbered and
the section path leaves it out, so the offline answer had quoted it as a rule next to, or instead of,
第一条 … 每天可享受一小时哺乳时间。
"""

from __future__ import annotations

import io
import re

import pytest
from fakes import fake_assistant, fake_assistant_with_samples

from rag_core.answer.extractive import ExtractiveAnswerer
from rag_core.types import SourceRef

TITLE = "哺乳期工作安排规定"
RULE = "第一条 女员工在婴儿一周岁以内，每天可享受一小时哺乳时间。"
LINES = [TITLE, RULE, "第二条 哺乳时间可以分两次使用，也可以合并使用。", "第三条 本规定自发布之日起施行。"]
QUOTE = re.compile(r"^- (.+) \[资料(\d+)\]$")


def _quoted(answer: str) -> list[str]:
    return [m.group(1) for line in answer.split("\n") if (m := QUOTE.match(line))]


def _pdf(lines: list[str]) -> bytes:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    out = io.BytesIO()
    page = canvas.Canvas(out, pagesize=A4)
    page.setFont("STSong-Light", 12)
    for i, line in enumerate(lines):
        page.drawString(60, A4[1] - 90 - 22 * i, line)
    page.showPage()
    page.save()
    return out.getvalue()


@pytest.mark.parametrize("with_samples", [False, True])
def test_fix53c_an_uploaded_pdf_answers_with_its_rule_not_its_title(tmp_path, with_samples):
    make = fake_assistant_with_samples if with_samples else fake_assistant
    assistant = make(tmp_path / "store")
    assert assistant.ingest_bytes(_pdf(LINES), f"{TITLE}.pdf").ok
    quoted = _quoted(assistant.ask("哺乳期每天喂奶时间有多长？", user="").answer)
    assert RULE in quoted and TITLE not in quoted


SAMPLE = (
    "第十三条 哺乳时间\n\n女员工在婴儿1周岁以内，每天可以享受1小时哺乳时间，哺乳时间可以在上午和下午各使用30分钟，"
    "也可以合并使用。生育多胞胎的，每多哺乳1个婴儿，每天增加1小时哺乳时间。哺乳时间视为正常出勤。"
)


def test_fix53c_a_second_source_adds_its_rule_not_its_title():
    """The sample states the fact first; the PDF's line after it had been its bare title, not 第一条."""
    sample = _chunk(SAMPLE, "01_attendance_leave.md", 1, "第三章 假期类别 > 第十三条 哺乳时间")
    pdf = _chunk(f"{TITLE}\n{RULE}\n第二条 哺乳时间可以分两次使用，也可以合并使用。", f"{TITLE}.pdf", 2)
    quoted = _quoted(ExtractiveAnswerer().answer("哺乳期工作安排是怎样的，每天喂奶多长时间？", [sample, pdf]))
    assert RULE in quoted and TITLE not in quoted


def _chunk(text: str, source: str, number: int = 1, section: str = "第一条") -> SourceRef:
    """Source N is the document's chunk N-1: ids count from 0, and a title stands only in chunk 0 (headings.is_title)."""
    return SourceRef(number=number, text=text, source=source, section=section, chunk_id=f"doc@v1#{number - 1}")


def test_fix53c_the_line_naming_the_file_is_a_heading():
    chunk = _chunk(f"{TITLE}\n{RULE}\n", f"{TITLE}.pdf")
    assert _quoted(ExtractiveAnswerer().answer("哺乳期每天有多长时间喂奶？", [chunk])) == [RULE]


def test_fix53c_a_short_unpunctuated_first_line_is_a_heading_whatever_the_file_is_called():
    chunk = _chunk(f"女职工哺乳期安排\n{RULE}\n", "scan_0042.pdf")
    assert _quoted(ExtractiveAnswerer().answer("哺乳期每天有多长时间喂奶？", [chunk])) == [RULE]


@pytest.mark.parametrize("first", ["城市：成都，早餐：15，午餐：30，晚餐：30", "哺乳期每天1小时"])
def test_fix53c_a_first_line_with_fields_or_an_amount_is_still_a_sentence(first):
    """A table row or a short rule that opens a chunk is content: it may still be quoted."""
    chunk = _chunk(f"{first}\n第二条 哺乳时间可以分两次使用，也可以合并使用。\n", "scan_0042.pdf")
    assert first in _quoted(ExtractiveAnswerer().answer("哺乳期每天有多长时间？", [chunk]) + "\n"
                            + ExtractiveAnswerer().answer("成都午餐多少钱？", [chunk]))


def test_fix53c_a_wrapped_sentence_opening_a_chunk_is_no_title():
    """A long line cut out of a sentence by the PDF's wrapping and the chunking still reads as the rule."""
    wrapped = "不低于劳动合同规定的劳动者本人日或小时工资标准的２００％支付"
    chunk = _chunk(f"{wrapped}\n劳动者工资；\n（三）法定休假日安排劳动者工作的，按照不低于劳动合同规定的劳动者本人日或小时"
                   "工资标准的３００％支付劳动者工资。", "工资支付规定.pdf", section="第十三条")
    assert wrapped in _quoted(ExtractiveAnswerer().answer("休息日加班工资按工资标准的百分之多少支付？", [chunk]))
