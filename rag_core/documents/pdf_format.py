"""PDF extraction: text per page (pypdf), tables as records (pdfplumber), scanned pages by OCR,
running headers, footers and page numbers dropped (`furniture`).

pypdf reads the text layer and carries the safety checks (encryption, decompression
bombs); pdfplumber is asked only where a page has ruled tables, so their cells come
out as rows with headers instead of a run of loose words; a page without a text layer
is rendered (pypdfium2) and read by OCR.
"""

from __future__ import annotations

import io
import re
from typing import Any

from ..errors import IngestError
from ..types import OcrPage, ReadingReport
from .formats import Line, TableCounter, normalize_text
from .furniture import remove_furniture
from .ocr import OCR_MIN_CONFIDENCE, RENDER_DPI, recognize, report_page
from .pdf_budget import TABLE_PAGE_CONTENT, page_budget, table_pass_pages
from .tables import Grid

OCR_REASON = "PDF 没有可提取的文字层（可能是扫描件或纯图片），OCR 也没有识别出文字（空白页或图像过于模糊）"
MIN_TEXT_CHARS = 10  # a page with less text than this is treated as a scan and read by OCR
# Each scanned page is rendered and read by OCR (about 1.3 s), also in the estimate before the person confirms:
# 3000 blank pages (376 KB) would have taken over an hour. Pages past the OCR cap are reported, not read.
MAX_PDF_PAGES = 500  # a long handbook is 200; at 240-character chunks 500 dense pages are past the chunk cap anyway
MAX_OCR_PAGES = 50  # scanned pages read by OCR per file: about a minute
MAX_RENDER_SIDE = 4000  # pixels; a page with a huge media box is rendered smaller (OCR scales to 1400 anyway)
Item = str | Grid


def _open(data: bytes, name: str) -> Any:
    from pypdf import PdfReader

    if b"%PDF-" not in data[:1024]:
        raise IngestError(name, "文件已损坏或不是有效的 PDF（缺少 PDF 文件头，可能只是改了扩展名）")
    try:
        reader = PdfReader(io.BytesIO(data))
        encrypted = reader.is_encrypted
    except Exception as exc:
        raise IngestError(name, "PDF 文件已损坏，无法读取") from exc
    if encrypted:
        try:
            opened = bool(reader.decrypt(""))  # owner-password-only files open with an empty password
        except Exception:  # e.g. AES without a crypto backend, or a broken encryption dictionary
            opened = False
        if not opened:
            raise IngestError(name, "PDF 已加密（需要密码才能打开），请先移除密码后再上传")
    return reader


def _page_texts(reader: Any, name: str) -> tuple[list[str], list[int], set[int]]:
    """Each page's text and decompressed content size, and the pages that draw lines or rectangles; every page is
    sized (`pdf_budget`) before any is read."""
    try:
        pages = list(reader.pages)
    except Exception as exc:
        raise IngestError(name, "PDF 文件已损坏，无法读取页面") from exc
    if not pages:
        raise IngestError(name, "PDF 没有任何页面")
    if len(pages) > MAX_PDF_PAGES:
        raise IngestError(name, f"PDF 有 {len(pages):,} 页，超过每个文件 {MAX_PDF_PAGES} 页的上限，请按章节拆分后分别上传")
    sizes, ruled = page_budget(pages, name)
    texts = []
    for number, page in enumerate(pages, start=1):
        try:
            texts.append(normalize_text(page.extract_text() or ""))
        except Exception as exc:
            raise IngestError(name, f"PDF 第 {number} 页无法读取，文件可能已损坏") from exc
    return texts, sizes, ruled


def _plumber_grid(table: Any) -> Grid:
    """pdfplumber leaves None where a merged cell continues: from the left in a row, else from above."""
    rows = [list(r) for r in table.extract()]
    merged: set[tuple[int, int]] = set()
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if cell is None:
                if c and row[c - 1] is not None:
                    row[c] = row[c - 1]
                    merged.add((r, c))
                else:
                    row[c] = rows[r - 1][c] if r else ""
    return Grid(rows, None, "", merged)


def _with_tables(page: Any) -> list[Item] | None:
    """A page's lines and tables top to bottom, or None when it has no ruled table."""
    found = page.find_tables()
    if not found:
        return None
    boxes = [t.bbox for t in found]

    def outside(obj: dict) -> bool:
        x, y = (obj["x0"] + obj["x1"]) / 2, (obj["top"] + obj["bottom"]) / 2
        return not any(x0 <= x <= x1 and top <= y <= bottom for x0, top, x1, bottom in boxes)

    rest = page.filter(lambda obj: obj.get("object_type") != "char" or outside(obj))
    placed: list[tuple[float, Item]] = [(line["top"], line["text"]) for line in rest.extract_text_lines()]
    placed += [(t.bbox[1], _plumber_grid(t)) for t in found]
    placed.sort(key=lambda pair: pair[0])
    return [item for _, item in placed]


def _table_pages(data: bytes, texts: list[str], allowed: set[int]) -> dict[int, list[Item]]:
    """Pages (0-based, among `allowed`) whose ruled tables pdfplumber found; {} when it cannot read the file."""
    import pdfplumber

    out: dict[int, list[Item]] = {}
    try:
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            for i, page in enumerate(pdf.pages[: len(texts)]):
                if i in allowed and len(texts[i].strip()) >= MIN_TEXT_CHARS and (page.lines or page.rects):
                    items = _with_tables(page)
                    if items is not None:
                        out[i] = items
                if i in allowed:
                    page.close()  # its parsed objects: a long file's pages are not all held at once
    except Exception:  # pypdf read it; tables are a bonus, the text layer is enough
        return {}
    return out


