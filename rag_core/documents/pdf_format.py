"""PDF extraction: text per page (pypdf), tables as records (pdfplumber), scanned pages by OCR,
running headers, footers and page numbers dropped (`furniture`).

pypdf reads the text layer and carries the safety checks (encryption, decompression
bombs); pdfplumber is asked only where a page has ruled tables, so their cells come
out as rows with headers instead of a run of loose words; a scanned page is rendered (pypdfium2) and read by OCR.

A page is a scan when its text layer is (nearly) empty, or when pictures cover a good part of it and its text layer
is short: a scan on which a PDF tool stamped a typed line (公司内部资料 请勿外传, 第 3 页) was never read. Such a
page keeps the typed lines OCR did not read; when OCR cannot read its pictures, its text layer is indexed as before.
Within `reading.deferring_ocr()` (the estimate) the scanned pages are only counted.
"""

from __future__ import annotations

import io
import re
from difflib import SequenceMatcher
from typing import Any

from ..errors import IngestError
from ..types import OcrPage, ReadingReport
from .formats import Line, TableCounter, normalize_text
from .furniture import remove_furniture
from .ocr import OCR_MIN_CONFIDENCE, RENDER_DPI, recognize, report_page
from .pdf_budget import TABLE_PAGE_CONTENT, page_budget, table_pass_pages
from .reading import DEFERRED_LINE, deferred_plan
from .tables import Grid

OCR_REASON = "PDF 没有可提取的文字层（可能是扫描件或纯图片），OCR 也没有识别出文字（空白页或图像过于模糊）"
MIN_TEXT_CHARS = 10  # a page with less text than this is treated as a scan and read by OCR
# Each scanned page is rendered and read by OCR (about 1.3 s), also in the estimate before the person confirms:
# 3000 blank pages (376 KB) would have taken over an hour. Pages past the OCR cap are reported, not read.
MAX_PDF_PAGES = 500  # a long handbook is 200; at 240-character chunks 500 dense pages are past the chunk cap anyway
MAX_OCR_PAGES = 50  # scanned pages read by OCR per file: about a minute
# A page with at least MIN_TEXT_CHARS but fewer than SCAN_TEXT_CHARS non-blank characters in its text layer is a scan
# when images cover SCAN_IMAGE_SHARE of it. Measured: a scan is a full-page image (1.0), a pasted strip of one 23%;
# a logo, a seal or a signature covers 1-5%; the typed pages measured (two manuals, 53 pages) hold 185 characters or
# more and no image. A typed page with a large picture and a short caption is OCR'd too, keeping its typed lines.
SCAN_TEXT_CHARS = 100
SCAN_IMAGE_SHARE = 0.15
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


def _image_shares(data: bytes, wanted: list[int]) -> dict[int, float]:
    """The share of each 0-based `wanted` page its images cover (pypdfium2: placed bounds, clipped to the page,
    forms included); {} when the file cannot be opened so (its text layer is read as before)."""
    import pypdfium2
    import pypdfium2.raw as pdfium_c

    out: dict[int, float] = {}
    try:
        pdf = pypdfium2.PdfDocument(data)
    except Exception:
        return out
    try:
        for i in wanted:
            page = pdf[i]
            try:
                width, height = page.get_size()
                covered = 0.0
                for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE]):
                    left, bottom, right, top = obj.get_bounds()
                    covered += max(0.0, min(right, width) - max(left, 0.0)) * max(0.0, min(top, height) - max(bottom, 0.0))
                out[i] = min(1.0, covered / max(1.0, width * height))
            finally:
                page.close()
    except Exception:  # a page pdfium cannot read: its text layer stands
        pass
    finally:
        pdf.close()
    return out


