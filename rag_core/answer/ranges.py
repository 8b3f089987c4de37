"""Which sentence's range a stated amount falls in: 工作12年 → 已满10年不满20年的，年休假10天.

Rules that differ by length of service, age or duration state bands (满A年不满B年,
A年以上B年以下, 不满B个月, 已满A年). When the question (or what the person told
about themself) states an amount in the same unit, the sentence whose band holds
it is the one that answers, and it leads the answer. Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_DIGITS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_NUMBER = r"(\d+(?:\.\d+)?|[一二两三四五六七八九十]{1,3})"
_UNIT = r"(个月|年|月|周|天|日|岁|小时)"
_STATED = re.compile(_NUMBER + r"(?:多)?" + _UNIT)
_LOWER = re.compile(r"(?:已满|满|达到)" + _NUMBER + _UNIT + r"|" + _NUMBER + _UNIT + r"(?:以上|及以上)")
_UPPER = re.compile(r"(?:不满|不足|未满|少于)" + _NUMBER + _UNIT + r"|" + _NUMBER + _UNIT + r"(?:以下|以内)")
_SAME = {"个月": "月", "日": "天"}


def number(text: str) -> float | None:
    """12 → 12; 十二 → 12; 二十 → 20; 两 → 2 (Chinese numerals up to 99)."""
    if re.fullmatch(r"\d+(?:\.\d+)?", text):
        return float(text)
    if "十" in text:
        tens, _, ones = text.partition("十")
        value = (_DIGITS.get(tens, 0) if tens else 1) * 10 + (_DIGITS.get(ones, 0) if ones else 0)
        return float(value)
    return float(_DIGITS[text]) if text in _DIGITS else None


def _unit(text: str) -> str:
    return _SAME.get(text, text)


def stated_amounts(texts: Iterable[str]) -> list[tuple[float, str]]:
    """Amounts with their unit in what was asked or told (我工作12年了 → [(12, 年)])."""
    found = []
    for text in texts:
        for raw, unit in _STATED.findall(text or ""):
            value = number(raw)
            if value is not None and raw != "一":  # 一年 / 一个月 is a period (年假一年几天), not an amount
                found.append((value, _unit(unit)))
    return found


def _bound(match: re.Match[str]) -> tuple[float | None, str]:
    raw, unit = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
    return number(raw), _unit(unit)


def holds(sentence: str, amount: float, unit: str) -> bool:
    """The sentence states a band in `unit` and `amount` lies in it (a lower bound is inclusive, 不满 is not)."""
    lows = [b for b in map(_bound, _LOWER.finditer(sentence)) if b[1] == unit and b[0] is not None]
    highs = [(b, m.group(0)) for m in _UPPER.finditer(sentence) if (b := _bound(m))[1] == unit and b[0] is not None]
    if not lows and not highs:
        return False
    if lows and amount < min(value for value, _ in lows):
        return False
    for (value, _), text in highs:
        inclusive = text.endswith(("以下", "以内"))
        if amount > value or (amount == value and not inclusive):
            return False
    return True


def band_sentence(sentences: list[str], amounts: list[tuple[float, str]]) -> int | None:
    """Index of the first sentence whose band holds one of `amounts`, else None."""
    for amount, unit in amounts:
        for index, sentence in enumerate(sentences):
            if holds(sentence, amount, unit):
                return index
    return None
