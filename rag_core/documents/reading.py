"""What every format shares after extraction: table captions, image uploads by OCR,
and the plain-words account of how a file was read (the upload report's notes).

OCR is slow (a page takes seconds), so the estimate before an upload does not run it: within `deferring_ocr()`
the pages (or the image) OCR would read are counted in an `OcrPlan` and stand in as one `DEFERRED_LINE` each; the
confirmed ingest reads them, with its progress bar and 取消导入.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from ..errors import IngestError
from ..types import OcrPage, ReadingReport
from .formats import Line, TableCounter
from .ocr import OCR_MIN_CONFIDENCE, recognize, report_page

_log = logging.getLogger(__name__)
# a refusal says what HR can do in Chinese; the library's class name (UnidentifiedImageError) is no help there
UNREADABLE_IMAGE = "图片无法打开，可能已损坏、不是完整的图片或尺寸过大；请重新导出为 PNG 或 JPEG 后再上传"

# Seconds one scanned page adds to an upload, for the estimate: 8.7 s of recognition per A4 page on 2 shared
# cores (bench/bench_ocr.py, docs/documents.md; 15-22 s measured at load 24, about 5 s for a one-line strip), and
# its text's chunks (an A4 page of policy text is about 870 characters: 3-4 chunks of 240) at ingest_seconds_per_chunk
OCR_SECONDS_PER_PAGE = 9.0
OCR_CHUNKS_PER_PAGE = 3
DEFERRED_LINE = "（扫描页：导入时 OCR 识别）"


@dataclass
class OcrPlan:
    """What OCR an upload will need: the pages (1-based; an image is page 1) it will read; `skipped` says which
    scanned pages are past the cap (they will not be read)."""

    pages: list[int] = field(default_factory=list)
    skipped: str = ""


_plan: ContextVar[OcrPlan | None] = ContextVar("ocr_plan", default=None)


@contextmanager
def deferring_ocr() -> Iterator[OcrPlan]:
    """Within this block nothing is OCR'd: the pages it would read are counted in the plan yielded."""
    plan = OcrPlan()
    token = _plan.set(plan)
    try:
        yield plan
    finally:
        _plan.reset(token)


def deferred_plan() -> OcrPlan | None:
    """The plan of the `deferring_ocr` block we are in, or None (OCR runs)."""
    return _plan.get()


_CAPTION = re.compile(r"^(?:附?表\s*[0-9０-９一二三四五六七八九十]+|.{2,50}[：:]$|.{0,40}(?:标准|一览表|明细|对照表)$)")
_SENTENCE_END = re.compile(r"[。！？；!?;]")
_LEGAL = re.compile(r"^第\s*[0-9０-９〇零一二三四五六七八九十百千两]+\s*[章节条]")


def _is_caption(line: Line) -> bool:
    text = line.text.strip()
    return bool(text) and line.level is None and line.table is None and len(text) <= 50 and (
        bool(_CAPTION.match(text)) and not _SENTENCE_END.search(text[:-1]) and not _LEGAL.match(text)
    )


def attach_captions(lines: list[Line]) -> list[Line]:
    """A short line right before a table ("各城市住宿标准如下：", "表 2 薪资等级") becomes its caption."""
    out = list(lines)
    seen: set[int] = set()
    for i, line in enumerate(out):
        if line.table is None or line.table in seen:
            continue
        seen.add(line.table)
        j = i - 1
        while j >= 0 and not out[j].text.strip() and out[j].table is None:
            j -= 1
        if j >= 0 and _is_caption(out[j]) and out[j].page == line.page:
            out[j] = out[j]._replace(table=line.table, plain=True)
            for k in range(j + 1, i):  # blank lines between the caption and its table join the table too
                out[k] = out[k]._replace(table=line.table)
    return out


def image_lines(data: bytes, name: str, reading: ReadingReport) -> list[Line]:
    """A .png/.jpg upload read by OCR as page 1; refused when the text is not read reliably."""
    from PIL import UnidentifiedImageError

    from .ocr import ImageRefused, open_image

    try:
        image = open_image(data)
    except ImageRefused as exc:  # too many pixels, several frames: the reason, in Chinese
        raise IngestError(name, str(exc)) from exc
    except UnidentifiedImageError as exc:  # a GIF, TIFF or BMP under a .png/.jpg name, or a cut PNG/JPEG
        if not data.startswith((b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff")):
            raise IngestError(name, "不是 PNG 或 JPEG 图片，请另存为 PNG 或 JPEG 后再上传") from exc
        raise IngestError(name, UNREADABLE_IMAGE) from exc
    except Exception as exc:  # truncated, or a decompression bomb: the library's name for it goes to the log only
        _log.info("image not opened: %s", type(exc).__name__)
        raise IngestError(name, UNREADABLE_IMAGE) from exc
    if (plan := deferred_plan()) is not None:  # the estimate: the ingest reads it
        plan.pages.append(1)
        return [Line(DEFERRED_LINE, None, None)]
    found = recognize(image)
    report_page(1, 1)
    reading.ocr_pages.append(OcrPage(1, round(found.confidence, 3), found.chars, found.usable, round(found.seconds, 2)))
    if note := found.dropped_note(1):  # lines read too unsure to index: named so HR checks the original
        reading.notes.append(note)
    if not found.chars:
        raise IngestError(name, "图片中没有识别出文字")
    if not found.usable:
        raise IngestError(
            name, f"图片 OCR 识别置信度 {found.confidence:.2f} 低于 {OCR_MIN_CONFIDENCE:.2f}，结果不可靠，未编入索引；"
            "请提供更清晰的图片或文字版",
        )
    return [Line(text, None, None) for text in found.lines]


def describe(reading: ReadingReport, tables: TableCounter) -> None:
    """Fill the counts and the notes the upload report shows."""
    reading.tables, reading.table_rows = tables.tables, tables.rows
    notes: list[str] = []
    if tables.tables:
        notes.append(f"识别出 {tables.tables} 个表格（{tables.rows} 行），每行连同表头编入索引")
    if reading.hidden_sheets:
        notes.append(f"已跳过隐藏工作表：{'、'.join(reading.hidden_sheets)}")
    done = [p for p in reading.ocr_pages if p.indexed]
    flagged = [p for p in reading.ocr_pages if not p.indexed]
    if done:
        pages = "、".join(f"第 {p.page} 页（置信度 {p.confidence:.2f}）" for p in done)
        notes.append(f"扫描页已用 OCR 识别：{pages}")
    if flagged:
        pages = "、".join(
            f"第 {p.page} 页（置信度 {p.confidence:.2f}）" if p.chars else f"第 {p.page} 页（未识别出文字）" for p in flagged
        )
        notes.append(f"以下扫描页识别不可靠，未编入索引，请核对原件：{pages}")
    if reading.furniture_removed:
        shown = "、".join(f"「{x}」" for x in reading.furniture[:3])
        notes.append(f"已去掉每页重复的页眉、页脚和页码 {reading.furniture_removed} 行（如 {shown}）")
    reading.notes[:0] = notes
