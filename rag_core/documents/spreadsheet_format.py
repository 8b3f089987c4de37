"""Spreadsheets (.xlsx, .csv): each sheet a section, each data row a record line.

Salary bands and allowance standards live in workbooks. A sheet is read as tables:
blank rows separate tables, a leading line with a single value (a merged title row)
becomes the caption, merged cells are repeated over the range they cover. Formulas
are read as the value Excel cached when the file was last saved (openpyxl cannot
compute them); a formula with no cached value is reported. Hidden sheets are
skipped and reported: they are usually working data, not policy.
"""

from __future__ import annotations

import csv
import io
from datetime import date, datetime, time
from typing import Any

from ..errors import IngestError
from ..types import ReadingReport
from .docx_format import check_zip
from .formats import Line, TableCounter, _paragraph_lines
from .tables import Grid

MAX_CELLS = 2_000_000  # rows × columns a workbook may declare before it is refused


def cell_text(value: Any, number_format: str = "General") -> str:
    """A cell as a person reads it: 480 not 480.0, dates as YYYY-MM-DD, percentages as 12%."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "是" if value else "否"
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == time(0) else value.isoformat(sep=" ", timespec="minutes")
    if isinstance(value, date | time):
        return value.isoformat()
    if isinstance(value, float | int):
        if "%" in (number_format or ""):
            return f"{value * 100:.10g}%"
        if isinstance(value, float) and value.is_integer():
            return str(int(value))
        return f"{value:.10g}" if isinstance(value, float) else str(value)
    return " ".join(str(value).split())


def _blocks(rows: list[list[str]]) -> list[tuple[int, int]]:
    """(first, end) row ranges separated by blank rows."""
    out, start = [], None
    for i, row in enumerate([*rows, []]):
        if any(row):
            start = i if start is None else start
        elif start is not None:
            out.append((start, i))
            start = None
    return out


def grid_lines(rows: list[list[str]], merged: set[tuple[int, int]], tables: TableCounter, prefer: int | None) -> list[Line]:
    """A sheet's rows as tables: a one-value row above a table is its caption."""
    lines: list[Line] = []
    for start, end in _blocks(rows):
        captions = []
        while start < end and len({c for c in rows[start] if c}) == 1 and end - start > 2:
            captions.append(next(c for c in rows[start] if c))
            start += 1
        block_merged = {(r - start, c) for r, c in merged if start <= r < end}
        grid = Grid(rows[start:end], prefer, " ".join(captions), block_merged)
        lines += tables.lines(grid)
    return lines


def _worksheet_rows(sheet: Any, values: Any) -> tuple[list[list[str]], set[tuple[int, int]], int]:
    """Cell texts (cached formula values), merge continuations, and formulas with no cached value."""
    height, width = sheet.max_row or 0, sheet.max_column or 0
    rows = [["" for _ in range(width)] for _ in range(height)]
    missing = 0
    for r, (formula_row, value_row) in enumerate(zip(sheet.iter_rows(), values.iter_rows(), strict=False)):
        for c, (formula_cell, cell) in enumerate(zip(formula_row, value_row, strict=False)):
            if formula_cell.data_type == "f" and cell.value is None:
                missing += 1
            rows[r][c] = cell_text(cell.value, cell.number_format)
    merged: set[tuple[int, int]] = set()
    for rng in values.merged_cells.ranges:
        top = rows[rng.min_row - 1][rng.min_col - 1] if rng.min_row <= height and rng.min_col <= width else ""
        for r in range(rng.min_row - 1, min(rng.max_row, height)):
            for c in range(rng.min_col - 1, min(rng.max_col, width)):
                rows[r][c] = top
                if c > rng.min_col - 1:
                    merged.add((r, c))
    return rows, merged, missing


def xlsx_lines(data: bytes, name: str, reading: ReadingReport, tables: TableCounter) -> tuple[list[Line], str]:
    """Each visible sheet as a level-1 heading and its tables; returns lines and the workbook title."""
    import openpyxl

    check_zip(data, name, "xl/workbook.xml").close()
    try:
        formulas = openpyxl.load_workbook(io.BytesIO(data), data_only=False)
        values = openpyxl.load_workbook(io.BytesIO(data), data_only=True)
    except Exception as exc:
        raise IngestError(name, "文件已损坏或不是有效的 Excel 工作簿（.xlsx）") from exc
    lines: list[Line] = []
    missing = 0
    for sheet in values.worksheets:
        if sheet.sheet_state != "visible":
            reading.hidden_sheets.append(sheet.title)
            continue
        if (sheet.max_row or 0) * (sheet.max_column or 0) > MAX_CELLS:
            raise IngestError(name, f"工作表「{sheet.title}」有 {sheet.max_row} 行 × {sheet.max_column} 列，超过上限，请拆分后再上传")
        reading.sheets.append(sheet.title)
        rows, merged, lacking = _worksheet_rows(formulas[sheet.title], sheet)
        missing += lacking
        lines += _paragraph_lines(sheet.title, 1)
        lines += grid_lines(rows, merged, tables, None)
    if missing:
        reading.notes.append(f"有 {missing} 个公式单元格没有保存计算结果（文件未在 Excel 中重新计算保存过），按空值处理")
    title = (values.properties.title or "").strip()
    return lines, title


def csv_lines(text: str, tables: TableCounter) -> list[Line]:
    """A CSV file as one table; the delimiter is sniffed among , ; tab and |."""
    sample = text[:8192]
    try:
        dialect: Any = csv.Sniffer().sniff(sample, delimiters=",;\t|，")
    except csv.Error:
        dialect = csv.excel
    rows = [[" ".join(c.split()) for c in row] for row in csv.reader(io.StringIO(text), dialect)]
    return grid_lines(rows, set(), tables, 1)
