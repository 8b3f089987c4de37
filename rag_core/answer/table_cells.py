"""Amounts in table cells: "城市：成都，早餐：15，午餐：30" states 午餐's amount with no unit after it.

A row a document parser wrote as a record line (`text.records`: xlsx, csv, docx and pdf tables) carries
its unit in the column's name (住宿标准（元/晚）) or nowhere at all (午餐：30). The asked-number check
(`subject.required_quantity`) looks for a number with its unit (30元), so such a row never stated the
asked amount and 成都午餐补多少钱 was refused. A cell counts only when the question names its column:
the column's name is the item, the number its amount. A bare number under a column the question does
not name (城市：成都，早餐：15 for 成都住宿多少钱) states nothing about the question, and nor does a cell whose
value the question itself gives: 职级：5 for 职级5的员工住宿标准是多少钱 is the row's key, not 5元.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from ..text.numerals import CN_NUMERAL, chinese_spelling
from ..text.places import CITIES, is_city
from ..text.records import parse_record
from ..text.vocabulary import names

# A cell that is a number and nothing else (15, 1,200, ¥480, 80-100): its unit, if any, is in its column's name.
_BARE_NUMBER = re.compile(r"^[¥￥$]?\s*\d+(?:,\d{3})*(?:\.\d+)?(?:\s*[-–—~～至]\s*\d+(?:,\d{3})*(?:\.\d+)?)?$")
_UNIT_IN_NAME = re.compile(r"[（(]([^（）()]{1,12})[)）]\s*$")  # 住宿标准（元/晚）, 天数(天)
# Column names that say what kind of number their cells count; any other column's number is an amount of money.
_COUNTED = (
    (("天数", "日数", "假期天数"), "天"), (("月数",), "个月"), (("小时数", "时长"), "小时"), (("次数",), "次"),
    (("比例", "比率", "费率"), "%"), (("年龄",), "岁"), (("年限", "年数", "工龄"), "年"),
)
_AMOUNT_UNIT = "元"
# Question words too general to name a column by themselves (标准 names 餐补标准 and 住宿标准 alike).
_TOO_GENERAL = frozenset(
    """标准 金额 额度 数额 费用 报销 上限 下限 限额 具体 多少 多少钱 每月 每年 每天 每次 一共 公司 员工 规定 补贴 补助""".split()
)
_JOIN = "·"  # how a multi-row header is joined (documents.tables.HEADER_JOIN)


def _column_core(header: str) -> str:
    """The name a question would use for a column: no unit in brackets; of a joined header, the last part."""
    return _UNIT_IN_NAME.sub("", header).split(_JOIN)[-1].strip()


def _unit(header: str) -> str:
    """The unit a bare number in this column is counted in."""
    bracket = _UNIT_IN_NAME.search(header)
    if bracket:
        return bracket.group(1)
    return next((unit for ends, unit in _COUNTED if _column_core(header).endswith(ends)), _AMOUNT_UNIT)


def column_named(header: str, question: str, terms: tuple[str, ...], groups: Mapping[str, set[str]]) -> bool:
    """The question names the column: its name stands in the question (午餐 in 成都午餐补多少钱), or a specific
    question word names it (住宿 names 住宿标准（元/晚）; 标准 alone names no column)."""
    core = _column_core(header)
    if len(core) >= 2 and core in question:
        return True
    return bool(core) and any(len(t) >= 2 and t not in _TOO_GENERAL and names(t, core, groups) for t in terms)


def gives_value(value: str, question: str) -> bool:
    """The question states this whole number itself (职级5, 五级 for the cell 5): it picks the row, it is not asked."""
    digits = value.lstrip("¥￥$ ").replace(",", "")
    if not digits.isdigit():
        return False
    if re.search(rf"(?<![\d.]){int(digits)}(?![\d.])", question):
        return True
    spelled = chinese_spelling(int(digits))
    return bool(spelled) and bool(re.search(rf"(?<![{CN_NUMERAL}]){spelled}(?![{CN_NUMERAL}])", question))


@dataclass(frozen=True)
class AskedNumber:
    """The kind of number a question asks for (`pattern`), which a table cell under a column the question
    names states as well. `search` stands in for `pattern.search` wherever a sentence is checked."""

    pattern: re.Pattern
    question: str
    terms: tuple[str, ...] = ()
    groups: Mapping[str, set[str]] = field(default_factory=dict)

    def search(self, text: str) -> bool:
        """`text` states the asked number: written with its unit, or in a named column's cell."""
        return bool(self.pattern.search(text)) or self.in_cell(text)

    @cached_property
    def cities(self) -> frozenset[str]:
        """The cities the question names (成都 of 成都午餐补多少钱)."""
        return frozenset(city for city in CITIES if city in self.question)

    def in_cell(self, text: str) -> bool:
        """A record line of `text` has a bare number of the asked kind under a column the question names, in a
        row for the city asked when the question names one (上海午餐 is not answered by 城市：成都，午餐：30).
        A column the question gives a number for (职级5的…: 职级：5, and 职级：6 of the next row) is the rows'
        key, and none of its cells answers."""
        for line in text.split("\n"):
            pairs = parse_record(line) or []
            row_cities = {v.strip().removesuffix("市") for _, v in pairs if is_city(v.strip())}
            if self.cities and row_cities and not row_cities & self.cities:
                continue
            for header, value in pairs:
                value = value.strip()
                if (_BARE_NUMBER.match(value) and column_named(header, self.question, self.terms, self.groups)
                        and not self.keyed(header, value) and self.pattern.search(f"{value}{_unit(header)}")):
                    return True
        return False

    def keyed(self, header: str, value: str) -> bool:
        """The question gives this cell's number (职级5 for 职级：5) or a number right after the column's name
        (职级5, 职级为6 for any cell of 职级): it picks the row, it is not what is asked."""
        core = _column_core(header)
        return gives_value(value, self.question) or bool(
            len(core) >= 2 and re.search(rf"{re.escape(core)}\s*[为是:：]?\s*第?\s*[\d{CN_NUMERAL}]", self.question))
