"""A lower bound on the chunks a text upload (.txt, .md, .csv) makes, read from its decoded text before any record
is built: a CSV of 780,000 short rows (18.7 MB) was parsed for 55 s and 1 GB, every row made a record line, only
for the chunk cap (`bounds.min_chunks` on the parsed sections) to refuse it at 82,990 chunks.

The bound counts characters parsing never removes: markdown keeps every prose, heading, fenced and record line but a
fence line, without blanks, `**`, a heading's `#`s and invisible characters; a table row keeps each of its cell
values in its record (or, for a layout table, in its plain row), of which word characters (`\\w`: letters, digits,
CJK) are counted.
Only what parsing may drop is counted as nothing: a header row (its names are cut to 40 characters and are left out
where a row is empty), a row with a single distinct value (a group label, a caption, or a merged row that plain rows
say once). Parsed text never has fewer non-blank characters (what `min_chunks` counts after parsing).

Chunks hold at most chunk_size characters, but a table chunk holds whole rows: as many as fit, or one longer row
alone (a 700-row FAQ with 800-character answers makes 700 chunks, not 2,303). So a row counts at most chunk_size,
and the first row of every table and the lines above it that may open it (headings, a caption) nothing: they share
the table's first chunk. Every chunk then holds at most chunk_size of what is counted, and the chunk count is at
least this bound over chunk_size. (Not counted as opening: a plain-text heading with a sentence end or over 50
characters folded into a table, which would need more than chunk_size of such headings to matter.)
"""

from __future__ import annotations

import csv
import io
import math
import os
import re

from ..text.inputs import INVISIBLE
from .decoding import decode_text
from .formats import normalize_text, seen_markdown

TEXT_EXTENSIONS = (".txt", ".md", ".csv")
_NOT_WORD = re.compile(r"\W+")
_PIPE = re.compile(r"(?<!\\)\|")  # as `formats._pipe_cells` splits a row: an escaped \| stays in its cell
_SENTENCE = re.compile(r"[。！？；!?;]")
# runs personal-data masking may replace by a placeholder of 4 or more characters ([邮箱], [手机号]): a roster of phones
# and ID numbers made 1,222 chunks and was refused as "at least 2,200" (review 260)
_MASKABLE = re.compile(r"[0-9A-Za-z@._+\-]{7,}|[〇零一二三四五六七八九幺两壹贰叁肆伍陆柒捌玖拾]{7,}")
_CSV_DELIMITERS = ",;\t|，"  # as `spreadsheet_format.csv_lines` sniffs them
# `formats.normalize_text`'s line breaks and deletions (its str.translate took 7 s on 18 MB); every invisible character
# goes (normalize_text keeps a joiner between two emoji). None is a word character, so deleting them changes no count:
# only where a CSV reader starts a quoted cell, and the sample its dialect is sniffed from.
_BREAKS = re.compile("\r\n?|[\x0b\x0c\x85\u2028\u2029]")
_DELETED = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x84\x86-\x9f\ufeff" + INVISIBLE.pattern[1:])
_UNKEPT = re.compile(r"[\s*#" + _DELETED.pattern[1:] + "+")  # what a prose line may lose: `**`, a heading's `#`s


def _words(text: str) -> int:
    return len(text) if text.isalnum() else len(_NOT_WORD.sub("", text))


def _prose(line: str) -> int:
    """A markdown line outside a table keeps every character but blanks, `**`, a heading's `#`s and invisibles."""
    return len(line) if line.isalnum() else len(_UNKEPT.sub("", line))


def _may_open(line: str) -> bool:
    """A line that may end up in a table's opening: a heading (any, glued or folded) or a short line without a
    sentence end (a caption, a line of its own section that chunking glues to the next: `_is_heading_only`)."""
    text = line.strip()
    return not text or text[0] == "#" or (len(text) <= 50 and not _SENTENCE.search(text[:-1]))


