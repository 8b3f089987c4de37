"""Text a person or a document wrote, shown inert: no link, image, HTML, math or auto-linked URL.

Streamlit reads markdown not only in st.markdown and st.caption but in the bodies of
st.info/warning/error/success/toast, in the labels of expanders, tabs, buttons, popovers,
checkboxes, radios and metrics, in help tooltips and in progress texts. Every such place
that shows a question, comment, title, clause, standard answer, name, memory, or an
engine message quoting one of them, passes the text through `escape_md` (shown literally)
or `inert_markdown` (lists and bold kept: a model's or HR's own formatting). Text the engine
assembled around quotes keeps only its own '- ' bullets (`escape_quoted_lines`). Plain-text sinks need nothing: st.text, st.code,
st.json, st.dataframe cells, chart labels and selectbox/multiselect options.

Escaping the markdown characters stops `[x](…)`, `![](…)`, `<…>`, `$…$` and `:red[…]`,
but not GitHub's autolinks: Streamlit links a bare `https://…`, `www.…` or `a@b.example`
found in the *rendered* text, after escapes and character references are resolved. A
WORD JOINER (U+2060, invisible and zero-width) is put right before `http(s)://` and
`www.`, which then no longer start a link (the character before one must be a space or
punctuation, and the escaped `:` and `.` stop the parser's own scan); and before `@`,
which splits an address. The visible text is unchanged and a URL copied by itself stays
exactly as written. `&` is escaped so `https&#58;//…` cannot rebuild a URL after the
escapes. tests/test_inert_pages.py checks the result in Chromium.
"""

from __future__ import annotations

import re

WORD_JOINER = "\u2060"
_AUTOLINK_START = re.compile(r"(?i)(?=https?://|www\.|@)")
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-=.!|<>~$:&])")
# links, images, HTML, LaTeX, strike-through, references; a backtick too: code is only what `_code_spans` found
_INERT_SPECIAL = re.compile(r"([\\\[\]()!<>$~:&`])")
# Streamlit's own directives, read in the rendered text after the escapes are resolved: an icon or its logo image
# (:material/verified:, :streamlit:) and typography between spaces (A -> B shows A → B, A -- B shows A — B). A word
# joiner inside each keeps the text as written (review 226).
_DIRECTIVE = re.compile(r"(?<=:)(?=material[/_]|streamlit:)")
# the plugin reads each rendered text node: the edge of a bold or struck run counts as a space, and so does a BOM
_TYPOGRAPHY = re.compile(r"(?<![^\s*_~\ufeff])(<->|->|<-|--|>=|<=|~=)(?![^\s*_~\ufeff])")


def _break_autolinks(text: str) -> str:
    text = _TYPOGRAPHY.sub(lambda m: WORD_JOINER.join(m.group(1)), _DIRECTIVE.sub(WORD_JOINER, text))
    return _AUTOLINK_START.sub(WORD_JOINER, text)


def escape_md(text: object) -> str:
    """Show user or policy text literally inside any markdown sink (no lists, links, images, LaTeX, autolinks)."""
    return _MD_SPECIAL.sub(r"\\\1", _break_autolinks(_one_line_ending(str(text))))


def inert_markdown(text: str) -> str:
    """Text with formatting kept (lists, bold, tables) but no link, image, HTML, LaTeX or autolink.

    A policy line "[这里](https://…)" or "![](https://…/p.png)" quoted in an answer, or a
    standard answer HR wrote, must show as text, never as a live link or a remote image. Inline code (`…`)
    is left as written: nothing in it is live, and an escape there would show as a backslash.
    """
    text = _one_line_ending(text)
    return "".join(_DIRECTIVE.sub(WORD_JOINER, part) if code else _inert_prose(part) for code, part in _code_spans(text))


def _one_line_ending(text: str) -> str:
    """CR and CRLF as LF: Markdown ends a line at a lone CR too, and the code spans here are found line by line."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _code_spans(text: str) -> list[tuple[bool, str]]:
    """`text` cut into (is code, part). Only what Markdown must read as inline code counts: a single unescaped
    backtick closed by the next single one on its line, with no pipe in it (``, \\` and an unclosed ` stay prose,
    where every backtick is escaped), so Markdown can pair no backtick other than these, and no text left
    unescaped here can be read as a link or an image. A fenced block is not code here (review 227: a fence Markdown
    closes earlier than a pattern does left the lines after it live); its lines show escaped."""
    parts: list[tuple[bool, str]] = []
    start = i = 0
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] != "`":
            i += 1
            continue
        run = len(text[i:]) - len(text[i:].lstrip("`"))
        close = text.find("`", i + 1) if run == 1 else -1
        # a pipe would let a table cut the span in two before it is read as code: left to the escaped prose
        if close > 0 and not {"\n", "|"} & set(text[i:close]) and text[close + 1 : close + 2] != "`":
            parts += [(False, text[start:i]), (True, text[i : close + 1])]
            start = i = close + 1
            continue
        i += run
    return [*parts, (False, text[start:])]


def _inert_prose(text: str) -> str:
    text = _INERT_SPECIAL.sub(r"\\\1", _break_autolinks(text))
    return re.sub(r"(?i)(www)\.", r"\1\\.", text)  # the case as written


ENGINE_BULLET = "- "


def escape_quoted_lines(text: str, *, at_line_start: bool = True) -> str:
    """Text the engine assembled around quotes (the offline answer, an acknowledgement, a refusal): every line
    shown literally (`escape_md`) except the engine's own '- ' bullet that opens a line, so a quoted
    '# 标题', '*强调*', '`代码`', '1. ' or '---' stays text inside its list item. `at_line_start`: whether
    `text` begins a line of the whole answer (a piece after a [资料N] link does not)."""
    lines = text.split("\n")
    return "\n".join(
        ENGINE_BULLET + escape_md(line[len(ENGINE_BULLET):])
        if line.startswith(ENGINE_BULLET) and (i > 0 or at_line_start)
        else escape_md(line)
        for i, line in enumerate(lines)
    )
