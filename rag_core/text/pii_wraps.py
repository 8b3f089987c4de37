"""A number a table cell wrapped, read back from a text layer row by row: the two halves on two lines with the
row's other cells between them.

A borderless PDF table gives "李四 110101199003 行政部" then "074514": neither half is anyone's number alone, and
the break the masking reads across (`pii._BREAK`) has 行政部 in the way (review 353). The halves are joined only
on the number's own evidence: an ID's check digit, or a bank card's issuer prefix and Luhn digit. A wrap fills
the first line, so the upper half is never the shorter one, and it is the last number of its line; the lower half
opens the next line. A mobile number has no check digit: two numbers of a row are as likely an amount and a count.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .checksums import id_card_valid, luhn_valid
from .digit_runs import DATE

# a digit run of a line: the upper half may have other cells after it, numbers among them (a phone, review 353)
_RUN = re.compile(r"(?<![\dXx])\d{6,17}(?![\dXx])")
# A run with another number after it on its line is tried for a card only when this long: a 工号 or an amount (8 digits)
# with a next line's digits passes a card's Luhn digit one time in ten (review 368). An ID's check digit and birth date
# are evidence enough at any split (9+9, review 369).
_INNER_RUN = 10
_DATE = re.compile(DATE)
# the first thing on the next line: a digit run standing alone (a space or the line's end after it)
_LOWER = re.compile(r"[ \t\u3000]*(\d{0,13}[\dXx])(?=[ \t\u3000\r]|$)", re.MULTILINE)  # X: an ID's check character


def _kind(number: str) -> str | None:
    if len(number) == 18 and id_card_valid(number):
        return "id_card"
    if 16 <= len(number) <= 19 and number.isdigit() and number[0] in "34569" and luhn_valid(number):
        return "bank_card"
    return None


def _upper_half(text: str, line_start: int, line_end: int, tail: str,
                disabled: frozenset[str] | set[str]) -> tuple[re.Match[str], str] | None:
    """The digit run of the line that makes a number with `tail` (the next line's opening digits), tried from the line's
    last, and that number's kind; None when no run does."""
    runs = list(_RUN.finditer(text, line_start, line_end))
    for run in reversed(runs):
        kind = _kind(run.group() + tail) if len(run.group()) >= max(len(tail), 6) else None
        if kind is not None and kind not in disabled and (run is runs[-1] or kind == "id_card"
                                                          or len(run.group()) >= _INNER_RUN):
            return run, kind
    return None


def join_wrapped_cells(text: str, mask: Callable[[str, str], str], disabled: frozenset[str] | set[str]) -> str:
    """`text` with each such pair masked: the upper half replaced by the placeholder (`mask(category, number)`), the
    lower half removed. The line's digit runs are tried from its last (the row's other cells may hold numbers after
    the wrapped one). Linear: each line is read once, against the line after it."""
    if "\n" not in text:
        return text
    out: list[str] = []
    position = line_start = 0
    while (line_end := text.find("\n", line_start)) >= 0:
        lower = _LOWER.match(text, line_end + 1)
        # 20240101 opening a line is a date, not a number's second half (review 368)
        found = None if lower is None or _DATE.fullmatch(lower.group(1)) else \
            _upper_half(text, line_start, line_end, lower.group(1), disabled)
        if found is not None and lower is not None and found[0].start() >= position:
            upper, kind = found
            out += [text[position:upper.start()], mask(kind, upper.group() + lower.group(1)), text[upper.end():line_end + 1]]
            position = lower.end()
        line_start = line_end + 1
    out.append(text[position:])
    return "".join(out)
