"""Spreadsheets (.xlsx, .csv): each sheet a section, each data row a record line.

Salary bands and allowance standards live in workbooks. A sheet is read as tables:
blank rows separate tables, a leading line with a single value (a merged title row)
becomes the caption, merged cells are repeated over the range they cover. Formulas
are read as the value Excel cached when the file was last saved (openpyxl cannot
compute them); a formula with no cached value is reported. Hidden sheets, rows and
columns are skipped and reported: they are usually working data, not policy.
"""

from __future__ import annotations

import csv
import io
import posixpath
import re
import zipfile
from datetime import date, datetime, time
from typing import Any

from ..errors import IngestError
from ..types import ReadingReport
from .formats import Line, TableCounter, _paragraph_lines
from .tables import Grid
from .zip_checks import check_zip

MAX_CELLS = 2_000_000  # rows × columns a loaded sheet may span before it is refused
# openpyxl builds an object per cell (about 8 µs and 450 bytes each), and one per cell a merged or hyperlinked range
# covers: a 1.6 KB file merging C3:ZZ3000 took 52 s and 1.3 GB. These are read from the XML before it is loaded.
MAX_STORED_CELLS = 300_000  # cells written in a workbook (about 2.5 s to load); far above what the chunk cap accepts
MAX_EXTENT = 1_000_000  # rows × columns summed over the sheets: openpyxl makes a cell for every position it reads (~5 s)
MAX_RANGE_CELLS = 100_000  # cells covered by merged ranges and hyperlink ranges, all sheets together
MAX_XML_TAGS = 3_000_000  # tags in all parts together: bounds the scan itself and openpyxl's parse (~7 µs a tag)
_XML = {"resolve_entities": False, "no_network": True}
_SPLIT_ADVICE = "请删除多余内容或拆分后再上传"


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


def grid_lines(rows: list[list[str]], merged: set[tuple[int, int]], tables: TableCounter, prefer: int | None,
               down: set[tuple[int, int]] | None = None) -> list[Line]:
    """A sheet's rows as tables: a one-value row above a table is its caption (`down`: merged from above)."""
    lines: list[Line] = []
    for start, end in _blocks(rows):
        captions = []
        # a one-column list has no caption above it: its rows were read as one and lost (review 358: 标题/甲乙/丙丁)
        columned = any(len({c for c in row if c}) > 1 for row in rows[start:end])
        while columned and start < end and len({c for c in rows[start] if c}) == 1 and end - start > 2:
            captions.append(next(c for c in rows[start] if c))
            start += 1
        block_merged = {(r - start, c) for r, c in merged if start <= r < end}
        block_down = {(r - start, c) for r, c in down or () if start < r < end}
        grid = Grid(rows[start:end], prefer, " ".join(captions), block_merged, block_down)
        lines += tables.lines(grid)
    return lines


def _worksheet_rows(sheet: Any, hidden: list[int]) -> tuple[list[list[str]], set[tuple[int, int]], set[tuple[int, int]]]:
    """Cell texts (cached formula values) and merge continuations (from the left, from above) of the rows and columns not hidden; adds to
    `hidden` [rows, columns] those hidden that hold a value."""
    height, width = sheet.max_row or 0, sheet.max_column or 0
    rows = [["" for _ in range(width)] for _ in range(height)]
    for r, value_row in enumerate(sheet.iter_rows()):
        for c, cell in enumerate(value_row):
            rows[r][c] = cell_text(cell.value, cell.number_format)
    gone_rows = {r - 1 for r, dim in sheet.row_dimensions.items() if dim.hidden}
    gone_cols = {c - 1 for dim in sheet.column_dimensions.values() if dim.hidden and dim.min
                 for c in range(dim.min, max(dim.min, dim.max or 0) + 1)}
    at_row = {r: i for i, r in enumerate(r for r in range(height) if r not in gone_rows)}
    at_col = {c: i for i, c in enumerate(c for c in range(width) if c not in gone_cols)}
    hidden[0] += sum(1 for r in gone_rows if r < height and any(rows[r]))
    hidden[1] += sum(1 for c in gone_cols if c < width and any(rows[r][c] for r in at_row))
    merged: set[tuple[int, int]] = set()
    down: set[tuple[int, int]] = set()
    for rng in sheet.merged_cells.ranges:
        top = rows[rng.min_row - 1][rng.min_col - 1] if rng.min_row <= height and rng.min_col <= width else ""
        first, end = rng.min_col - 1, min(rng.max_col, width)
        shown = [at_col[c] for c in range(first, end) if c in at_col]  # its columns not hidden, in the new grid
        for r in range(rng.min_row - 1, min(rng.max_row, height)):
            rows[r][first:end] = [top] * max(0, end - first)
            merged.update((at_row[r], c) for c in shown[1:] if r in at_row)
            if r > rng.min_row - 1 and r in at_row and shown:
                down.add((at_row[r], shown[0]))
    if len(at_row) == height and len(at_col) == width:
        return rows, merged, down
    return [[row[c] for c in at_col] for r, row in enumerate(rows) if r in at_row], merged, down


