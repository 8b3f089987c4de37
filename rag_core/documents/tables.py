"""Tables as records: every data row becomes one line that names its headers.

Each format's reader builds a `Grid` — a rectangle of cell texts in which a merged
cell is repeated over every position it covers, plus which positions continue a
horizontal merge — and this module turns it into record lines
("城市：兰州，住宿标准（元/晚）：480", format in `text.records`). Header rows are
resolved here once for every format: multi-row headers are joined top-down
("差旅标准·住宿（元/晚）"), and a full-width row inside the body ("一类城市") becomes
a 分组 field of the rows under it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..text.pii import redact
from ..text.records import record_line

MAX_HEADER_ROWS = 3
HEADER_JOIN = "·"
FORM_MAX_CELLS = 160  # a form's label/value grid is small; a data table is never re-read as one
_NUMERIC = re.compile(r"^[\s¥￥$+\-−–—~～.,，%％0-9０-９()（）/元万千百]*$")


@dataclass
class Grid:
    """A table as read from a file; `header_rows` is None when the format does not say."""

    cells: list[list[str]]
    header_rows: int | None = None
    caption: str = ""
    merged: set[tuple[int, int]] = field(default_factory=set)  # (row, col) continuing a merge from the left


@dataclass
class TableText:
    """What a table becomes: its caption (may be empty) and one record line per data row."""

    caption: str
    records: list[str]


def _clean(text: object) -> str:
    return " ".join(str(text or "").split())


def _numeric(text: str) -> bool:
    return bool(text) and bool(_NUMERIC.match(text)) and any(ch.isdigit() for ch in text)


def _square(grid: Grid) -> tuple[list[list[str]], set[tuple[int, int]]]:
    """Pad rows to one width, then drop empty rows and empty columns (keeping merge marks aligned)."""
    width = max((len(r) for r in grid.cells), default=0)
    rows = [[_clean(c) for c in r] + [""] * (width - len(r)) for r in grid.cells]
    keep_rows = [i for i, r in enumerate(rows) if any(r)]
    keep_cols = [j for j in range(width) if any(rows[i][j] for i in keep_rows)]
    row_at = {old: new for new, old in enumerate(keep_rows)}
    col_at = {old: new for new, old in enumerate(keep_cols)}
    merged = {(row_at[i], col_at[j]) for i, j in grid.merged if i in row_at and j in col_at}
    return [[rows[i][j] for j in keep_cols] for i in keep_rows], merged


def guess_header_rows(cells: list[list[str]], merged: set[tuple[int, int]]) -> int:
    """1, or more when a header row has cells merged across columns over a row of sub-headers."""
    if not cells or sum(_numeric(c) for c in cells[0]) * 2 > len(cells[0]):
        return 0
    count = 1
    while count < min(MAX_HEADER_ROWS, len(cells) - 1):
        spans_above = any((count - 1, j) in merged for j in range(len(cells[0])))
        below = cells[count]
        if not spans_above or any(_numeric(c) for c in below):
            break
        count += 1
    return count


def resolve_headers(header: list[list[str]], width: int) -> list[str]:
    """One name per column: the header rows' texts top-down, repeats (vertical merges) said once."""
    names = []
    for j in range(width):
        parts: list[str] = []
        for row in header:
            if row[j] and (not parts or parts[-1] != row[j]):
                parts.append(row[j])
        names.append(HEADER_JOIN.join(parts)[:40] or f"第{j + 1}列")
    seen: dict[str, int] = {}
    for j, name in enumerate(names):  # two columns with one name would merge into one field
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            names[j] = f"{name}（{seen[name]}）"
    return names


def form_pairs(cells: list[list[str]], merged: set[tuple[int, int]]) -> list[str]:
    """The table read as a form: each row's cells (a merge said once) taken as label, value, label, value …"""
    lines = []
    for i, row in enumerate(cells):
        own = [cell for j, cell in enumerate(row) if (i, j) not in merged]
        pairs = [(own[k], own[k + 1]) for k in range(0, len(own) - 1, 2)]
        if len(own) % 2:
            pairs.append(("", own[-1]))  # a value without a label is kept, not dropped
        line = record_line(pairs)
        if line:
            lines.append(line)
    return lines


def _masked_count(lines: list[str]) -> int:
    return sum(redact("\n".join(lines)).counts.values())


def table_text(grid: Grid) -> TableText | None:
    """Record lines for a table with a header and two columns at least; None for layout tables.

    A table whose first row was only guessed to be its header may be a form without one (姓名 | 张三 | 家庭住址 | …):
    read as header and records, its labels end up far from their values and masking cannot see them. When the
    form reading masks more personal data than the record reading, the form reading is the table (masking wins).
    """
    cells, merged = _square(grid)
    if len(cells) < 2 or len(cells[0]) < 2:
        return None
    count = grid.header_rows if grid.header_rows else guess_header_rows(cells, merged)
    count = min(count, len(cells) - 1)
    if count <= 0:
        return None
    found = _records(grid, cells, count)
    if not grid.header_rows and len(cells) * len(cells[0]) <= FORM_MAX_CELLS:
        form = form_pairs(cells, merged)
        if form and _masked_count(form) > _masked_count(found.records if found else []):
            return TableText(_clean(grid.caption), form)
    return found


def _records(grid: Grid, cells: list[list[str]], count: int) -> TableText | None:
    """The table read as `count` header rows over one record line per data row."""
    headers = resolve_headers(cells[:count], len(cells[0]))
    records: list[str] = []
    group = ""
    for row in cells[count:]:
        values = {c for c in row if c}
        if len(values) == 1 and len(row) > 2 and sum(1 for c in row if c) in (1, len(row)):
            group = values.pop()  # a full-width label row: 一类城市, 管理序列 …
            continue
        pairs = ([("分组", group)] if group else []) + list(zip(headers, row, strict=True))
        line = record_line(pairs)
        if line:
            records.append(line)
    if not records:
        return None
    return TableText(_clean(grid.caption), records)


def plain_rows(grid: Grid) -> list[str]:
    """The old reading, for tables that are not tables of data: cells joined by " | "."""
    out = []
    for row in grid.cells:
        cells: list[str] = []
        for cell in (_clean(c) for c in row):
            if not cells or cell != cells[-1]:
                cells.append(cell)
        if any(cells):
            out.append(" | ".join(cells))
    return out
