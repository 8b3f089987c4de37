"""A number a person writes with its digits set apart: 1 3 8 0 0 1 3 8 0 0 0, 138、0013、8000, 138，0013，8000.

Split from pii.py (kept under its size limit), which runs these as rules over its view (full-width ，as ',' and
every Unicode space as ' '). The digits of a run separated by one consistent separator (a space, 、 or a comma; two or
three spaces or a hyphen count only between single digits after a phone word, and in an ID) are read as one number,
and the run is masked only when that number is a mobile (1[3-9] and 9 more digits) after a phone word or spelled out
digit by digit with single spaces (stop 65: a file name 张三 1 3 8 … 入职.md has no phone word), an ID with a valid
check character, or a card (16-19 digits, issuer prefix, Luhn) spelled digit by digit, *and* the run is written the
way a person spells such a number: every group one digit (read aloud, digit by digit), or a mobile's own grouping
(3-4-4, 3-8, 7-4, 4-4-3, 4-3-4) with one separator, or an ID in groups of 3 or more. A list of small numbers (第1、2、3条,
1、3、5、7、9、11、13、15), amounts (100、200元, 1000，2000，3000) or a row lined up by several spaces is neither, and a run
followed by a unit (…8000元, …8000号) is a value, not a number to call.
"""

from __future__ import annotations

import re

from .checksums import id_card_valid, luhn_valid
from .mobile_cue import phone_cue_before

Span = tuple[int, int]

# Digits, one separator (one to three spaces, 、, a comma as the view reads ，, or a hyphen) used throughout, maybe an
# ID's final X; not a piece of a longer run (a decimal point, a dash, another separator before or after). A hyphen or
# several spaces count without the number's own word only for an ID (its check character; `_one_separator`).
SEPARATED_RE = re.compile(
    r"(?<![\d.\-])(?<!\d[ 、,])\d+(?P<sep> {1,3}|[、,\-])\d+(?:(?P=sep)\d+)*(?:(?P=sep)?[Xx])?"
    r"(?![\dA-Za-z]|[.\-]\d|[ 、,]\d)",
    re.ASCII)
_MOBILE_GROUPINGS = {(3, 4, 4), (3, 8), (7, 4), (4, 4, 3), (4, 3, 4)}
_UNIT_AFTER = re.compile(r"\s*[年月日时点分秒元万亿号条款项章节%％个天次人岁]")


def _groups(match: re.Match[str]) -> list[str]:
    return re.findall(r"\d+|[Xx]", match.group())


def _a_value(match: re.Match[str]) -> bool:
    """A unit right after the run: an amount, a date or a count (…8000元), whatever its digits."""
    return _UNIT_AFTER.match(match.string, match.end()) is not None


def _digit_by_digit(groups: list[str]) -> bool:
    return all(len(g) == 1 for g in groups)


def _one_separator(match: re.Match[str]) -> bool:
    """One space, 、 or comma between the groups: a hyphen or several spaces line up values in a table row (各月人数
    1  3  2 …) as often as they spell a number, so those runs count only after the number's own word (review 337)."""
    return match.group("sep") in (" ", "、", ",")


def _after_label(match: re.Match[str]) -> bool:
    """The run follows a label's colon (满意度评分：1 4 5 3 2 …): it is what the label says; a number's own word is
    read by the context rules (`pii_context`)."""
    return match.string[max(0, match.start() - 4) : match.start()].rstrip(" \t").endswith((":", "："))


def separated_mobile(match: re.Match[str]) -> Span | None:
    """A mobile spelled digit by digit or in its own grouping (138、0013、8000), after a phone word (手机号是 138 0013
    8000). Without one, eleven digits set apart by single spaces in running text or a name are still a number read
    out (张三 1 3 8 … 入职.md); after a label's colon they are what the label says (评分：1 4 5 3 2 …), and a grouped run or
    a list with 、 (180、1200、1500；1、3、5、7 …) needs the word too. Several spaces or hyphens count only digit by digit
    after the word: groups lined up so are a table's row as often (电话费补贴（元）：150  2000  3000; reviews 337-339).
    The cost: a row of eleven one-digit values 1 5 3 … with single spaces and no label colon is masked."""
    groups = _groups(match)
    digits = "".join(groups)
    if not re.fullmatch(r"1[3-9]\d{9}", digits) or _a_value(match):
        return None
    spaced_out = _digit_by_digit(groups) and match.group("sep") == " " and not _after_label(match)
    if not spaced_out and not phone_cue_before(match.string, match.start()):
        return None
    spelled = _digit_by_digit(groups) or tuple(map(len, groups)) in _MOBILE_GROUPINGS and _one_separator(match)
    return match.span() if spelled else None


def separated_card(match: re.Match[str]) -> Span | None:
    """A bank card spelled digit by digit (6 2 2 2 0 2 …, 6、2、2、2 …): its 16-19 digits pass the issuer prefix and Luhn,
    as a card written whole must."""
    groups = _groups(match)
    digits = "".join(groups)
    if not (16 <= len(digits) <= 19 and digits.isdigit() and digits[0] in "34569") or _a_value(match) \
            or _after_label(match) or not _one_separator(match):  # 16项考核评分：5 4 4 … passes Luhn one time in ten
        return None  # after its word (卡号：6-2-2-2 …) the context rules read it
    return match.span() if _digit_by_digit(groups) and luhn_valid(digits) else None


def separated_id(match: re.Match[str]) -> Span | None:
    """An 18-character ID with its check character, spelled digit by digit or in groups of 3 or more."""
    groups = _groups(match)
    digits = "".join(groups)
    if len(digits) != 18 or not id_card_valid(digits) or _a_value(match):  # its check character: any separator
        return None
    last = groups[-1] if groups[-1].isdigit() else groups[-2] + groups[-1]
    spelled = all(len(g) == 1 for g in groups) or all(len(g) >= 3 for g in [*groups[:-1], last])
    return match.span() if spelled else None