def _sheet_parts(archive: zipfile.ZipFile) -> list[tuple[str, str]]:
    """(title, zip member) of each sheet the workbook lists; every worksheet part, named by its path, if unreadable."""
    from lxml import etree

    names = set(archive.namelist())
    try:
        book = etree.fromstring(archive.read("xl/workbook.xml"), etree.XMLParser(**_XML))
        rels = etree.fromstring(archive.read("xl/_rels/workbook.xml.rels"), etree.XMLParser(**_XML))
        targets = {rel.get("Id"): rel.get("Target") or "" for rel in rels.iter("{*}Relationship")}
        found = []
        for sheet in book.iter("{*}sheet"):
            target = targets.get(next((v for k, v in sheet.attrib.items() if k.endswith("}id")), ""), "")
            member = target.lstrip("/") if target.startswith("/") else posixpath.normpath("xl/" + target)
            found.append((sheet.get("name") or member, member))
        if found and all(member in names for _, member in found):
            return found
    except (KeyError, etree.XMLSyntaxError):
        pass
    return [(n, n) for n in sorted(names) if n.startswith("xl/worksheets/") and n.endswith(".xml")]


def _count_tags(archive: zipfile.ZipFile, member: str, label: str, name: str, counted: list[int]) -> None:
    """Add a part's tags to `counted` (one total for the whole archive) and refuse past MAX_XML_TAGS, counted in
    the inflated bytes (C speed, nothing parsed). A budget per part let 14 sheets of 2.9 million junk elements
    each (a 2 MB file) through: openpyxl read them for 246 s in 5.4 GB."""
    with archive.open(member) as stream:
        while block := stream.read(1 << 20):
            counted[0] += block.count(b"<")
            if counted[0] > MAX_XML_TAGS:
                raise IngestError(
                    name, f"{label}的内容过多（工作簿各部分共超过 {MAX_XML_TAGS:,} 个 XML 元素），{_SPLIT_ADVICE}"
                )


def _area(ref: str) -> tuple[int, int]:
    """Rows and columns an A1 range covers ("C3:ZZ3000" -> 2998, 700); (1, 1) when unreadable."""
    from openpyxl.utils.cell import range_boundaries

    try:
        min_col, min_row, max_col, max_row = range_boundaries(ref.strip())
    except (ValueError, TypeError):
        return 1, 1
    rows = (max_row or 1) - (min_row or 1) + 1
    cols = (max_col or 1) - (min_col or 1) + 1
    return max(1, rows), max(1, cols)


