"""Web pages (.html): headings, paragraphs, list items, description lists and tables, read as a browser lays them out.

Kept apart from `formats` (Markdown and plain text, the shared Line and table bounds) as Word, PDF and spreadsheets are.
"""

from __future__ import annotations

import re

from ..errors import IngestError
from .formats import MAX_TABLE_CELLS, Line, TableCounter, _paragraph_lines
from .html_bounds import refusal as html_refusal
from .html_bounds import too_many_elements
from .tables import Grid

# Never shown, or shown struck through as no longer in force (<del>, <s>, <strike>): left out with what they hold.
# An element hidden by an attribute or a style is read: in a saved page it is an inactive tab or a collapsed answer.
_HTML_DROP = {"script", "style", "nav", "noscript", "template", "head", "svg", "iframe", "object", "del", "s", "strike"}
_HTML_HEADINGS = {f"h{i}": i for i in range(1, 7)}
# The elements that end a paragraph; any other is read inline, as browsers do: <wbr>, <nobr>, <ruby>, <data> or a
# custom element inside 138<wbr>0013<wbr>8000 once split it into paragraphs the masking read one piece at a time
# (review 353). A <dl>'s term and a plain description are one 「术语：描述」 line (`html_lines`).
_BLOCK = frozenset(
    "address article aside blockquote body caption center details dialog dir div dl dd dt fieldset figcaption figure "
    "footer form header hgroup hr html li main menu ol p section summary tbody td tfoot th thead ul "
    "br table tr pre h1 h2 h3 h4 h5 h6".split()  # read by their own branches of the walk; a space in a cell's text
)
_CJK = "\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef"
_BR = "\u2028"  # stands for <br> while whitespace is collapsed
_FLUSH = object()  # on the walk's stack: the block whose children were pushed above it ends here
_DL_END = object()  # on the walk's stack: a <dl> ends here (its last term said if no <dd> said it)


def _collapse_html_space(text: str) -> str:
    """HTML whitespace rules, but a line break between two CJK characters is dropped, not a space."""
    text = re.sub(rf"(?<=[{_CJK}])[ \t\r\n\f]*\n[ \t\r\n\f]*(?=[{_CJK}])", "", text)
    text = re.sub(r"[ \t\r\n\f]+", " ", text)
    return "\n".join(part.strip(" ") for part in text.split(_BR))


def _flat_text(node: object) -> str:
    """A heading's, cell's or caption's text on one line, read like body text: inline tags join with nothing
    (<span>zhangsan</span>@corp.com is one address, masked as one), <br> and block tags with a space."""
    from bs4 import NavigableString, Tag

    parts: list[str] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if type(item) in (str, NavigableString):  # not comments, doctype or CDATA (subclasses)
            parts.append(str(item))
        elif isinstance(item, Tag) and item.name not in _HTML_DROP:
            gap = "" if item.name not in _BLOCK or item is node else " "
            stack += [gap, *reversed(list(item.children)), gap]
    return " ".join("".join(parts).split())


def _span(cell: object, name: str, limit: int) -> int:
    try:
        return max(1, min(limit, int(str(cell.get(name) or 1).strip() or 1)))  # type: ignore[attr-defined]
    except ValueError:
        return 1


def html_grid(table: object, tables: TableCounter | None = None) -> Grid | None:
    """A <table> as a grid: rowspan/colspan cells repeated where they apply, <thead>/<th> rows as header.

    None when the grid would take the document past MAX_TABLE_CELLS positions (spans are capped per cell, not
    per table): counted before anything is filled or padded; the caller reads such a table row by row instead.
    """
    tables = tables if tables is not None else TableCounter()
    room = MAX_TABLE_CELLS - tables.cells
    rows = [tr for tr in table.find_all("tr") if tr.find_parent("table") is table]  # type: ignore[attr-defined]
    found_in = [tr.find_all(["td", "th"], recursive=False) for tr in rows]
    spans = [[(_span(cell, "rowspan", 200), _span(cell, "colspan", 50)) for cell in found] for found in found_in]
    if sum(rs * cs for row in spans for rs, cs in row) > room:  # what filling would write, at most
        return None
    cells: dict[tuple[int, int], str] = {}
    merged: set[tuple[int, int]] = set()
    down: set[tuple[int, int]] = set()
    header_rows, in_header = 0, True
    for r, (tr, found) in enumerate(zip(rows, found_in, strict=True)):
        c = 0
        for cell, (rowspan, colspan) in zip(found, spans[r], strict=True):
            while (r, c) in cells:
                c += 1
            text = _flat_text(cell)
            for dr in range(rowspan):
                for dc in range(colspan):
                    cells[(r + dr, c + dc)] = text
                    if dc:
                        merged.add((r + dr, c + dc))
                    elif dr:
                        down.add((r + dr, c + dc))
            c += colspan
        is_header = tr.parent.name == "thead" or (found and all(x.name == "th" for x in found))
        in_header = in_header and bool(is_header)
        header_rows += in_header
    height = max((r for r, _ in cells), default=-1) + 1
    width = max((c for _, c in cells), default=-1) + 1
    if height * width > room:  # a sparse table is padded to a rectangle
        tables.cells += len(cells)  # the filling done counts, so many such tables stay bounded too
        return None
    tables.cells += height * width
    grid = [[cells.get((r, c), "") for c in range(width)] for r in range(height)]
    caption = table.find("caption")  # type: ignore[attr-defined]
    return Grid(grid, header_rows or None, _flat_text(caption) if caption else "", merged, down)


