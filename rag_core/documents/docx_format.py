"""Word (.docx) extraction: paragraphs with their heading levels and list numbers, tables as records.

Split from `formats` because Word's numbering (一、/（一）/1.) needs its own small
renderer; the zip checks (`zip_checks`) refuse bombs before anything is inflated, and the element
budget (`docx_bounds`) before python-docx parses any part.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator

from ..errors import IngestError, OverBound
from .docx_bounds import TooMany, count_archive, count_elements, xml_limit_reason
from .docx_bounds import W as _W
from .docx_embedded import Embedded, word_parts_as_files
from .docx_hidden import drop_hidden, margins_with_text, vanish_styles
from .docx_numbering import Numbering
from .docx_styles import ParagraphStyle, StyleTable
from .formats import MAX_TABLE_CELLS, MAX_TABLE_COLUMNS, Line, TableCounter, _paragraph_lines
from .formats import zh_number as zh_number  # where tests and callers have read it
from .tables import Grid, plain_rows
from .zip_checks import check_zip as check_zip  # its former home: spreadsheet_format and callers read it here

# Paragraphs in word/document.xml, counted before python-docx loads it: a 300-page handbook has about 10,000.
# 11 MB of tiny paragraphs (5.7 million) held 3 GB and a core for over ten minutes before any other limit applied.
# Each table cell is a paragraph too: a 5,200 x 8 salary table (41,600) makes 1,734 chunks, under the chunk cap, so
# 40,000 refused a real file (stop 60); 99,000 tiny paragraphs still take 23 s to reach the chunk cap's refusal.
DOCX_MAX_PARAGRAPHS = 100_000
# Paragraphs, runs and tables together (what extraction walks): 300 pages of heavily edited text hold ~60,000.
DOCX_MAX_PARTS = 400_000
DOCX_MAX_ELEMENTS = 2_000_000  # every element start (bookmarks, properties …): a 300-page handbook has ~400,000


def check_paragraphs(archive: zipfile.ZipFile | None, name: str, part: bytes | None = None) -> None:
    """Refuse a document whose XML parts together pass the element bounds (`docx_bounds`), streamed before
    python-docx loads any of them: one budget over every member of `archive` (styles, numbering, headers,
    notes … as well as document.xml), or over the one `part` given. The zip checks bound bytes, not elements,
    and the chunk cap applies only after parsing. Malformed XML is left to python-docx's own refusal; lxml's
    depth and text-node limits are refused here, saying which."""
    from lxml import etree

    try:
        if part is not None:
            count_elements(io.BytesIO(part), DOCX_MAX_PARAGRAPHS, DOCX_MAX_PARTS, DOCX_MAX_ELEMENTS)
        else:
            count_archive(archive, DOCX_MAX_PARAGRAPHS, DOCX_MAX_PARTS, DOCX_MAX_ELEMENTS)  # type: ignore[arg-type]
    except TooMany as over:
        what = {"paragraphs": "段落", "parts": "段落、文字块和表格", "elements": "内容元素"}[over.kind]
        raise OverBound(
            name, f"Word 文档的{what}超过 {over.limit:,} 个的上限（疑似异常文件），请删除多余内容或拆分后再上传"
        ) from None
    except (etree.XMLSyntaxError, zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
        if reason := xml_limit_reason(exc):
            raise OverBound(name, f"Word 文档{reason}") from None


def _docx_level(p: object, style: ParagraphStyle) -> int | None:
    """Heading level from the style name (Title = 0, Heading N / 标题 N) or the outline level."""
    from docx.oxml.ns import qn

    name = style.name
    if name == "Title":
        return 0
    match = re.fullmatch(r"(?i)(?:heading|标题)\s*([1-9])", name.strip())
    if match:
        return min(int(match.group(1)), 6)
    for ppr in (p.find(qn("w:pPr")), style.ppr):  # type: ignore[attr-defined]
        outline = ppr.find(qn("w:outlineLvl")) if ppr is not None else None
        if outline is not None:
            value = int(outline.get(qn("w:val"), "9"))
            return value + 1 if value < 6 else None
    return None


# Inline wrappers whose runs are part of the text; w:del and w:moveFrom (text that has left) are not among them.
_RUN_WRAPPERS = frozenset(
    _W + t for t in ("hyperlink", "ins", "moveTo", "smartTag", "fldSimple", "customXml", "dir", "bdo")
)
_OFF = ("0", "false", "off")


def _unwrapped(element: object, tags: tuple[str, ...]) -> Iterator[object]:
    """The children of `element` with one of `tags`, also those inside content controls and custom-XML wrappers.

    python-docx's tr_lst, tc_lst and body iteration see direct children only, so a row, cell or
    paragraph that a template wraps in a w:sdt (or w:customXml) would be dropped. A control still
    showing Word's prompt (选择一项。) holds no content: its rows and blocks are skipped, while its
    cells are kept (read as empty by `_cell_text`) so the row's columns do not shift.
    """
    for child in element.iterchildren():  # type: ignore[attr-defined]
        if child.tag in tags:
            yield child
        elif child.tag == _W + "sdt":
            content = child.find(_W + "sdtContent")
            if content is not None and (_W + "tc" in tags or not _showing_placeholder(child)):
                yield from _unwrapped(content, tags)
        elif child.tag == _W + "customXml":
            yield from _unwrapped(child, tags)


def _showing_placeholder(sdt: object) -> bool:
    flag = sdt.find(f"{_W}sdtPr/{_W}showingPlcHdr")  # type: ignore[attr-defined]
    return flag is not None and flag.get(_W + "val", "true").lower() not in _OFF


def _placeholder_cell(tc: object) -> bool:
    """Is this cell inside a content control (between it and its row) that still shows its prompt?"""
    for ancestor in tc.iterancestors():  # type: ignore[attr-defined]
        if ancestor.tag == _W + "tr":
            return False
        if ancestor.tag == _W + "sdt" and _showing_placeholder(ancestor):
            return True
    return False


def _paragraph_text(element: object) -> str:
    """A paragraph's text as Word shows it with tracked changes accepted.

    python-docx's Paragraph.text reads direct runs and hyperlinks only, which drops inline content
    controls (生效日期, 部门, amounts in templates), tracked insertions, smart tags and simple fields.
    A control still showing Word's prompt (单击或点击此处输入文字) adds nothing.
    """
    parts: list[str] = []
    for child in element.iterchildren():  # type: ignore[attr-defined]
        if child.tag == _W + "r":
            parts.append(child.text or "")  # CT_R.text: w:t, tabs and breaks, never w:delText
        elif child.tag == _W + "sdt":
            content = child.find(_W + "sdtContent")
            if content is not None and not _showing_placeholder(child):
                parts.append(_paragraph_text(content))
        elif child.tag in _RUN_WRAPPERS:
            parts.append(_paragraph_text(child))
    return "".join(parts)


_MC_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
_NOT_SHOWN = frozenset({_MC_FALLBACK, _W + "del", _W + "moveFrom"})  # a Fallback repeats its mc:Choice
_NOTE_REFS = {_W + "footnoteReference": "footnote", _W + "endnoteReference": "endnote"}
# A picture in the text (DrawingML, or VML in older files): its words, if any, cannot be read (review 381)
_PICTURES = frozenset({"{http://schemas.openxmlformats.org/drawingml/2006/picture}pic",
                       "{urn:schemas-microsoft-com:vml}imagedata"})


class Extras:
    """Footnotes and endnotes by (kind, id), and what was read from them and from text boxes; what was left out.

    python-docx's run text leaves out a text box (w:drawing / w:pict → w:txbxContent) and a paragraph holds only
    a reference to its note, so both would be dropped without a word. Hidden text (w:vanish) is removed from the
    body and the notes, headers and footers are not read: both are counted for the upload notes."""

    def __init__(self, document: object, name: str) -> None:
        from docx.oxml import parse_xml  # python-docx's element classes: a run's .text reads w:t, tabs and breaks
        from lxml import etree

        self.notes: dict[tuple[str, str], object] = {}
        self.boxes = self.read_notes = self.pictures = 0
        self.seen: set[tuple[str, str]] = set()
        self.styles = vanish_styles(document)
        self.hidden = drop_hidden(document.element.body, self.styles)  # type: ignore[attr-defined]
        self.margins = margins_with_text(document)
        for rel in document.part.rels.values():  # type: ignore[attr-defined]
            kind = rel.reltype.rsplit("/", 1)[-1][:-1]
            if kind not in ("footnote", "endnote") or rel.is_external:
                continue
            try:  # counted with every other part before python-docx opened the file
                root = parse_xml(rel.target_part.blob)
            except etree.XMLSyntaxError as exc:
                if reason := xml_limit_reason(exc):
                    raise OverBound(name, f"Word 文档{reason}") from None
                continue  # a malformed notes part is skipped
            self.hidden += drop_hidden(root, self.styles)
            self.notes.update(((kind, n.get(_W + "id", "")), n) for n in root.iterchildren(_W + kind))

    def texts(self, p: object) -> list[str]:
        """The paragraphs of text boxes anchored in w:p `p` (any w:p inside it is in one) and of the notes it
        references, in document order; one walk of p's elements, a Fallback copy or deleted text left out."""
        out: list[str] = []
        stack = list(p)[::-1]  # type: ignore[call-overload]
        while stack:
            element = stack.pop()
            if element.tag in _NOT_SHOWN:
                continue
            self.pictures += element.tag in _PICTURES
            if element.tag == _W + "p":
                out.append(_paragraph_text(element))
                self.boxes += bool(out[-1].strip())
            elif element.tag in _NOTE_REFS:
                key = (_NOTE_REFS[element.tag], element.get(_W + "id", ""))
                if key in self.notes and key not in self.seen:
                    self.seen.add(key)
                    out += [_paragraph_text(x) for x in self.notes[key].iter(_W + "p")]  # type: ignore[attr-defined]
                    self.read_notes += 1
            stack += list(element)[::-1]
        return [t for t in out if t.strip()]

    def said(self) -> list[str]:
        said = [f"文本框中的 {self.boxes} 段文字"] if self.boxes else []
        said += [f"脚注/尾注 {self.read_notes} 条"] if self.read_notes else []
        out = [f"已读取{'和'.join(said)}，放在引用它们的段落之后"] if said else []
        out += [f"Word 中设为隐藏的文字（共 {self.hidden} 字）未编入索引"] if self.hidden else []
        out += [f"文档中有 {self.pictures} 张图片，图片里的文字没有编入索引：如果图片里是制度内容（如截图、扫描件），"
                "请把图片另外上传（会识别其中的文字），或改为文字"] if self.pictures else []
        return out + ([f"页眉、页脚中的文字（{self.margins} 处）未编入索引"] if self.margins else [])