def _scanned_pages(data: bytes, texts: list[str]) -> list[int]:
    """0-based pages to read by OCR: no text layer to speak of, or mostly pictures with a short text layer."""
    solid = ["".join(text.split()) for text in texts]
    short = [i for i, text in enumerate(texts) if len(text.strip()) >= MIN_TEXT_CHARS and len(solid[i]) < SCAN_TEXT_CHARS]
    shares = _image_shares(data, short) if short else {}
    return [i for i, text in enumerate(texts)
            if len(text.strip()) < MIN_TEXT_CHARS or shares.get(i, 0.0) >= SCAN_IMAGE_SHARE]


def _with_typed(read: list[str], typed: list[str]) -> list[str]:
    """A scanned page's OCR lines, then its typed lines OCR did not read (it reads the rendered ones too)."""
    flat = ["".join(line.split()) for line in read]
    seen = "".join(flat)
    extra = [line for line in typed if (solid := "".join(line.split())) and solid not in seen
             and not any(SequenceMatcher(None, solid, other).ratio() >= 0.8 for other in flat)]
    return read + extra


def _typed_kept(reading: ReadingReport, mixed: set[int]) -> None:
    """A page with typed lines whose pictures OCR could not read reliably keeps its text layer: said so, not
    listed among the scanned pages left out of the index."""
    kept = [p for p in reading.ocr_pages if p.page - 1 in mixed and not p.indexed]
    if not kept:
        return
    reading.ocr_pages[:] = [p for p in reading.ocr_pages if p not in kept]
    shown = "、".join(f"第 {p.page} 页（置信度 {p.confidence:.2f}）" if p.chars else f"第 {p.page} 页（未识别出文字）" for p in kept)
    reading.notes.append(f"以下页面主要是图片，图片中的文字 OCR 识别不可靠，未编入索引，只编入了页面上的文字层，请核对原件：{shown}")


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
            if note := found.dropped_note(i + 1):  # lines read too unsure to index: named so HR checks the original
                reading.notes.append(note)
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
    scanned = _scanned_pages(data, texts)
    wanted, skipped = scanned[:MAX_OCR_PAGES], scanned[MAX_OCR_PAGES:]
    plan = deferred_plan()
    if plan is not None:  # the estimate: counted, read by the ingest
        plan.pages += [i + 1 for i in wanted]
        read: dict[int, list[str]] = {}
    else:
        read = _ocr_pages(data, wanted, name, reading) if wanted else {}
        _typed_kept(reading, {i for i in wanted if len(texts[i].strip()) >= MIN_TEXT_CHARS} - read.keys())
    if skipped:
        reading.notes.append(
            f"扫描页超过每个文件 OCR {MAX_OCR_PAGES} 页的上限，以下 {len(skipped)} 页没有识别，未编入索引："
            f"{_page_ranges(skipped)}；请把这些页拆成单独的文件上传"
        )
        if plan is not None:
            plan.skipped = f"另有 {len(skipped)} 页扫描页（{_page_ranges(skipped)}）超过每个文件 OCR {MAX_OCR_PAGES} 页的上限，不会识别"
    allowed, skipped_tables = table_pass_pages(
        sizes, {i for i in ruled if len(texts[i].strip()) >= MIN_TEXT_CHARS and i not in set(wanted)})
    if crowded := [i for i in skipped_tables if sizes[i] > TABLE_PAGE_CONTENT]:
        reading.notes.append(f"{_page_ranges(crowded)}的图形或文字过多，没有识别其中的表格，按普通文字编入索引")
    if spent := [i for i in skipped_tables if sizes[i] <= TABLE_PAGE_CONTENT]:
        reading.notes.append(f"表格识别的总量已用完，{_page_ranges(spent)}没有识别其中的表格，按普通文字编入索引；"
                             "需要时请把这些页拆成单独的文件上传")
    with_tables = _table_pages(data, texts, allowed)
    pages: list[list[Item]] = []
    for i, text in enumerate(texts):
        pages.append(with_tables.get(i) or (_with_typed(read[i], text.split("\n")) if i in read else text.split("\n")))
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
    deferred = set(plan.pages) if plan is not None else set()
    for number, items in enumerate(kept, start=1):
        lines += [Line(DEFERRED_LINE, None, number)] if number in deferred else []  # after furniture: one a page
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