def _row_lines(tr: object) -> list[Line]:
    """A table row read as one plain line, cells joined by " | ", each cell once whatever it spans."""
    cells = [_flat_text(c) for c in tr.find_all(["td", "th"], recursive=False)]  # type: ignore[attr-defined]
    return _paragraph_lines(" | ".join(cells), plain=True) if any(cells) else []


# What makes a <dd> more than a value: its own structure, read as blocks (a paragraph or a division around a value is
# still a value: <dd><p>12345678</p></dd>, review 358)
_STRUCTURE = frozenset("table ul ol dl pre h1 h2 h3 h4 h5 h6 blockquote".split())
_PLAIN_REACH = 200  # elements looked at: a <dd> holding more is read as blocks (nested lists stay linear to read)


def _plain(dd: object) -> bool:
    """A <dd> whose text is one value: no table, list, heading or nested list among its first elements. Walked by
    hand: bs4's `descendants` first finds the subtree's last node, which made nested lists quadratic (review 358)."""
    from bs4 import Tag

    stack, seen = list(dd.children), 0  # type: ignore[attr-defined]
    while stack:
        node = stack.pop()
        seen += 1
        if seen >= _PLAIN_REACH or isinstance(node, Tag) and node.name in _STRUCTURE:
            return False
        if isinstance(node, Tag):
            stack += list(node.children)
    return True


def html_lines(text: str, tables: TableCounter | None = None, name: str = "") -> tuple[list[Line], str]:
    """Headings, paragraphs, list items and table rows in document order; returns lines and <title>.

    Refuses (IngestError for `name`) a page over MAX_HTML_ELEMENTS elements, counted before the tree is built. The
    walk keeps its own stack: a recursive one failed at Python's recursion limit (1,000 nested <div>)."""
    from bs4 import BeautifulSoup, NavigableString, Tag

    if too_many_elements(text):
        raise IngestError(name, html_refusal())
    soup = BeautifulSoup(text, "lxml")
    title = " ".join(soup.title.get_text().split()) if soup.title else ""
    for tag in soup.find_all(list(_HTML_DROP)):
        if not tag.decomposed:  # inside one already dropped
            tag.decompose()
    counter = tables if tables is not None else TableCounter()
    lines: list[Line] = []
    buffer: list[str] = []

    def flush() -> None:
        if buffer:
            lines.extend(_paragraph_lines(_collapse_html_space("".join(buffer))))
            buffer.clear()

    # a <dl>'s open term: said with each plain <dd> after it (QQ号：12345678, the masking reads the label beside its
    # value), or alone before a <dd> of blocks (a table, a list, headings: read as blocks) and at the list's end
    # (a stack: a <dl> nested in a <dd> has its own, and the outer one's term is back after it: review 358)
    terms: list[dict] = [{"text": "", "said": True}]

    def say_term() -> None:
        if not terms[-1]["said"]:
            lines.extend(_paragraph_lines(terms[-1]["text"]))
            terms[-1]["said"] = True

    stack: list[object] = list(soup.children)[::-1]  # nodes to read, and _FLUSH where a block ends
    while stack:
        child = stack.pop()
        if child is _FLUSH:
            flush()
        elif child is _DL_END:
            say_term()
            if len(terms) > 1:
                terms.pop()
        elif type(child) is NavigableString:
            buffer.append(str(child))
        elif not isinstance(child, Tag):
            continue  # comments, doctype, processing instructions
        elif child.name == "br":
            buffer.append(_BR)
        elif child.name in _HTML_HEADINGS:
            flush()
            lines.extend(_paragraph_lines(_flat_text(child), _HTML_HEADINGS[child.name]))
        elif child.name == "table":
            flush()
            grid = html_grid(child, counter)
            if grid is not None:
                lines.extend(counter.lines(grid))
            else:  # too large to lay out: its rows as plain lines, the text kept, the work bounded
                for tr in (tr for tr in child.find_all("tr") if tr.find_parent("table") is child):
                    lines.extend(_row_lines(tr))
        elif child.name == "tr":
            flush()
            lines.extend(_row_lines(child))
        elif child.name == "pre":
            flush()
            lines.extend(_paragraph_lines(child.get_text(), plain=True))
        elif child.name == "dl":
            flush()
            terms.append({"text": "", "said": True})
            stack += [_DL_END, _FLUSH, *list(child.children)[::-1]]
        elif child.name == "dt":
            flush()
            say_term()
            terms[-1].update(text=_flat_text(child), said=False)
        elif child.name == "dd" and _plain(child):
            flush()
            said, term = _flat_text(child), terms[-1]["text"]
            lines.extend(_paragraph_lines(f"{term}：{said}" if term and said else said or term))
            terms[-1]["said"] = True
        elif child.name == "dd":
            flush()
            say_term()
            stack += [_FLUSH, *list(child.children)[::-1]]
        elif child.name not in _BLOCK:
            stack += list(child.children)[::-1]
        else:  # p, li, div, td outside a row, and any other block: its own paragraph(s)
            flush()
            stack += [_FLUSH, *list(child.children)[::-1]]
    flush()
    return lines, title
