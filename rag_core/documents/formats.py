"""Per-format text extraction (markdown/plain text, html) into a flat list of `Line`s.

Each extractor only finds text and explicit heading levels; the shared
structure pass in `parsing.py` turns lines into sections, so every format gets
the same 第X章/第X条 rules. Extractors raise `IngestError` for refusals they
can name; anything else they raise is wrapped by the caller. Tables become record
lines (`tables.py`) marked with a table number, so chunking keeps their rows whole.
Word, PDF and spreadsheets have their own modules (Word's list numbers 一/十二/壹 are rendered here).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..text.inputs import INVISIBLE
from ..text.records import parse_record
from .tables import Grid, plain_rows, table_text

MB = 1024 * 1024
# A table is a rectangle in memory: a Word cell spanning 1,000,000 grid columns (37 KB) took 35 s and 588 MB,
# 300 HTML cells of rowspan 200 × colspan 50 (10 KB) 10.5 s and 1 GB. Word itself allows 63 columns.
MAX_TABLE_COLUMNS = 200  # grid columns of one Word table row
MAX_TABLE_CELLS = 1_000_000  # grid positions (rows × widest row) of all tables in one document, nested ones included


class Line(NamedTuple):
    """One line of extracted text; `level` is an explicit heading level (0 = document title)."""

    text: str
    level: int | None = None
    page: int | None = None
    plain: bool = False  # never a heading (table rows, code blocks)
    table: int | None = None  # the table (numbered per document) this caption or record line belongs to


class TableCounter:
    """Numbers the tables of one document and counts what became records."""

    def __init__(self) -> None:
        self.tables = 0
        self.rows = 0
        self.cells = 0  # grid positions read so far, against MAX_TABLE_CELLS

    def lines(self, grid: Grid, page: int | None = None) -> list[Line]:
        """A table's caption and record lines, or its rows as plain lines when it holds no data table."""
        found = table_text(grid)
        if found is None:
            return [x for row in plain_rows(grid) for x in _paragraph_lines(row, page=page, plain=True)]
        self.tables += 1
        self.rows += len(found.records)
        caption = normalize_text(found.caption)  # cells come raw from every format: invisible characters out
        head = [Line(caption, None, page, True, self.tables)] if caption.strip() else []
        rows = [Line(normalize_text(r), None, page, True, self.tables) for r in found.records]
        return [Line("", None, page), *head, *rows, Line("", None, page)]


# Invisible format characters go too, the same ones a question loses (`text.inputs.INVISIBLE`): a zero-width space
# in 第\u200b十二条 hid the article, in 年\u200b假 the word, an RLM before a heading the heading. The ZWJ and the emoji
# variation selector stay where they make an emoji (👨‍👩‍👧, ❤️).
_CTRL_MAP = {c: None for c in [*range(0x20), 0x7F, *range(0x80, 0xA0), 0xFEFF] if c not in (9, 10)}
_CTRL_MAP.update({0x0B: "\n", 0x0C: "\n", 0x85: "\n", 0x2028: "\n", 0x2029: "\n"})
_EMOJI = re.compile("[\u2600-\u27bf\ufe0f\U0001f000-\U0001faff]")


def _invisible_out(found: re.Match[str]) -> str:
    char, text, at = found.group(), found.string, found.start()
    before, after = text[at - 1 : at], text[at + 1 : at + 2]
    if char == "\u200d" and _EMOJI.match(before) and _EMOJI.match(after):
        return char
    return char if char == "\ufe0f" and _EMOJI.match(before) else ""


def normalize_text(text: str) -> str:
    """CRLF/CR to LF, drop control and invisible format characters, strip trailing ASCII spaces (full-width stay)."""
    text = INVISIBLE.sub(_invisible_out, text.replace("\r\n", "\n").replace("\r", "\n").translate(_CTRL_MAP))
    return "\n".join(line.rstrip(" \t") for line in text.split("\n"))


def _paragraph_lines(text: str, level: int | None = None, page: int | None = None, plain: bool = False) -> list[Line]:
    """A paragraph's lines followed by a blank line, so paragraph boundaries survive."""
    text = normalize_text(text).strip("\n")
    if not text.strip():
        return []
    if level is not None:
        return [Line(" ".join(text.split()), level, page), Line("", None, page)]
    return [Line(t, None, page, plain) for t in text.split("\n")] + [Line("", None, page)]


# --------------------------------------------------------------------------- markdown / plain text

_ATX = re.compile(rf"^ {{0,3}}(#{{1,6}})(?:[ \t]+|(?=[{chr(0x4E00)}-{chr(0x9FFF)}])|$)(.*)$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")


_PIPE_RULE = re.compile(r"^\s*+\|?\s*+:?-++:?\s*+(\|\s*+:?-++:?\s*+)*+\|?\s*+$")
_COMMENT = re.compile(r"(`+).*?\1|<!--.*?-->")  # a code span is kept whole, a comment in it too
# key: value with an ASCII identifier for key (not Q: 试用期多长？ nor 标题: …); then also indented lines, list items
_YAML_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*[ \t]*:(?:[ \t]|$)")
_YAML_LINE = re.compile(rf"{_YAML_KEY.pattern}|[ \t]|-[ \t]")


def _front_matter_end(raws: list[str]) -> int:
    """How many lines a leading YAML front matter (---, key: value lines, --- or ...) takes; 0 when there is none.
    Its first line is a key: a block of list items between two rules is a list in the text."""
    if raws[0].rstrip() != "---":
        return 0
    for end in range(1, min(len(raws), 200)):
        if raws[end].rstrip() in ("---", "..."):
            body = [r for r in raws[1:end] if r.strip()]
            keyed = bool(body) and bool(_YAML_KEY.match(body[0]))
            return end + 1 if keyed and all(_YAML_LINE.match(r) for r in body) else 0
    return 0


