"""CSV and Excel export of tables (lists of flat dicts) that a spreadsheet opens as they are."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from typing import Any

FORMATS = ("csv", "xlsx")


def _cell(value: Any) -> Any:
    if value is None or isinstance(value, (int, float, str)):
        return value
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return "；".join(value)
    return json.dumps(value, ensure_ascii=False)


def _columns(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    return list(dict.fromkeys(key for row in rows for key in row))


def to_csv(rows: Sequence[Mapping[str, Any]], headers: Mapping[str, str] | None = None) -> bytes:
    """UTF-8 with a BOM, so Excel shows Chinese correctly when the file is double-clicked."""
    columns = _columns(rows)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([(headers or {}).get(c, c) for c in columns])
    for row in rows:
        writer.writerow([_cell(row.get(c)) for c in columns])
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
        sheet.append([(headers or {}).get(c, c) for c in columns])
        for cell in sheet[1]:
            cell.font = Font(bold=True)
        for row in rows:
            sheet.append([_cell(row.get(c)) for c in columns])
        sheet.freeze_panes = "A2"
    if not sheets:
        book.create_sheet(title="空")
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
