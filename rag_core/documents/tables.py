"""Tables as records: every data row becomes one line that names its headers.

Each format's reader builds a `Grid` — a rectangle of cell texts in which a merged
cell is repeated over every position it covers, plus which positions continue a
horizontal merge — and this module turns it into record lines
("城市：兰州，住宿标准（元/晚）：480", format in `text.records`). Header rows are
resolved here once for every format: multi-row headers are joined top-down
("差旅标准·住宿（元/晚）"), and a full-width row inside the body ("一类城市") becomes
a 分组 field of the rows under it.

A cell is also read as the value of the cell left of it (`masking_cells`, set by the ingest with its masking
settings): a form without a header row (姓名 | 张三 | 家庭住址 | 北京市…) read as header and records puts a home address
under the key 张三, where masking cannot see its label. Where that reading masks the cell and the cell alone is not
masked, the cell is masked before the records are built; the records keep their headers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from ..text.records import record_line

MAX_HEADER_ROWS = 3
HEADER_JOIN = "·"
MASKED_CELLS_MAX = 5000  # grid positions of one table read cell by cell beside its labels (a long form: 27 × 6)
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


CellMask = Callable[[str], tuple[str, dict[str, int]]]  # text -> (masked text, masks by category)
_CELL_MASK: ContextVar[tuple[CellMask, dict[str, int]] | None] = ContextVar("table_cell_mask", default=None)


@contextmanager
def masking_cells(mask: CellMask) -> Iterator[dict[str, int]]:
    """While the block parses a file, each table cell is also masked as the value of the cell left of it, by `mask`
    (the ingest's own masking: its disabled categories, nothing when masking is off); yields the masks made."""
    counts: dict[str, int] = {}
    token = _CELL_MASK.set((mask, counts))
    try:
        yield counts
    finally:
        _CELL_MASK.reset(token)


def _beside_label(label: str, cell: str, mask: CellMask, counts: dict[str, int]) -> str | None:
    """`cell` masked as the value of `label`, when the label is what makes it personal (家庭住址 | 北京市…88号); None
    when it changes nothing or the cell is masked alone: a code shaped like a passport (工号 | E12345678) is
    left to the record reading, whose column header knows what it is."""
    head = f"{label}："
    masked, found = mask(head + cell)
    if masked == head + cell or not masked.startswith(head) or mask(cell)[0] != cell:
        return None
    for category, number in found.items():
        counts[category] = counts.get(category, 0) + number
    return masked[len(head):]


def _may_be_personal(cell: str) -> bool:
    """What a label can make personal holds a digit and five characters at least (a QQ number, an address's 88号)
    or an @: a table's 400 or 2类 cannot be, and reading them beside their labels cost a third of the ingest's
    parse of a table-heavy policy."""
    return "@" in cell or (len(cell) >= 5 and any(ch.isdigit() for ch in cell))


def _labelled(cells: list[list[str]], merged: set[tuple[int, int]]) -> list[list[str]]:
    """The cells, each masked as the value of the nearest filled cell left of it where that reading says so
    (`_beside_label`); a merge's repeats follow their first cell. Unchanged outside `masking_cells`."""
    found = _CELL_MASK.get()
    if found is None or not cells or len(cells) * len(cells[0]) > MASKED_CELLS_MAX:
        return cells
    mask, counts = found
    out = [row[:] for row in cells]
    for i, row in enumerate(cells):
        label, first = "", 0
        for j, cell in enumerate(row):
            if (i, j) in merged:  # continues the merge from the left: the same text, said once
                out[i][j] = out[i][first]
                continue
            first = j
            if label and cell != label and _may_be_personal(cell):
                out[i][j] = _beside_label(label, cell, mask, counts) or cell
            label = cell or label
    return out


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


def table_text(grid: Grid) -> TableText | None:
    """Record lines for a table with a header and two columns at least; None for layout tables."""
    cells, merged = _square(grid)
    if len(cells) < 2 or len(cells[0]) < 2:
        return None
    count = grid.header_rows if grid.header_rows else guess_header_rows(cells, merged)
    count = min(count, len(cells) - 1)
    if count <= 0:
        return None
    cells = _labelled(cells, merged)
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