def _precheck(archive: zipfile.ZipFile, name: str) -> dict[str, int]:
    """Size each sheet from its XML before openpyxl loads it; returns each sheet's formulas with no cached value.

    Refuses (naming the sheet and the limit) more than MAX_STORED_CELLS cells or rows, more than MAX_RANGE_CELLS
    cells under merged or hyperlink ranges, and more than MAX_XML_TAGS tags in all parts together. The <dimension> is not trusted: writers
    leave it out or stale, openpyxl ignores it, and the sheet's real extent is checked against MAX_CELLS after loading.
    """
    from lxml import etree

    parts = _sheet_parts(archive)
    counted = [0]  # tags so far, every part of the archive together
    for member in set(archive.namelist()) - {m for _, m in parts}:  # every part, wherever the content types put it
        if not member.endswith("/"):
            _count_tags(archive, member, "共享字符串表" if member.endswith("sharedStrings.xml") else f"部件 {member} ", name,
                        counted)
    cells = covered = extent = 0
    missing: dict[str, int] = {}
    tags = ("{*}row", "{*}c", "{*}mergeCell", "{*}hyperlink")
    for title, member in parts:
        label = f"工作表「{title}」"
        _count_tags(archive, member, label, name, counted)
        rows = last_row = last_col = 0
        try:
            with archive.open(member) as stream:
                for _, el in etree.iterparse(stream, events=("end",), tag=tags, **_XML):
                    kind = el.tag.rpartition("}")[2]
                    if kind == "c":  # cleared with its row
                        cells += 1
                        if at := _CELL_REF.match(el.get("r") or ""):
                            last_col = max(last_col, _column(at.group(1)))
                        if cells > MAX_STORED_CELLS:
                            raise IngestError(name, f"工作簿读到{label}时单元格已超过 {MAX_STORED_CELLS:,} 个的上限，{_SPLIT_ADVICE}")
                        if len(el) and el.find("{*}f") is not None and el.get("t") != "inlineStr" and not el.findtext("{*}v"):
                            missing[title] = missing.get(title, 0) + 1
                        continue
                    if kind == "row":
                        rows += 1
                        last_row = max(last_row, int(el.get("r") or 0) if (el.get("r") or "").isdigit() else rows)
                        if rows > MAX_STORED_CELLS:
                            raise IngestError(name, f"{label}超过 {MAX_STORED_CELLS:,} 行的上限，{_SPLIT_ADVICE}")
                        while el.getprevious() is not None:
                            del el.getparent()[0]
                    else:  # mergeCell, hyperlink: openpyxl makes a cell object for each cell the range covers
                        height, width = _area(el.get("ref") or "")
                        covered += height * width
                        if covered > MAX_RANGE_CELLS:
                            raise IngestError(
                                name, f"{label}的合并单元格和超链接区域覆盖的单元格超过 {MAX_RANGE_CELLS:,} 个的上限"
                                f"（疑似异常文件），{_SPLIT_ADVICE}",
                            )
                    el.clear()
        except etree.XMLSyntaxError as exc:
            raise IngestError(name, f"文件已损坏或不是有效的 Excel 工作簿（.xlsx）：{label}无法解析") from exc
        extent += last_row * max(last_col, 1)  # a sparse sheet (A1 and T100000) is read as the whole rectangle
        if extent > MAX_EXTENT:
            raise IngestError(name, f"工作簿读到{label}时表格范围（行 × 列）已超过 {MAX_EXTENT:,} 格的上限，{_SPLIT_ADVICE}")
    return missing


_CELL_REF = re.compile(r"([A-Za-z]{1,3})\d+$")


def _column(letters: str) -> int:
    number = 0
    for ch in letters.upper():
        number = number * 26 + ord(ch) - 64
    return number


def xlsx_lines(data: bytes, name: str, reading: ReadingReport, tables: TableCounter) -> tuple[list[Line], str]:
    """Each visible sheet as a level-1 heading and its tables; returns lines and the workbook title."""
    import openpyxl

    with check_zip(data, name, "xl/workbook.xml") as archive:
        lacking = _precheck(archive, name)  # refuses before openpyxl builds anything
    try:
        values = openpyxl.load_workbook(io.BytesIO(data), data_only=True)  # cached formula values; loaded once
    except Exception as exc:
        raise IngestError(name, "文件已损坏或不是有效的 Excel 工作簿（.xlsx）") from exc
    lines: list[Line] = []
    missing, hidden = 0, [0, 0]
    for sheet in values.worksheets:
        if sheet.sheet_state != "visible":
            reading.hidden_sheets.append(sheet.title)
            continue
        if (sheet.max_row or 0) * (sheet.max_column or 0) > MAX_CELLS:
            raise IngestError(name, f"工作表「{sheet.title}」有 {sheet.max_row} 行 × {sheet.max_column} 列，超过上限，请拆分后再上传")
        reading.sheets.append(sheet.title)
        rows, merged, down = _worksheet_rows(sheet, hidden)
        missing += lacking.get(sheet.title, 0)
        lines += _paragraph_lines(sheet.title, 1)
        lines += grid_lines(rows, merged, tables, None, down)
    if any(hidden):
        said = "、".join(f"{n} {unit}" for n, unit in zip(hidden, ("行", "列"), strict=True) if n)
        reading.notes.append(f"已跳过工作表中隐藏的 {said}（其中有内容），未编入索引")
    if missing:
        reading.notes.append(f"有 {missing} 个公式单元格没有保存计算结果（文件未在 Excel 中重新计算保存过），按空值处理")
    title = (values.properties.title or "").strip()
    return lines, title


