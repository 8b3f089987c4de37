"""What masking reads as a number: the character fold and the runs of digits (Arabic or Chinese) it reads as one.

Split from pii.py (which owns what personal data is) so that a text cut before masking (a heading cut to 80
characters) asks the same question the masking answers: where does a number that may identify someone start?
A cut inside one keeps a piece too short for any recogniser, so the cut goes before it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from itertools import chain

from .checksums import FULLWIDTH_FOLD, id_card_valid, luhn_valid

Span = tuple[int, int]

DASHES = [*range(0x2010, 0x2016), 0x2043, 0x2212, 0xFE58, 0xFE63]
# Every decimal digit of another script or style (mathematical bold 𝟏𝟑𝟖, Arabic-Indic ١٣٨ …; not ① or ¹: list marks)
_OTHER_DIGITS = {code: 0x30 + unicodedata.decimal(chr(code)) for code in range(0x80, 0x1FC00)  # the last: U+1FBF9
                 if unicodedata.category(chr(code)) == "Nd"}
# What rules read (one char for one): full-width and other digits as ASCII, tab, the control line breaks (\x0b \x0c
# \x85: typed text shows them as spaces) and Unicode spaces as a space, dash look-alikes (U+2010-2015 incl. the
# non-breaking hyphen and en/em dash, minus, small/full-width hyphen) as '-'.
VIEW_FOLD = (
    _OTHER_DIGITS
    | FULLWIDTH_FOLD
    | dict.fromkeys([0x09, 0x0B, 0x0C, 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x202F, 0x205F], 0x20)
    | dict.fromkeys(DASHES, 0x2D)
)
ZERO_WIDTH_CHARS = r"\u00ad\u180e\u200b-\u200f\u2060-\u2064\ufeff"
# What shows nothing (a regex class body; `text.inputs.INVISIBLE` drops it from typed text, one list): every format
# character (Cf: zero-width space and joiners, soft hyphen, BOM, direction overrides and isolates, tag characters),
# the combining grapheme joiner U+034F and the variation selectors.
INVISIBLE_CHARS = (
    "\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180b-\u180f\u202a-\u202e\u2060-\u206f"
    "\ufe00-\ufe0f\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3"
    f"\U0001d173-\U0001d17a\U000e0000-\U000e007f\U000e0100-\U000e01ef{ZERO_WIDTH_CHARS}")
# What masking reads through (138\u20660013\u20668000 is a phone number): the invisible characters and the C0/C1
# controls, less tab and the line breaks (\n \r; \x0b \x0c \x85 are read as spaces), which part cells and lines.
SKIPPED_CHARS = INVISIBLE_CHARS + "\x00-\x08\x0e-\x1f\x7f-\x84\x86-\x9f"
# A run of 7 or more Chinese digits (幺 is 1 read aloud; the financial capitals 壹贰叁…, also 貳參陸, as on
# contracts and receipts), maybe spaced or dashed, is read as digits: 手机一三八…, 壹叁捌….
# Shorter runs, and runs touching ASCII, stay: 张三 beside a number, or 一一一 before 000@0.com, would join it;
# an amount (壹万元, 贰仟伍佰元) is broken by its scales and stays too.
ZH_DIGIT_CHARS = "零〇一二三四五六七八九幺壹贰叁肆伍陆柒捌玖貳參陸"
_ZH_DIGIT_RUN = re.compile(
    rf"(?<![\w@.%+-])[{ZH_DIGIT_CHARS}](?:[ -]?[{ZH_DIGIT_CHARS}]){{6,}}(?![\w@.%+-])", re.ASCII)
_ZH_DIGITS = str.maketrans(ZH_DIGIT_CHARS, "001234567891" "123456789" "236")
_ARABIC_RUN = re.compile(r"(?<!\d)\d(?:[ -]?\d){6,}(?!\d)", re.ASCII)
# What a run that starts after a name's last character may be, read whole: pii's mobile, a landline (a real area
# code, a local number from 2-9: not 二〇二四一二… less its 二), an ID or card only with its check digit.
_MOBILE = re.compile(r"1[3-9]\d{9}")
_LANDLINE = re.compile(r"(?:010|02\d|0[3-9]\d\d)[2-9]\d{6,7}")
_CARD = re.compile(r"[3-69]\d{15,18}")
_CJK = re.compile(r"[\u3400-\u9fff]")
# What an identifier is written with, as the rules read it (a regex class body): a cut inside such a run would
# keep a part too short to be masked, so the cut leaves the run out whole. Chinese digits are not in it (the cut
# would take 五 off 王五); `number_runs` finds a number written in them.
IDENTIFIER_CHARS = ("0-9０-９A-Za-zＡ-Ｚａ-ｚ@＠._＿\\-－+＋()（）/ \u00a0\u3000。｡"
                    + "".join(map(chr, DASHES)) + SKIPPED_CHARS)


def _identifier(digits: str) -> bool:
    """A whole number some rule masks on its own evidence (shape, check digit): worth taking a name's 五 off."""
    if _MOBILE.fullmatch(digits) or _LANDLINE.fullmatch(digits):
        return True
    return id_card_valid(digits) or (_CARD.fullmatch(digits) is not None and luhn_valid(digits))