def _ocr_pages(data: bytes, wanted: list[int], name: str, reading: ReadingReport) -> dict[int, list[str]]:
    """OCR the 0-based `wanted` pages; usable ones return their lines, every one is reported."""
    import pypdfium2

    try:
        pdf = pypdfium2.PdfDocument(data)
    except Exception as exc:
        raise IngestError(name, "PDF 有扫描页，但无法渲染成图像进行 OCR，文件可能已损坏") from exc
    out: dict[int, list[str]] = {}
    try:
        for done, i in enumerate(wanted, start=1):
            page = pdf[i]
            scale = min(RENDER_DPI / 72, MAX_RENDER_SIDE / max(1.0, *page.get_size()))
            image = page.render(scale=scale).to_pil()
            found = recognize(image)
            reading.ocr_pages.append(OcrPage(i + 1, round(found.confidence, 3), found.chars, found.usable,
                                             round(found.seconds, 2)))
            if found.usable:
                out[i] = found.lines
            report_page(done, len(wanted))
    finally:
        pdf.close()
    return out


def _mark(item: Item, k: int) -> str:
    return item if isinstance(item, str) else "\x00" + chr(0xE000 + k)  # a table: never furniture


def pdf_lines(data: bytes, name: str, reading: ReadingReport, tables: TableCounter) -> tuple[list[Line], str]:
    """Lines per page with 1-based page numbers; returns the lines and the metadata title."""
    reader = _open(data, name)
    texts, sizes, ruled = _page_texts(reader, name)
    scanned = [i for i, text in enumerate(texts) if len(text.strip()) < MIN_TEXT_CHARS]
    skipped = scanned[MAX_OCR_PAGES:]
    read = _ocr_pages(data, scanned[:MAX_OCR_PAGES], name, reading) if scanned else {}
    if skipped:
        reading.notes.append(
            f"扫描页超过每个文件 OCR {MAX_OCR_PAGES} 页的上限，以下 {len(skipped)} 页没有识别，未编入索引："
            f"{_page_ranges(skipped)}；请把这些页拆成单独的文件上传"
        )
    allowed, skipped_tables = table_pass_pages(sizes, {i for i in ruled if len(texts[i].strip()) >= MIN_TEXT_CHARS})
    if crowded := [i for i in skipped_tables if sizes[i] > TABLE_PAGE_CONTENT]:
        reading.notes.append(f"{_page_ranges(crowded)}的图形或文字过多，没有识别其中的表格，按普通文字编入索引")
    if spent := [i for i in skipped_tables if sizes[i] <= TABLE_PAGE_CONTENT]:
        reading.notes.append(f"表格识别的总量已用完，{_page_ranges(spent)}没有识别其中的表格，按普通文字编入索引；"
                             "需要时请把这些页拆成单独的文件上传")
    with_tables = _table_pages(data, texts, allowed)
    pages: list[list[Item]] = []
    for i, text in enumerate(texts):
        pages.append(with_tables.get(i) or read.get(i) or text.split("\n"))
    grids = {}
    marked = []
    for items in pages:
        row = []
        for item in items:
            if isinstance(item, Grid):
                grids[_mark(item, len(grids))] = item
            row.append(_mark(item, len(grids) - 1) if isinstance(item, Grid) else item)
        marked.append(row)
    kept, furniture = remove_furniture(marked)
    reading.furniture_removed, reading.furniture = furniture.removed, furniture.examples
    lines: list[Line] = []
    for number, items in enumerate(kept, start=1):
        for item in items:
            lines += tables.lines(grids[item], number) if item in grids else [Line(item, None, number)]
    if not any(line.text.strip() for line in lines):
        low = [p for p in reading.ocr_pages if p.chars]
        if low:
            shown = "、".join(f"第 {p.page} 页 {p.confidence:.2f}" for p in low[:5])
            raise IngestError(
                name, f"PDF 是扫描件，OCR 识别置信度低于 {OCR_MIN_CONFIDENCE:.2f}（{shown}），结果不可靠，"
                "未编入索引；请提供更清晰的扫描件或文字版",
            )
        more = f"；另有 {len(skipped)} 页扫描页超过 OCR {MAX_OCR_PAGES} 页的上限，没有识别" if skipped else ""
        raise IngestError(name, OCR_REASON + more)
    return lines, _title(reader)


def _page_ranges(pages: list[int]) -> str:
    """0-based page indexes as 1-based runs: 第 51–60、75 页."""
    runs: list[list[int]] = []
    for i in pages:
        if runs and i == runs[-1][1] + 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return "第 " + "、".join(f"{a + 1}" if a == b else f"{a + 1}–{b + 1}" for a, b in runs) + " 页"


def _title(reader: Any) -> str:
    try:
        metadata = reader.metadata
        title = str(metadata.title or "") if metadata is not None else ""
    except Exception:
        title = ""
    title = re.sub(r"^Microsoft (?:Word|PowerPoint) - |\.(?:docx?|pptx?)$", "", title.strip()).strip()
    return "" if title.lower() in ("untitled", "无标题") else title