def _width(rows: list[list[str]]) -> int:
    """Columns up to the last one holding a value in any of `rows`."""
    return max((max((i + 1 for i, cell in enumerate(row) if cell), default=0) for row in rows), default=0)


# a number as a cell states it: 600, -120.50, （120.50）, 12.5%, 5%-8%, ¥1,000
_NUMBER = r"[-+]?[¥￥$]?\d[\d,，.]*\s*[%％]?"
_PLAIN_NUMBER = re.compile(rf"[（(]?{_NUMBER}[）)]?(?:\s*[-~～—至]\s*{_NUMBER})?")


# a value as a cell states it besides a plain number: with its unit (10天, 600.00元, 800元/晚, 8人), a date, an ID (E1002)
_VALUE = re.compile(rf"{_NUMBER}\s*[元天人次个月年周晚份件张条%％]{{1,2}}(?:/[天晚月人次年周])?|\d{{4}}[-/.年]\d{{1,2}}(?:[-/.月]\d{{1,2}}日?)?"
                    r"|[A-Za-z]{1,3}-?\d+")


def _is_number(cell: str) -> bool:
    return bool(_PLAIN_NUMBER.fullmatch(cell))


def _is_value(cell: str) -> bool:
    return _is_number(cell) or bool(_VALUE.fullmatch(cell))


def _reads_as_data(row: list[str], above: list[str], head: list[str], width: int) -> bool:
    """Does `row`, after a blank line, read as one more row of the table whose last row is `above` (first row `head`,
    `width` columns)? It is as wide (counting its empty cells), holds a digit and is not the first row again; and
    it is no header: a row holding no value (a number, with its unit or not, a date, an ID), with words
    (2024年餐补（元/天）) where the row above has a plain number (600), heads a table of its own (review 295). One value
    alone (a footnote) never continues a table; a row narrower than the table (no last cell) does (review 299)."""
    if row[: _width([row])] == head or not any(ch.isdigit() for cell in row for ch in cell):
        return False
    if _width([row]) < 2 or (len(row) != len(above) and _width([row]) > width):  # a missing last cell is no new table
        return False
    if any(_is_value(cell) for cell in row):
        return True
    return not any(_is_number(up) and cell for cell, up in zip(row, above, strict=False))


def _tables_over_blanks(rows: list[list[str]]) -> list[list[str]]:
    """The rows with the blank lines left out that part a table (经理,每晚600元 | (blank) | 专员,每晚400元): after a
    blank line a block continues the table above when its first row reads as data of it (`_reads_as_data`);
    otherwise the blank still starts a new table."""
    out: list[list[str]] = []
    head: list[str] = []  # the first row of the table above (after its one-value caption rows), trailing blanks cut
    width = 0  # the table above's
    for start, end in _blocks(rows):
        block = rows[start:end]
        if out and _reads_as_data(block[0], out[-1], head, width):
            out += block
            continue
        out += [[], *block] if out else block
        named = next((row for row in block if len({c for c in row if c}) > 1), block[0])
        head, width = named[: _width([named])], _width(block)
    return out


def csv_lines(text: str, tables: TableCounter) -> list[Line]:
    """A CSV file as tables; a blank line parts two only when the rows after it read as a table of their own
    (`_tables_over_blanks`). The delimiter is sniffed among , ; tab and |."""
    sample = text[:8192]
    try:
        dialect: Any = csv.Sniffer().sniff(sample, delimiters=",;\t|，")
    except csv.Error:
        dialect = csv.excel
    rows = [[" ".join(c.split()) for c in row] for row in csv.reader(io.StringIO(text), dialect)]
    return grid_lines(_tables_over_blanks(rows), set(), tables, 1)
