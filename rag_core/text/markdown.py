"""Text a person or a document wrote, made inert for a Markdown file the engine writes (the conversation export).

The engine-side twin of `ui/inert.py` (the engine may not import the UI): `escape_md`
shows a text literally, `inert_markdown` keeps lists and bold but no link, image, HTML,
math or auto-linked URL. A WORD JOINER (U+2060) before `http(s)://`, `www.` and `@`
stops GitHub-style autolinks; `&` is escaped so a character reference cannot rebuild
one. `one_line` flattens a text that must not start lines of its own (a question
holding "\\n\\n## 第 2 轮" would otherwise forge a turn).
"""

from __future__ import annotations

import re

WORD_JOINER = "\u2060"
_AUTOLINK_START = re.compile(r"(?i)(?=https?://|www\.|@)")
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:&])")
_INERT_SPECIAL = re.compile(r"([\\\[\]()!<>$~:&])")  # links, images, HTML, LaTeX, strike-through, references
# a heading, quote or setext underline (=== or ---) a line could open with, also inside a list item (- # x)
_LINE_START = re.compile(r"(?m)^(\s*(?:(?:[-*+]|\d+[.)])\s+)*)([#>=]|-(?=[-\s]*$))")


_IMAGE = re.compile(r"!\[[^\]\n]*\]\([^)\n]*\)")
_LINK = re.compile(r"\[([^\]\n]*)\]\((?:[^()\n]|\([^()\n]*\))*\)")  # one level of brackets in the address
# an address's own characters only (ASCII; no comma, no bracket): 见 http://x.cn/a,我在研发部 keeps 我在研发部 (review 394 #5)
# (its path may be Chinese after a slash; it may follow Chinese text without a space: review 396 #2)
_STOPS = "\\s，。；！？、,;（）()<>\\[\\]《》【】\"'“”"
_BARE_URL = re.compile(rf"(?i)(?<![A-Za-z0-9])(?:https?://[^{_STOPS}]+|www\.[A-Za-z0-9\-._~:/?#@$&'*+=%]+"
                       rf"(?:(?<=[/?=&])[^{_STOPS}]*)?)")  # (a Chinese host, path or query: reviews 396 #2, 397 #7)


_AROUND_GONE = re.compile(r"[（(《【][^（）()《》【】\0\n]{0,4}\0[^（）()《》【】\0\n]{0,2}[）)》】]")


def without_links(text: str) -> str:
    """`text` without pictures and addresses (a link keeps its words): a pasted screenshot or URL says nothing about
    the person who pasted it, and was kept as a memory recalled into every prompt (review 390 #4)."""
    gone = _BARE_URL.sub("\0", _LINK.sub(r"\1", _IMAGE.sub("\0", text)))
    return _AROUND_GONE.sub("", gone).replace("\0", "")  # （见 http://…） goes whole, not as （见 ）


def _break_autolinks(text: str) -> str:
    return _AUTOLINK_START.sub(WORD_JOINER, text)


def escape_md(text: object) -> str:
    """Shown literally in Markdown: no list, link, image, HTML, LaTeX or autolink."""
    return _MD_SPECIAL.sub(r"\\\1", _break_autolinks(str(text)))


def inert_markdown(text: str) -> str:
    """Lists, bold and tables kept; no link, image, HTML, LaTeX, autolink, and no heading or quote a line opens."""
    text = _INERT_SPECIAL.sub(r"\\\1", _break_autolinks(text))
    text = re.sub(r"(?i)(www)\.", r"\1\\.", text)
    return _LINE_START.sub(r"\1\\\2", text)


def quoted_lines(text: str, bullet: str = "- ") -> str:
    """Text the engine assembled around verbatim quotes (the offline answer): each line literal (`escape_md`) but
    for the engine's own bullet opening it, so a quoted '# 标题', '*强调*' or '1. ' stays text (`ui/inert.py`'s
    `escape_quoted_lines` is the page's twin)."""
    return "\n".join(bullet + escape_md(line[len(bullet):]) if line.startswith(bullet) else escape_md(line)
                     for line in text.split("\n"))


def one_line(text: object) -> str:
    """Every run of whitespace, newlines included, as one space."""
    return " ".join(str(text).split())
