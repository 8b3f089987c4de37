"""Code in HR's standard answers and a model's answer shows as written, and nothing around it turns live
(review 226: `hr.corp:8080/leave(新)` showed as hr.corp\\:8080/leave\\(新\\)). Read by a CommonMark parser with GFM
tables (markdown-it), as Streamlit's renderer reads it: no link or image may come out of any of these."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from ui.inert import WORD_JOINER, inert_markdown

MD = MarkdownIt("commonmark").enable("table")
LINK = "[点我](http://evil.example/x)"

HOSTILE = [
    f"``{LINK}`",  # two backticks open, one closes: Markdown reads no code span, so the link must be escaped
    f"\\`{LINK}`",  # an escaped backtick opens nothing
    f"\\`x` {LINK} `",  # the backtick after an escaped one must not pair with the next
    f"|a|b|\n|-|-|\n| `{LINK}|` |",  # a table cuts a span at its pipe before the span is read
    f"```\n代码\n{LINK}",  # a fence never closed
    f"`a` {LINK} `b`",
    "![x](http://evil.example/p.png) `c`",
    f"<a href='`'>`{LINK}",
    # review 227: fences CommonMark closes before a pattern would, a lone CR, and a fence mid-line
    f"```\n代码\n  ```\n{LINK}\n```",
    f"```\n代码\n````\n{LINK}\n```",
    f"```\n```\n{LINK} <http://evil.example/auto>\n```",
    f"```\n代码\r```\r{LINK}\n```",
    f"`a\r\r{LINK}\r`",
    f"`a\r> {LINK} `",
    f"见下```\n{LINK}\n```",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_nothing_around_code_turns_into_a_link_or_an_image(text):
    html = MD.render(inert_markdown(text))
    assert "<a " not in html and "<img" not in html, html


def test_code_shows_as_written():
    html = MD.render(inert_markdown("请登录 `hr.corp:8080/leave(新)` 后提交。\n\n```\n首页 > 请假 [提交]\n```\n"))
    assert "<code>hr.corp:8080/leave(新)</code>" in html
    assert "首页 &gt; 请假 [提交]" in html and "\\" not in html


def test_prose_keeps_its_lists_and_bold_and_a_backtick_reads_as_typed():
    html = MD.render(inert_markdown("- **年假** 5 天\n- 用 `` 两个反引号"))
    assert "<li><strong>年假</strong> 5 天</li>" in html and "``" in html


def test_an_icon_in_code_is_not_drawn():
    assert inert_markdown("`:material/pets:`") == f"`:{WORD_JOINER}material/pets:`"


@pytest.mark.parametrize("text", [":material_pets:", "**甲**-> 乙", "甲 --**乙**", "A\ufeff->\ufeffB", "A -> B"])
def test_streamlit_directives_are_broken_wherever_its_plugins_would_read_them(text):
    from test_inert_pages import live_markup

    assert live_markup(text) and not live_markup(inert_markdown(text)), inert_markdown(text)
