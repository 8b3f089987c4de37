"""Chinese numerals: their value (十五 → 15), and the other spelling of a quantity word (一年 ↔ 1年).

Policies write 1年内 and 三十日 where people say 一年 and 30天; a question word counts as named by the
same quantity in the other spelling, so a clause is not judged to lack 一年 because it writes 1年.
"""

from __future__ import annotations

import re

CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
CN_UNITS = {"十": 10, "百": 100, "千": 1000}
CN_NUMERAL = "零〇一二两三四五六七八九十百千万"
# What may follow a numeral for it to count as a quantity (not 一线城市, 统一).
QUANTITY_UNITS = "天日个月年周元块次小时分钟倍名人岁条项级档类种套张份期号点成%％万千百"
_QUANTITY = re.compile(rf"^(?:(\d+)|([{CN_NUMERAL}]+))([{QUANTITY_UNITS}].*)$")
_DIGITS = "零一二三四五六七八九"


def chinese_numeral(text: str) -> int | None:
    """Value of a Chinese numeral such as 十五, 二十, 一百五十, 三万; None when it is not one.

    A lone final digit right after a place counts in the next lower place, as said (三千五 is 3500, 一百五 is 150,
    一万五 is 15000), or a correct 三千五元 would be checked against 3005; after 零 it is ones (一千零五 is 1005).
    Digits with 〇 or 零 and no place are read digit by digit, as years are written (二〇〇五 is 2005, not 5);
    digits alone without either (五一, 一五) are no numeral we read.
    """
    if not text or any(ch not in CN_NUMERAL for ch in text):
        return None
    if len(text) > 1 and all(ch in CN_DIGITS for ch in text) and any(ch in "零〇" for ch in text):
        return int("".join(str(CN_DIGITS[ch]) for ch in text))
    if "万" in text:
        high, _, low = text.partition("万")
        high_value = chinese_numeral(high) if high else 1
        low_value = chinese_numeral(low) if low else 0
        if high_value is None or low_value is None:
            return None
        if low in CN_DIGITS and low_value:  # 一万五: 5000, not 5
            low_value *= 1000
        return high_value * 10000 + low_value
    total, digit, place = 0, None, 1  # place: the unit written right before the digit (1 after 零 or at the start)
    for ch in text:
        if ch in "零〇":  # a placeholder: 一千零五 is 1005
            digit, place = None, 1
        elif ch in CN_DIGITS:
            if digit is not None:  # 一五 is not a numeral we read (only positional spelling)
                return None
            digit = CN_DIGITS[ch]
        else:
            total += (1 if digit is None else digit) * CN_UNITS[ch]
            digit, place = None, CN_UNITS[ch]
    return total + (digit or 0) * max(place // 10, 1)


def chinese_spelling(value: int) -> str:
    """The usual Chinese spelling of 1–9999 (10 → 十, 15 → 十五, 30 → 三十, 105 → 一百零五); "" otherwise."""
    if not 0 < value < 10000:
        return ""
    out, gap = "", False
    for unit, name in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
        digit = value // unit % 10
        if digit:
            if gap and out:
                out += "零"
            out += ("" if digit == 1 and unit == 10 and not out else _DIGITS[digit]) + name
            gap = False
        elif out:
            gap = True
    return out


def quantity_spellings(term: str) -> list[str]:
    """The same quantity written the other way: 一年 → [1年], 两天 → [2天], 30天 → [三十天], 2天 → [二天, 两天];
    [] when `term` is no number followed by a unit (一线, 三八, 第一)."""
    match = _QUANTITY.match(term)
    # 百分之 is a percent sign, not 100 of something; 一点 and 十分 are mostly "a little" and "very"
    if not match or match.group(3).startswith("分之") or match.group(3) in ("点", "分"):
        return []
    digits, chinese, rest = match.groups()
    if digits:
        spelled = chinese_spelling(int(digits))
        if not spelled:
            return []
        return [spelled + rest, "两" + rest] if spelled == "二" else [spelled + rest]
    value = chinese_numeral(chinese)
    return [f"{value}{rest}"] if value else []


def names_quantity(term: str, text: str) -> bool:
    """`text` states the quantity `term` in the other spelling (一年 by 满1年, 30天 by 三十天), not as the end of a
    longer number (1年 is not in 11年, 十天 not in 二十天), an ordinal (第1年) or a date (2024年1月1日)."""
    for spelling in quantity_spellings(term):
        for found in re.finditer(re.escape(spelling), text):
            before = text[found.start() - 1] if found.start() else ""
            if demonstrative_one(text, found.start(), spelling):
                continue
            if not before or not (before.isdigit() or before in CN_NUMERAL or before in _NOT_A_COUNT):
                return True
    return False


# Before a number, what makes it no count of days or years: a decimal point, 第 (第1年, 第十条), or a date's
# year or month (2024年1月1日 names no 一月 or 一日)
_NOT_A_COUNT = ".第年月"

# A lone 一 after one of these points at a thing and counts nothing: 这一条, 同一天, 每一年, 某一项, 哪一点.
_DEMONSTRATIVES = "这那同每某哪"


def demonstrative_one(text: str, start: int, numeral: str) -> bool:
    """The numeral at `start` of `text` is a lone 一 after a demonstrative (这一条, 同一天): no quantity."""
    lone = numeral == "一" or (numeral[:1] == "一" and numeral[1] not in CN_NUMERAL)
    return lone and start > 0 and text[start - 1] in _DEMONSTRATIVES