def _docx_blocks(element: object, parent: object, embedded: bool = False) -> Iterator[object]:
    """Body (or cell) paragraphs and tables in order, looking inside content controls and custom-XML wrappers;
    with `embedded`, also each w:altChunk element (a whole part the body embeds, read by `docx_embedded`)."""
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    for child in _unwrapped(element, (_W + "p", _W + "tbl", _W + "altChunk") if embedded else (_W + "p", _W + "tbl")):
        if child.tag == _W + "altChunk":  # type: ignore[attr-defined]
            yield child
        else:
            yield Paragraph(child, parent) if child.tag == _W + "p" else Table(child, parent)  # type: ignore[attr-defined]


def _cell_text(tc: object, table: object, tables: TableCounter, name: str, extras: Extras | None = None) -> str:
    """A cell's paragraphs, and a table nested in it flattened (cells " | ", rows "；"), which cell.text leaves out."""
    from docx.table import Table

    if _placeholder_cell(tc):
        return ""
    parts = []
    for block in _docx_blocks(tc, table):
        if isinstance(block, Table):
            parts.append("；".join(plain_rows(docx_grid(block, tables, name, extras))))
        else:
            parts.append(_paragraph_text(block._p))  # type: ignore[attr-defined]
            parts += extras.texts(block._p) if extras is not None else []  # type: ignore[attr-defined]
    return "\n".join(parts)