def seen_markdown(raws: list[str], front_matter: bool = True) -> list[str]:
    """Markdown without what a reader never sees: a leading YAML front matter (`front_matter`: a .md file; a .txt
    shows it) and HTML comments (<!-- … -->, inline or a block of lines; one left open is text), outside code fences
    and code spans."""
    if not any("<!--" in r for r in raws) and not (front_matter and raws and raws[0].rstrip() == "---"):
        return raws  # nothing to leave out (most files)
    last_close = max((i for i, r in enumerate(raws) if "-->" in r), default=-1)
    out: list[str] = []
    fenced = opened = False
    start = _front_matter_end(raws) if front_matter else 0
    for i, raw in enumerate(raws[start:], start):
        if opened:  # inside a comment block: it ends on the line holding -->
            opened = "-->" not in raw
            raw = "" if opened else raw.split("-->", 1)[1]
            if not raw.strip():
                continue
        fenced = fenced != bool(_FENCE.match(raw))
        if not fenced and "<!--" in raw:
            cut = _COMMENT.sub(lambda m: m.group() if m.group(1) else "", raw)
            opened = re.match(r" {0,3}<!--", cut) is not None and i < last_close
            if opened or not cut.strip():
                continue
            raw = cut.rstrip(" \t")
        out.append(raw)
    return out


def _pipe_cells(line: str) -> list[str]:
    text = line.strip()
    text = text[1:] if text.startswith("|") else text
    text = text[:-1] if text.endswith("|") and not text.endswith("\\|") else text
    return [c.strip().replace("**", "") for c in re.split(r"(?<!\\)\|", text)]


def markdown_lines(text: str, tables: TableCounter | None = None, front_matter: bool = False) -> list[Line]:
    """Lines of a .md/.txt file; `#` headings get their level, `**` emphasis is dropped; a leading YAML front matter
    is left out when `front_matter` (a .md file).

    A pipe table (header, `---` rule, rows) becomes records; so does a run of record
    lines, which is how a table reads back when a document is re-indexed as text.
    """
    tables = tables if tables is not None else TableCounter()
    lines: list[Line] = []
    fenced = False
    raws = text.split("\n")
    raws = seen_markdown(raws, front_matter)
    i = 0
    while i < len(raws):
        raw = raws[i]
        i += 1
        if not fenced and "|" in raw and i < len(raws) and _PIPE_RULE.match(raws[i]):
            rows = [_pipe_cells(raw)]
            i += 1
            while i < len(raws) and "|" in raws[i] and raws[i].strip():
                rows.append(_pipe_cells(raws[i]))
                i += 1
            lines += tables.lines(Grid(rows, header_rows=1))
            continue
        if not fenced and parse_record(raw) is not None and i < len(raws) and parse_record(raws[i]) is not None:
            run = [raw]
            while i < len(raws) and parse_record(raws[i]) is not None:
                run.append(raws[i])
                i += 1
            tables.tables += 1
            tables.rows += len(run)
            lines += [Line(r, None, None, True, tables.tables) for r in run]
            continue
        if _FENCE.match(raw):
            fenced = not fenced
            continue
        if fenced:
            lines.append(Line(raw, plain=True))
            continue
        match = _ATX.match(raw)
        if match:
            content = re.sub(r"(?:^|[ \t]+)#+[ \t]*$", "", match.group(2)).replace("**", "").strip()
            lines.append(Line(content, len(match.group(1)) if content else None))
        else:
            lines.append(Line(raw.replace("**", "")))
    return lines


# --------------------------------------------------------------------------- list numbers (Word auto-numbering)

_ZH_DIGITS = "零一二三四五六七八九"
_ZH_LEGAL = "零壹贰叁肆伍陆柒捌玖"


def zh_number(n: int, digits: str = _ZH_DIGITS, units: str = "十百千") -> str:
    """1 -> 一, 12 -> 十二, 105 -> 一百零五 (Word's chineseCounting style)."""
    if n <= 0 or n >= 10000:
        return str(n)
    if 10 <= n < 20 and digits is _ZH_DIGITS:
        return units[0] + (digits[n % 10] if n % 10 else "")
    out, zero = "", False
    for power, unit in ((1000, units[2]), (100, units[1]), (10, units[0]), (1, "")):
        d = n // power % 10
        if d:
            out += (digits[0] if zero and out else "") + digits[d] + unit
            zero = False
        elif out:
            zero = True
    return out


def format_number(n: int, fmt: str) -> str | None:
    """List number `n` in Word's numFmt `fmt`, or None for a format not rendered."""
    if fmt in ("decimal", "decimalZero"):
        return f"{n:02d}" if fmt == "decimalZero" else str(n)
    if fmt in ("chineseCounting", "chineseCountingThousand", "taiwaneseCounting", "taiwaneseCountingThousand"):
        return zh_number(n)
    if fmt in ("chineseLegalSimplified", "ideographLegalTraditional"):
        return zh_number(n, _ZH_LEGAL, "拾佰仟")
    if fmt == "ideographTraditional" and 1 <= n <= 10:
        return "甲乙丙丁戊己庚辛壬癸"[n - 1]
    if fmt in ("decimalEnclosedCircle", "decimalEnclosedCircleChinese") and 1 <= n <= 20:
        return chr(0x2460 + n - 1)
    if fmt == "decimalFullWidth":
        return "".join(chr(ord(c) + 0xFEE0) for c in str(n))
    if fmt in ("upperLetter", "lowerLetter") and 1 <= n <= 26:
        letter = chr(ord("A") + n - 1)
        return letter if fmt == "upperLetter" else letter.lower()
    return None  # bullets, roman numerals and rarer formats: leave the label out
