"""CSV and Excel export of tables (lists of flat dicts) that a spreadsheet opens as they are."""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from datetime import tzinfo
from typing import Any

from .days import local_minute
from .records import OUTCOMES, FeedbackEntry, GapGroup
from .rows import gap_row

FORMATS = ("csv", "xlsx")


# What an Excel file's XML cannot hold: C0 controls but tab and line breaks, surrogates and U+FFFE/U+FFFF. A stored
# question with one of them made the export raise lxml's English ValueError (the pages showed a traceback).
_NOT_IN_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet reads as a formula (=HYPERLINK(...))


def _cell(value: Any, *, csv_text: bool = False) -> Any:
    """A value as a cell shows it; text a person or a document wrote never runs as a formula (in CSV it gets
    the usual leading apostrophe; `to_xlsx` stores it as text instead). A list is joined first, then guarded."""
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        value = "；".join(value)
    elif not (value is None or isinstance(value, (int, float, str))):
        value = json.dumps(value, ensure_ascii=False)
    if csv_text and isinstance(value, str) and _reads_as_formula(value):
        return "'" + value
    return value


def _reads_as_formula(text: str) -> bool:
    """Starts as a formula does, in ASCII or full width (＝WEBSERVICE(…), ＠SUM(…): WPS reads both; review 364)."""
    return unicodedata.normalize("NFKC", text[:1]).startswith(_FORMULA_START)


def _xml_safe(value: Any) -> Any:
    return _NOT_IN_XML.sub("", value) if isinstance(value, str) else value


class Sheet(list):
    """A sheet's rows as `for_people` shows them, with the columns its header row shows when it has no rows
    (an export of nothing used to be a bare BOM, which reads as a broken file)."""

    def __init__(self, rows: Sequence[Mapping[str, Any]] = (), columns: Sequence[str] = ()) -> None:
        super().__init__(rows)
        self.columns = list(columns)


def _columns(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    return list(dict.fromkeys(key for row in rows for key in row)) or list(getattr(rows, "columns", ()))


def _blank_row(sheet: str) -> dict[str, Any]:
    """A row of `sheet` with every column and no data, built as its rows are (no row: no columns known)."""
    if sheet == "知识缺口":
        return gap_row(GapGroup("", 0, "", "", [], {}))
    if sheet == "反馈":
        return FeedbackEntry(0, "", "", "", "", 0, "", "", []).to_dict()
    return {}


def to_csv(rows: Sequence[Mapping[str, Any]], headers: Mapping[str, str] | None = None) -> bytes:
    """UTF-8 with a BOM, so Excel shows Chinese correctly when the file is double-clicked."""
    columns = _columns(rows)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([(headers or {}).get(c, c) for c in columns])
    for row in rows:
        writer.writerow([_cell(row.get(c), csv_text=True) for c in columns])
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def to_xlsx(sheets: Mapping[str, Sequence[Mapping[str, Any]]], headers: Mapping[str, str] | None = None) -> bytes:
    """One worksheet per table, header row bold and frozen."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    book = Workbook()
    book.remove(book.active)
    for name, rows in sheets.items():
        sheet = book.create_sheet(title=name[:31])
        columns = _columns(rows)
        sheet.append([_xml_safe((headers or {}).get(c, c)) for c in columns])
        for cell in sheet[1]:
            cell.font = Font(bold=True)
        for number, row in enumerate(rows, start=2):  # counted: sheet.max_row scans every cell (quadratic, review 364)
            values = [_xml_safe(_cell(row.get(c))) for c in columns]
            sheet.append(values)
            for column, value in enumerate(values, start=1):
                if isinstance(value, str):  # openpyxl reads =… as a formula and #N/A as an error: text stays text
                    sheet.cell(number, column).data_type = "s"
        sheet.freeze_panes = "A2"
    if not sheets:
        book.create_sheet(title="空")
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


TIME_COLUMNS = {"created_at", "reviewed_at", "first_seen", "last_seen", "last_hit_at"}
_COMMON = {"id": "编号", "created_at": "时间", "user": "用户", "question": "问题", "answer": "回答", "rating": "评价",
           "reason": "原因", "comment": "补充说明", "docs": "涉及文档", "reviewed_at": "审阅时间", "reviewed_by": "审阅人",
           "unread": "未读", "representative": "代表问题", "count": "次数", "first_seen": "首次出现",
           "last_seen": "最近出现", "kinds": "类型", "nearest": "最接近的条款", "users": "提问人", "doc_id": "文档编号",
           "title": "文档", "cited_30d": "近30天引用", "cited_90d": "近90天引用", "cited_total": "保留期内引用",
           "cited_window": "所选时间内引用", "day": "日期", "answered_by": "已有标准答复"}
HEADERS = {"知识缺口": {**_COMMON, "questions": "不同问法"}, "每日提问": {**_COMMON, "questions": "提问数"}}
LOCAL_USER = "local"  # the desktop default's stored name, shown as 本机用户 like the pages do


def for_people(sheet: str, rows: Sequence[Mapping[str, Any]], zone: tzinfo) -> Sheet:
    """A sheet as an HR person reads it: Chinese column names, times in the office's zone, 本机用户; without rows,
    its column names still (the header row of an empty export)."""
    headers = HEADERS.get(sheet, _COMMON)
    if not rows:
        return Sheet(columns=[headers.get(key, key) for key in _blank_row(sheet)])
    out = []
    for row in rows:
        shown = {}
        for key, value in row.items():
            if key in TIME_COLUMNS and isinstance(value, str) and value:
                value = local_minute(value, zone)
            elif key in ("user", "reviewed_by") and value == LOCAL_USER:
                value = "本机用户"
            elif key == "users" and isinstance(value, list):
                value = ["本机用户" if u == LOCAL_USER else u for u in value]
            elif key == "kinds" and isinstance(value, dict):
                value = "，".join(f"{OUTCOMES.get(k, k)} {n}" for k, n in value.items())
            elif key == "rating" and value in (1, -1):
                value = "👍 有用" if value == 1 else "👎 没用"
            elif isinstance(value, bool):
                value = "是" if value else "否"
            shown[headers.get(key, key)] = value
        out.append(shown)
    return Sheet(out)
