"""The quantities a text states, for the citation check: value after scale, and the kind of unit.

An answer's number is held against its clause's numbers, so each must mean one thing:
2万 is 20000 (never 2, or 2千 would pass a clause of 2 万元), 第五条 is the fifth
clause (no five of anything), and 5天 is a count of days that 5元 does not support.
A number with no unit after it (a table cell, 2024-01-01) has no kind and is compared
by value alone, so a correct answer is not flagged for a spelling the clause lacks.

Chinese numerals count only next to a unit (五天、三个月) or as a scaled amount (两万),
so words such as 一线城市, 统一 or 千万 are not read as numbers.
An amount written with two scales (1万5千, 1万2, 一万五) is one quantity, 15000 or 12000: read as 10000 and
5000 it would flag a correct answer to a clause of 15000元 (review 51h 3).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..text.numerals import CN_DIGITS, CN_NUMERAL, QUANTITY_UNITS, chinese_numeral, demonstrative_one


class Quantity(NamedTuple):
    written: str
    value: float
    unit: str | None  # "money", "day", … ; None when no unit follows


# The kind of each unit a policy states an amount in; the order matters (周岁 before 周, 个月 before 月).
_UNITS = (
    # another currency is no amount in 元: 600美元 against a clause's 600 元 is a number the clause does not state
    # (no 日元: 1月1日元旦 is a date; JPY names yen)
    ("foreign_money", "美元|美金|港币|港元|欧元|英镑|韩元|澳元|新台币|USD|HKD|EUR|JPY|GBP"),
    ("money", "元|块|圆"),
    ("percent", "%|％"),
    ("day", "个?工作日|个?自然日|天|日"),
    ("month", "个?自然月|个月|月"),
    ("age", "周岁|岁"),
    ("year", "周年|年"),
    ("hour", "个?小时|个?钟头"),
    ("week", "个?星期|周"),
)
_UNIT = re.compile(r"\s*(?:" + "|".join(f"(?P<{kind}>{words})" for kind, words in _UNITS) + ")")
_SCALE = {"万": 10000, "千": 1000, "百": 100, "亿": 100_000_000, "千万": 10_000_000, "百万": 1_000_000}
_ARABIC = re.compile(r"(\d+(?:,\d{3})*(?:\.\d+)?)(?:\s*(千万|百万|万|千|百|亿))?")
_CHINESE = re.compile(rf"[{CN_NUMERAL}亿]+")
_PERCENT_CN = re.compile(rf"百分之([{CN_NUMERAL}]+)")
# Between the two ends of a range (1-2万元, 5至10天) or the items of an ordinal list (第五、六条).
_RANGE = re.compile(r"\s*[-–—~～－至到]\s*")
_LIST = re.compile(r"\s*[、,，和及]\s*")


def _kind(text: str, at: int) -> str | None:
    match = _UNIT.match(text, at)
    return match.lastgroup if match else None


def _ordinal(text: str, start: int) -> bool:
    """第5条, 第 十二 章, 第二次: the number says which one, not how many."""
    return text[:start].rstrip().endswith("第")


def _chinese_value(run: str) -> float | None:
    """十五 → 15, 两万 → 20000, 三亿 → 300000000, 三千五 → 3500, 三亿五 → 350000000 (as said: a lone final digit
    after a place counts in the next lower place, not ones, as `chinese_numeral` reads it below 亿; 一千零五 is
    1005); None for what is no numeral."""
    if "亿" in run:
        high, _, low = run.partition("亿")
        high_value = _chinese_value(high) if high else 1
        low_value = chinese_numeral(low) if low else 0
        if high_value is None or low_value is None:
            return None
        if low in CN_DIGITS and low_value:  # 三亿五: 50000000, not 5
            low_value *= 10_000_000
        return float(high_value * 100_000_000 + low_value)
    value = chinese_numeral(run)
    return None if value is None else float(value)


def _chinese_counts(run: str, text: str, end: int) -> bool:
    """A run of numeral characters is a number when a unit follows (五天), it is a scaled amount (两万), it ends in
    a digit said in the place below one (九千五, 三百五: 每月补贴九千五 must be held against a clause of 1500元), or it
    is the first end of a range whose second end counts (一千五至两千元, 十五至二十天: it takes that end's unit).
    It starts with a digit or 十, so 千万 (by all means) and 数万 are not read; 五一 and 十一五 are no numeral."""
    if not (run[0] in CN_DIGITS or run[0] == "十"):
        return False
    if run == "一" and demonstrative_one(text, end - 1, run):  # 这一条, 同一天: which one, not how many
        return False
    if (end < len(text) and text[end] in QUANTITY_UNITS) or (len(run) > 1 and run[-1] in "万千百亿"):
        return True
    if len(run) > 2 and run[-1] in CN_DIGITS and run[-2] in "万千百":
        return True
    start = end - len(run)
    if run == "一" and start and "\u4e00" <= text[start - 1] <= "\u9fff":  # 统一至、唯一、之一: a word, no range start
        return False
    return _range_end_counts(text, end)


def _range_end_counts(text: str, end: int) -> bool:
    """A range's second end follows `end` (至两千元, -2000, 到二十天) and counts as a number itself."""
    between = _RANGE.match(text, end)
    if not between:
        return False
    if between.end() < len(text) and text[between.end()].isdigit():
        return True
    second = _CHINESE.match(text, between.end())
    return bool(second) and _chinese_counts(second.group(0), text, second.end())


class _Found(NamedTuple):
    start: int
    end: int
    written: str
    value: float
    scale: str
    unit: str | None
    ordinal: bool


def _arabic(text: str) -> list[_Found]:
    found = []
    for match in _ARABIC.finditer(text):
        scale = match.group(2) or ""
        value = round(float(match.group(1).replace(",", "")) * _SCALE.get(scale, 1), 6)
        found.append(_Found(match.start(), match.end(), match.group(0).strip(), value, scale,
                            _kind(text, match.end()), _ordinal(text, match.start())))
    return found


def _chinese(text: str) -> list[_Found]:
    found: list[_Found] = []
    taken: list[tuple[int, int]] = []
    for match in _PERCENT_CN.finditer(text):
        value = chinese_numeral(match.group(1))
        if value is not None:
            found.append(_Found(match.start(), match.end(), match.group(0), float(value), "", "percent", False))
            taken.append(match.span())
    for match in _CHINESE.finditer(text):
        run = match.group(0)
        if any(start <= match.start() < end for start, end in taken) or not _chinese_counts(run, text, match.end()):
            continue
        value = _chinese_value(run)
        if value is not None:
            scale = run[-1] if run[-1] in _SCALE else ""
            found.append(_Found(match.start(), match.end(), run, value, scale, _kind(text, match.end()),
                                _ordinal(text, match.start())))
    return found


def _one_amount(found: list[_Found]) -> list[_Found]:
    """A scaled number written right against a smaller one is one amount: 1万5千 is 15000, 1万2 is 12000 (a lone
    digit counts in the next lower place, as said), 1万2500 is 12500, 1万2千5百 is 12500; it keeps the first's
    scale (for a range: 1-1万5千元) and the last's unit."""
    out: list[_Found] = []
    last_scale = ""  # the smallest scale of the amount at the end of `out`
    for item in found:
        first = out[-1] if out else None
        if (first is None or not last_scale or item.start != first.end or item.ordinal
                or item.value >= _SCALE[last_scale]):
            out.append(item)
            last_scale = item.scale
            continue
        lone_digit = not item.scale and len(item.written) == 1
        value = item.value * _SCALE[last_scale] // 10 if lone_digit else item.value
        out[-1] = first._replace(end=item.end, written=first.written + item.written,
                                 value=round(first.value + value, 6), unit=item.unit)
        last_scale = item.scale
    return out


def _joined(found: list[_Found], text: str) -> list[_Found]:
    """The first end of a range takes the second's scale and unit (1-2万元 is 1万 to 2万 元, 5至10天 both days)
    unless it would then exceed the second (2000～1万元 is 2000 to 10000);
    the items after an ordinal are ordinals too (第5-7条, 第五、六条)."""
    out = list(found)
    for i in range(1, len(out)):
        first, second = out[i - 1], out[i]
        between = text[first.end : second.start]
        if first.ordinal and (_RANGE.fullmatch(between) or _LIST.fullmatch(between)):
            out[i] = second._replace(ordinal=True)
        elif _RANGE.fullmatch(between) and not first.scale and first.unit is None:
            scaled = round(first.value * _SCALE.get(second.scale, 1), 6)
            if scaled > second.value:  # 2000～1万元: the low end is written out in full
                out[i - 1] = first._replace(unit=second.unit)
            else:
                out[i - 1] = first._replace(value=scaled, scale=second.scale, unit=second.unit)
    return out


def quantities_in(text: str) -> list[Quantity]:
    """Each quantity the text states, in order, without ordinals (cut citations out first)."""
    found = _one_amount(sorted(_arabic(text) + _chinese(text)))
    return [Quantity(f.written, f.value, f.unit) for f in _joined(found, text) if not f.ordinal]


def supports(clause: Quantity, stated: Quantity) -> bool:
    """The clause's quantity is the stated one: the same value, and the same kind of unit where both name one."""
    return clause.value == stated.value and (clause.unit is None or stated.unit is None or clause.unit == stated.unit)