def _too_big(name: str, reason: str) -> IngestError:
    return OverBound(name, f"Word 文档中的表格{reason}，疑似异常文件，已拒绝；请删除多余内容或拆分后再上传")


def docx_grid(table: object, tables: TableCounter | None = None, name: str = "", extras: Extras | None = None) -> Grid:
    """A Word table as a grid: merged cells repeated, rows marked "repeat as header row" counted as header.

    Walks the <w:tr> and <w:tc> elements, also those in content controls (python-docx's row.cells repeats a
    cell, and reads its text, once per grid column it spans); refuses a row over MAX_TABLE_COLUMNS and tables
    over MAX_TABLE_CELLS positions per document.
    """
    from docx.oxml.ns import qn

    tables = tables if tables is not None else TableCounter()
    cells: list[list[str]] = []
    merged: set[tuple[int, int]] = set()
    down: set[tuple[int, int]] = set()  # continuing a vertical merge from the row above
    header_rows, in_header, width = 0, True, 0
    above: dict[int, object] = {}  # the <w:tc> holding the content at each grid column of the row above
    texts_of: dict[object, str] = {}
    for r, tr in enumerate(_unwrapped(table._tbl, (_W + "tr",))):  # type: ignore[attr-defined]
        roots: list[object] = []
        here: dict[int, object] = {}
        before = tr.grid_before  # empty grid columns the row starts with (row.cells leaves them out too)
        if before > MAX_TABLE_COLUMNS:
            raise _too_big(name, f"有一行超过 {MAX_TABLE_COLUMNS} 列（行首空出 {before:,} 列）")
        texts: list[str] = [""] * before  # kept as blanks: the row's cells stay under their columns
        for tc in _unwrapped(tr, (_W + "tc",)):
            span = tc.grid_span
            if len(roots) + span > MAX_TABLE_COLUMNS:
                raise _too_big(name, f"有一行超过 {MAX_TABLE_COLUMNS} 列（单元格跨 {span:,} 列）")
            # a vertical merge continues the cell at the same grid column in the row above
            root = above.get(before + len(roots), tc) if tc.vMerge == "continue" else tc
            if root not in texts_of:
                texts_of[root] = _cell_text(root, table, tables, name, extras)
            for _ in range(span):
                if roots and roots[-1] is root:  # a horizontal merge
                    merged.add((r, len(texts)))
                elif root is not tc:
                    down.add((r, len(texts)))
                here[before + len(roots)] = root
                texts.append(texts_of[root])
                roots.append(root)
        width = max(width, len(texts))
        if tables.cells + (r + 1) * width > MAX_TABLE_CELLS:
            raise _too_big(name, f"共超过 {MAX_TABLE_CELLS:,} 个单元格")
        cells.append(texts)
        above = here
        tr_pr = tr.trPr
        in_header = in_header and tr_pr is not None and tr_pr.find(qn("w:tblHeader")) is not None
        header_rows += in_header
    tables.cells += len(cells) * width
    return Grid(cells, header_rows or None, "", merged, down)


