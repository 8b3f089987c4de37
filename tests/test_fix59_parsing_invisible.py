"""Review 59 (parse) #2: invisible format characters (ZWSP, LRM/RLM, bidi overrides, word joiner, soft hyphen)
are dropped when a document is read, so 第\u200b十二条 is an article, 年\u200b假 a word, and masking still works."""

from __future__ import annotations

import pytest

from rag_core.documents.formats import normalize_text
from rag_core.documents.prepare import prepare
from rag_core.settings import Settings

INVISIBLE = ["\u200b", "\u200c", "\u200e", "\u200f", "\u202a", "\u202e", "\u2060", "\u2064", "\u2066", "\u2069",
             "\u00ad", "\ufeff", "\u200d"]


@pytest.mark.parametrize("mark", INVISIBLE)
def test_an_article_label_split_or_led_by_an_invisible_character_is_an_article(mark):
    policy = (f"第十一条 事假\n员工请事假须提前一天申请。\n\n第{mark}十二条 年{mark}假\n{mark}员工每年享有带薪年{mark}假五天。\n\n"
              f"{mark}第十三条 病假\n病假需提供证明，电话138{mark}1234{mark}5678。\n")
    chunks = prepare(policy.encode(), "考勤制度.txt", Settings()).chunks
    assert [c.section for c in chunks] == ["第十一条 事假", "第十二条 年假", "第十三条 病假"]
    assert "带薪年假五天" in chunks[1].text
    assert "[手机号]" in chunks[2].text and mark not in "".join(c.text for c in chunks)


def test_the_zero_width_joiner_stays_inside_an_emoji_sequence_only():
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert normalize_text(f"家庭{family}日，年\u200d假") == f"家庭{family}日，年假"


def test_invisible_characters_in_table_cells_are_dropped_too():
    html = ("<table><tr><th>假\u200b别</th><th>天数</th></tr><tr><td>年\u00ad假</td><td>5</td></tr>"
            "<tr><td>病假</td><td>3</td></tr></table>")
    text = prepare(html.encode(), "假期.html", Settings()).chunks[0].text
    assert "假别：年假，天数：5" in text, text


def test_a_document_loses_every_invisible_character_a_question_loses():
    """Review 231: the documents kept 442 characters a question drops (U+034F, U+180E, variation selectors, tags), so
    第\u034f十二条 hid its article and 年\u034f假 its word; the ZWJ and VS16 stay inside an emoji."""
    from rag_core.documents.formats import normalize_text
    from rag_core.text.inputs import INVISIBLE

    kept = [c for c in map(chr, range(0x110000)) if INVISIBLE.fullmatch(c) and c in normalize_text(f"a{c}b")]
    assert kept == []
    assert normalize_text("第\u034f十二条 年\U000e0020假") == "第十二条 年假"
    assert normalize_text("👨\u200d👩\u200d👧 ❤\ufe0f") == "👨\u200d👩\u200d👧 ❤\ufe0f"