def chinese_digit_runs(folded: str) -> Iterator[Span]:
    """Runs of 7+ Chinese digits in folded text, read as one number each.

    A name may end in a digit character (王五, 张三): written against a number in Chinese digits, 王五一三八…
    is a 12-digit run no rule reads, so when the run is no identifier but dropping its first one or two
    characters (after CJK text) leaves exactly one (mobile, landline, ID or card), the run starts after them
    and the name stays a name."""
    for run in _ZH_DIGIT_RUN.finditer(folded):
        start, end = run.span()
        if start and _CJK.match(folded[start - 1]) and folded[start - 1] not in ZH_DIGIT_CHARS:
            digits = [i for i in range(start, end) if folded[i] in ZH_DIGIT_CHARS]
            read = "".join(folded[i] for i in digits).translate(_ZH_DIGITS)
            if not _identifier(read):
                start = next((digits[k] for k in (1, 2) if _identifier(read[k:])), start)
        yield start, end


def read_chinese_digits(folded: str) -> str:
    """`folded` with each Chinese-digit run (as `chinese_digit_runs` finds it) written in Arabic digits."""
    parts, position = [], 0
    for start, end in chinese_digit_runs(folded):
        parts += [folded[position:start], folded[start:end].translate(_ZH_DIGITS)]
        position = end
    return "".join(parts) + folded[position:]


def number_runs(text: str) -> list[Span]:
    """Where runs of 7+ digits (Arabic, or Chinese as masking reads them) are, maybe spaced or dashed: a
    phone, an ID or card number may be one, so a cut must not fall inside."""
    folded = text.translate(VIEW_FOLD)
    return sorted([*chinese_digit_runs(folded), *(m.span() for m in _ARABIC_RUN.finditer(folded))])


def private_use_chars(text: str) -> Iterator[str]:
    """Stand-ins for values masking holds back: never digits (no rule reads them as part of a number), never
    already in the input."""
    ranges = (range(0xE000, 0xF900), range(0xF0000, 0xFFFFE), range(0x100000, 0x10FFFE))
    return (char for char in map(chr, chain(*ranges)) if char not in text)


# A row of numbers each written in two groups (13800 138000 13900 139000 …): masking's pair rule sees only the last
# (another group follows the others), one more per pass over the whole text: quadratic (review 365). Read as pairs.
GROUP_ROW_RE = re.compile(r"(?<![\d.-])\d{3,}(?:[ .-]\d{3,}){3,}(?!\d|[ .-]\d)", re.ASCII)


def mobile_pairs(match: re.Match[str]) -> list[Span] | None:
    """Each pair of a `GROUP_ROW_RE` row, when every pair is a mobile number in two groups (1[3-9] and 11 digits)."""
    groups = [(m.start(), m.end()) for m in re.finditer(r"\d+", match.group())]
    if len(groups) % 2:
        return None
    pairs = [(groups[i][0], groups[i + 1][1]) for i in range(0, len(groups), 2)]
    if not all(re.fullmatch(r"1[3-9]\d{9}", re.sub(r"\D", "", match.group()[a:b])) for a, b in pairs):
        return None
    return [(match.start() + a, match.start() + b) for a, b in pairs]


# A date as a table writes it (20240101): opening the line below a number, it is no half of that number (review 369)
DATE = r"(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])"
_DATE_AFTER_BREAK = re.compile(rf"\n[ \t\u3000]*{DATE}(?!\d)")


def short_above_date(text: str, start: int, end: int) -> bool:
    """Between `start` and `end`, a date opens the line below fewer than 10 digits (60012347⏎20240101: a staff number
    and a date, no card; 62220212345⏎20240106 may be a card's halves, review 370)."""
    below = _DATE_AFTER_BREAK.search(text, start, end)
    return below is not None and sum(char.isdigit() for char in text[start:below.start()]) < 10