def docx_lines(data: bytes, name: str, tables: TableCounter | None = None,
               notes: list[str] | None = None, *, outer: Embedded | None = None) -> tuple[list[Line], str]:
    """Paragraphs and tables in body order, a paragraph's text boxes and notes after it; returns the lines and
    the core-properties title. What was read from text boxes and notes is said in `notes` (the upload report)."""
    import docx
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    with check_zip(data, name) as archive:
        check_paragraphs(archive, name)  # every part, before python-docx builds an object per element
    try:
        document = docx.Document(io.BytesIO(word_parts_as_files(data)))
    except Exception as exc:
        reason = xml_limit_reason(exc)  # too deep or too long is not a damaged file
        if reason:
            raise OverBound(name, f"Word 文档{reason}") from exc
        raise IngestError(name, "文件已损坏或不是有效的 Word 文档（.docx）") from exc
    counter = tables if tables is not None else TableCounter()
    numbering = Numbering(document)
    styles = StyleTable(document)  # once: python-docx's paragraph.style scans every style at each read
    extras = Extras(document, name)

    def inner(blob: bytes, reader: Embedded) -> list[Line]:  # a Word file embedded whole: read one level deep
        return docx_lines(blob, name, counter, outer=reader)[0]

    embedded = Embedded(document, name, counter, None if outer else inner,
                        outer.max_lines - outer.lines_given if outer else DOCX_MAX_PARAGRAPHS)
    lines: list[Line] = []
    for block in _docx_blocks(document.element.body, document._body, embedded=True):
        if isinstance(block, Table):
            lines += counter.lines(docx_grid(block, counter, name, extras))
            continue
        if not isinstance(block, Paragraph):
            lines += embedded.lines(block)
            continue
        p = block._p  # type: ignore[attr-defined]
        style = styles.of(p)
        if style.name.lower().startswith("toc"):
            continue  # table-of-contents entries would read as a run of empty headings
        text = _paragraph_text(p)
        if not text.strip() and p.find(f"{_W}pPr/{_W}rPr/{_W}del") is not None:
            continue  # deleted, its mark too, with changes tracked: gone once they are accepted, and its number
        label = numbering.label(p, style)  # numbered empty paragraphs still advance the counter
        lines += _paragraph_lines(label + text if text.strip() else text, _docx_level(p, style))
        lines += [x for extra in extras.texts(p) for x in _paragraph_lines(extra, plain=True)]
    embedded.count_left(document.element.body)
    if outer is not None:  # what a part inside it embeds is said with the outer document's (review 387 #1)
        outer.nested_unread += embedded.unread + embedded.nested_unread
    if notes is not None:
        notes += extras.said() + embedded.said()
    title = (document.core_properties.title or "").strip()
    return lines, title