def _row_words(cells: list[str]) -> int:
    """A table row's word characters once per distinct value; 0 for a row of one value (it may be dropped)."""
    if len(cells) > 1 and all(map(str.isalnum, cells)) and len(set(cells)) == len(cells):
        return sum(map(len, cells))  # the usual row, at C speed: distinct values of word characters only
    values = {cell if cell.isalnum() else _NOT_WORD.sub("", cell) for cell in cells}
    values.discard("")
    return sum(map(len, values)) if len(values) > 1 else 0


def _csv_words(text: str, size: int) -> int:
    """Rows as `csv_lines` reads them; the first row of every block (after a row without words) may be a header,
    the next one opens the table's first chunk; a row counts at most `size` (it is never split)."""
    if '"' in text or "'" in text:  # the quote characters a dialect may have
        text = _DELETED.sub("", text)
    sample = normalize_text(text[:16384])  # what `csv_lines` sniffs: the first 8192 characters, normalised
    sample = sample if len(sample) >= 8200 or len(text) <= 16384 else normalize_text(text)
    try:
        dialect: csv.Dialect | type[csv.Dialect] = csv.Sniffer().sniff(sample[:8192], delimiters=_CSV_DELIMITERS)
    except csv.Error:
        dialect = csv.excel
    total, header_seen, opened = 0, False, False
    for row in csv.reader(io.StringIO(text), dialect):
        words = _row_words(row)
        if not words and not any(map(_words, row)):
            header_seen = opened = False  # a blank row ends a block; the next one starts with its own header
        elif words and not header_seen:
            header_seen = True
        elif words and not opened:
            opened = True  # the first row: in the chunk with the table's opening
        else:
            total += min(words, size)
    return total


def _markdown_words(text: str, size: int, front_matter: bool) -> int:
    """Lines without a pipe count whole but a fence line (```python: dropped); a pipe row counts as a table row (at
    most `size`), nothing for a header: the row above a `|---|` rule (a rule has no word character) or, when that
    row is empty (a table drops empty rows), the first row under the rule that is not; nothing for the first row."""
    lines = seen_markdown(text.split("\n"), front_matter)  # never read (`markdown_lines`); front matter only in .md
    total, header_from, opened = 0, None, False  # from which line on the next non-empty row is a header
    above = 0  # the prose counted for the lines right above that may open a table (headings glued to it, caption)
    for i, line in enumerate(lines):
        if "```" in line or "~~~" in line:
            continue
        if "|" not in line or not line.strip():
            header_from, opened = None, False  # the table, if any, ended
            words = _prose(line)
            total += words
            above = above + words if _may_open(line) else 0
            continue
        total, above = total - above, 0  # they ride in the table's first chunk, with its first row
        cells = [cell for cell in map(str.strip, _PIPE.split(line) if "\\" in line else line.split("|")) if cell]
        below = lines[i + 1] if i + 1 < len(lines) else ""
        if "-" in below and not _words(below):
            header_from, opened = None if cells else i + 2, False
            continue  # a header row
        if header_from is not None and i >= header_from and cells:
            header_from = None
            continue
        words = _row_words(cells)
        if words and not opened:
            opened = True  # the first row: in the chunk with the table's opening
            continue
        total += min(words, size)
    return total


def text_min_chunks(data: bytes, filename: str, chunk_size: int, cap: int) -> int:
    """At least how many chunks a .txt/.md/.csv upload makes; 0 for any other type, for undecodable bytes (parsing
    then refuses those with its own reason) and for a file too small to pass `cap` (a word character takes a byte at
    least in every encoding: an ordinary file is not decoded twice)."""
    ext = os.path.splitext(filename)[1].lower()
    if ext not in TEXT_EXTENSIONS or len(data) <= cap * max(1, chunk_size):
        return 0
    try:
        # what masking may shorten counts as its shortest placeholder: a phone, an ID, a card, an address in digits
        text = _MASKABLE.sub("xxxx", _BREAKS.sub("\n", decode_text(bytes(data), filename)[0]))
        size = max(1, chunk_size)
        words = _csv_words(text, size) if ext == ".csv" else _markdown_words(text, size, ext == ".md")
    except Exception:  # csv.Error (a NUL, a field past the csv module's limit): parsing says what is wrong
        return 0
    return math.ceil(words / size)
