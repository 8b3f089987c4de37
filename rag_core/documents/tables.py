"""Tables as records: every data row becomes one line that names its headers.

Each format's reader builds a `Grid` — a rectangle of cell texts in which a merged
cell is repeated over every position it covers, plus which positions continue a
merge from the left or from above — and this module turns it into record lines
("城市：兰州，住宿标准（元/晚）：480", format in `text.records`). Header rows are
resolved here once for every format: multi-row headers are joined top-down
("差旅标准·住宿（元/晚）"), and a full-width row inside the body ("一类城市") becomes
a 分组 field of the rows under it.

A cell is also read as the value of the labels before it in its row or above it in its column (`masking_cells`, set
by the ingest with its masking settings): a form without a header row (姓名 | 张三 | 家庭住址 | 北京市…) read as
header and records put a home address under the key 张三, where masking could not see its label. Beside a label
after which masking reads a value as personal (住址, 手机, QQ …), a cell that reading masks more than the cell alone
is masked before the records are built; the records keep their headers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache

from ..text.pii import names_personal
from ..text.records import record_line

MAX_HEADER_ROWS = 3
HEADER_JOIN = "·"
_NUMERIC = re.compile(r"^[\s¥￥$+\-−–—~～.,，%％0-9０-９()（）/元万千百]*$")


@dataclass
class Grid:
    """A table as read from a file; `header_rows` is None when the format does not say."""

    cells: list[list[str]]
    header_rows: int | None = None
    caption: str = ""
    merged: set[tuple[int, int]] = field(default_factory=set)  # (row, col) continuing a merge from the left
    merged_down: set[tuple[int, int]] = field(default_factory=set)  # (row, col) continuing a merge from above


@dataclass
class TableText:
    """What a table becomes: its caption (may be empty) and one record line per data row."""

    caption: str
    records: list[str]


def _clean(text: object) -> str:
    return " ".join(str(text or "").split())


def _numeric(text: str) -> bool:
    return bool(text) and bool(_NUMERIC.match(text)) and any(ch.isdigit() for ch in text)


def _square(grid: Grid) -> tuple[list[list[str]], set[tuple[int, int]], set[tuple[int, int]]]:
    """Pad rows to one width, then drop empty rows and empty columns (keeping merge marks aligned)."""
    width = max((len(r) for r in grid.cells), default=0)
    rows = [[_clean(c) for c in r] + [""] * (width - len(r)) for r in grid.cells]
    keep_rows = [i for i, r in enumerate(rows) if any(r)]
    keep_cols = [j for j in range(width) if any(rows[i][j] for i in keep_rows)]
    row_at = {old: new for new, old in enumerate(keep_rows)}
    col_at = {old: new for new, old in enumerate(keep_cols)}
    merged = {(row_at[i], col_at[j]) for i, j in grid.merged if i in row_at and j in col_at}
    down = {(row_at[i], col_at[j]) for i, j in grid.merged_down if i in row_at and j in col_at}
    return [[rows[i][j] for j in keep_cols] for i in keep_rows], merged, down


CellMask = Callable[[str], tuple[str, dict[str, int]]]  # text -> (masked text, masks by category)
_CELL_MASK: ContextVar[tuple[CellMask, dict[str, int]] | None] = ContextVar("table_cell_mask", default=None)
_LABEL_SPACE = re.compile(r"[\s\u3000]+")  # 住　　址, 身 份 证 号: a form spaces its labels out to one width


@contextmanager
def masking_cells(mask: CellMask) -> Iterator[dict[str, int]]:
    """While the block parses a file, each table cell is also masked as the value of the labels before it in its row
    or above it in its column, by `mask` (the ingest's own masking: its disabled categories, nothing when masking
    is off); yields the masks made in the tables whose text is taken from the masked cells (records or plain rows)."""
    counts: dict[str, int] = {}
    token = _CELL_MASK.set((mask, counts))
    try:
        yield counts
    finally:
        _CELL_MASK.reset(token)


_LABEL_PARTS = re.compile(r"及|和|与|或|[、/／,，]")  # 家庭住址及电话, QQ/微信: one cell labelling two values
_LABEL_NOTE = re.compile(r"[（(][^（()）]*[）)]")  # 家庭住址（须填写到门牌号）, 住址（省/市/区）: what to write, not a label
_REPEATED = re.compile(r"[\u4e00-\u9fff@]")  # a text long enough to repeat only as a merge (an address), not an amount
# what a form's blank is filled with when there is nothing new to say: a value, never a label that ends a row's labels
_FILLERS = frozenset({"同上", "同左", "同前", "无", "暂无", "否", "是", "/", "-", "—", "——"})


@lru_cache(maxsize=4096)
def _labels(text: str) -> tuple[str, ...] | None:
    """The personal-data labels a cell names (住址, 手机, QQ …: `names_personal`; 家庭住址及电话 names two; 号码（QQ）
    names the one in its note), () for another label (金额, 关系: short, no digit), None for a value."""
    spaced = _LABEL_SPACE.sub("", text).rstrip(":：")
    label = _LABEL_NOTE.sub("", spaced)  # 家庭住址（须填写到门牌号）: what to write beside the label
    if not 0 < len(label) <= 12 or any(ch.isdigit() for ch in label) or label in _FILLERS:
        return None
    notes = [note[1:-1] for note in _LABEL_NOTE.findall(spaced)]
    parts = [part for piece in (label, *notes) for part in _LABEL_PARTS.split(piece) if part]
    return tuple(dict.fromkeys(part for part in parts if names_personal(part)))


def _read_in_records(text: str, labels: tuple[str, ...]) -> bool:
    """Whether the records' own "header：value" reading masks under this header as the label reading would: the
    header as written is the one label (not spaced out, compound, or noted)."""
    return labels == (text.rstrip(":："),)


def _beside_label(label: str, cell: str, mask: CellMask) -> tuple[str, dict[str, int]] | None:
    """`cell` masked as the value of `label` (家庭住址 | 北京市…88号), when that reading masks more of it than the cell
    alone: a code shaped like a passport beside a name (张三 | E12345678) is masked alone as much, and is left to
    the record reading, whose column header knows what it is (工号)."""
    head = f"{label}："
    masked, found = mask(head + cell)
    if masked == head + cell or not masked.startswith(head):
        return None
    if sum(found.values()) <= sum(mask(cell)[1].values()):
        return None
    return masked[len(head):], found


def _labelled(cells: list[list[str]], merged: set[tuple[int, int]], header_rows: int = 0,
              down: frozenset[tuple[int, int]] | set[tuple[int, int]] = frozenset()
              ) -> tuple[list[list[str]], dict[str, int]]:
    """The cells, each value masked as the value of the personal-data labels before it in its row (住址 | 北京… |
    上海… : one column per person) and above it in its column (a labels row over a family's rows) where that reading
    says so (`_beside_label`), and the masks made. Another label ends a row's labels (QQ | 123456 | 金额 | 20000); a
    label heads its column only in a row mostly of labels, until the next one there (咨询电话 | 0571… labels its row,
    not the periods below it); a header row's label is left to the records, which read every value under it, unless
    the records cannot read it (住　　址, 家庭住址及电话: `_read_in_records`). A merge's repeats follow their first cell
    (`down`: from above, where the file says so; else a long text repeated below itself, an address). Unchanged
    outside `masking_cells`."""
    found = _CELL_MASK.get()
    if found is None:
        return cells, {}
    mask, counts = found[0], {}
    out = [row[:] for row in cells]
    above: dict[int, tuple[str, ...]] = {}
    for i, row in enumerate(cells):
        left: tuple[str, ...] = ()
        kinds = [_labels(cell) if cell else None for cell in row]
        filled = [kind for kind, cell in zip(kinds, row, strict=True) if cell]
        # a row of labels: its header row, or mostly labels and no value personal on its own (咨询电话 | 0571… | 人事部
        # is a row of data); only rows naming a personal label are checked
        of_labels = i < header_rows or (sum(kind is not None for kind in filled) * 2 > len(filled) and not any(
            kind is None and mask(cell)[0] != cell for kind, cell in zip(kinds, row, strict=True)
            if cell and any(kinds)))
        for j, cell in enumerate(row):
            if (i, j) in merged:  # continues the merge from the left: the same text, masked alike
                out[i][j] = out[i][j - 1]
                continue
            if i and cell and cell == cells[i - 1][j] and out[i - 1][j] != cell and (
                    (i, j) in down or (len(cell) >= 8 and _REPEATED.search(cell))):
                out[i][j] = out[i - 1][j]  # a value merged down a row (its label not repeated beside it)
                continue
            for label in dict.fromkeys((*left, *above.get(j, ()))) if cell else ():
                if reading := _beside_label(label, out[i][j], mask):
                    out[i][j] = reading[0]
                    for category, number in reading[1].items():
                        counts[category] = counts.get(category, 0) + number
            labels = kinds[j] if out[i][j] == cell else None  # a masked value is no label
            if labels is None:
                continue
            left = labels
            # it heads its column (another personal label takes over there; any other ends nothing: a family member's
            # row of short words, 父亲 | 张大山 | 已故, is no labels row to end 家庭住址)
            if labels and of_labels and (i >= header_rows or not _read_in_records(cell, labels)):
                above[j] = labels
    return (out, counts) if counts else (cells, {})


def _counted(counts: dict[str, int]) -> None:
    """The masks of a table's cells, added to the ingest's counts once its text is taken from them."""
    if counts and (context := _CELL_MASK.get()) is not None:
        for category, number in counts.items():
            context[1][category] = context[1].get(category, 0) + number


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
    cells, merged, down = _square(grid)
    if len(cells) < 2 or len(cells[0]) < 2:
        return None
    count = grid.header_rows if grid.header_rows else guess_header_rows(cells, merged)
    count = min(count, len(cells) - 1)
    if count <= 0:
        return None
    cells, masks = _labelled(cells, merged, count, down)
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
        return None  # read as plain rows (`plain_rows`), which mask and count the cells themselves
    _counted(masks)
    return TableText(_clean(grid.caption), records)


def plain_rows(grid: Grid) -> list[str]:
    """The old reading, for tables that are not tables of data: cells joined by " | ", each masked beside its labels
    as a record's are (a one-row form: 住　　址 | 北京市…)."""
    width = max((len(r) for r in grid.cells), default=0)
    cells, masks = _labelled([[_clean(c) for c in r] + [""] * (width - len(r)) for r in grid.cells], grid.merged,
                             down=grid.merged_down)
    _counted(masks)
    out = []
    for row in cells:
        kept: list[str] = []
        for cell in row:
            if not kept or cell != kept[-1]:
                kept.append(cell)
        if any(kept):
            out.append(" | ".join(kept))
    return out
