"""Bounded ingest work: a per-file chunk cap, a time estimate before a long ingest, and cancelling.

A 19 MB text file once became 205,563 chunks (about four hours of embedding) without a word.
Here a file is refused when it would make more chunks than `Settings.max_chunks_per_file`,
first from a lower bound on the parsed text (every prose chunk holds at most `chunk_size`
characters, a table chunk whole rows, so a text of N non-blank characters, a row counted at most
chunk_size, makes at least N / chunk_size chunks: cut before masking and chunking a huge file),
then from the exact count after chunking.

The estimate is chunks × `Settings.ingest_seconds_per_chunk` (measured end to end: e5 chunk
and sentence vectors plus the second model, see settings.py). A running write checks a
cancel callback between embedding batches and raises `IngestCancelled`; the indexer then
removes the pending version, so a cancelled ingest leaves nothing behind.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from ..errors import IngestError
from ..text.records import parse_record
from ..types import Section
from .chunking import _is_heading_only

Cancel = Callable[[], bool]


class IngestCancelled(IngestError):
    """The person cancelled a running ingest; the pending version was removed, nothing else changed."""

    def __init__(self, filename: str):
        super().__init__(filename, "导入已取消：这个文件没有写入任何内容，已有文档保持不变")


def as_cancel(cancel: Any) -> Cancel | None:
    """A callable from a callable or a `threading.Event` (its `is_set`); None stays None."""
    if cancel is None:
        return None
    is_set = getattr(cancel, "is_set", None)
    return is_set if callable(is_set) else cancel


def check_cancel(cancel: Cancel | None, filename: str) -> None:
    if cancel is not None and cancel():
        raise IngestCancelled(filename)


# How far over the chunk cap a count from the unmasked text must be to refuse before masking: masking shortens text
# (an ID to [身份证号], an address from its road on to [住址]), so near the cap the masked chunks decide (review 260)
PRE_PARSE_MARGIN = 2


def chunk_cap_error(filename: str, count: int, cap: int, seconds_per_chunk: float, *, at_least: bool = False) -> IngestError:
    """The refusal: the count, the cap, how long it would take, and what to do."""
    count_text = f"至少 {count:,} 块" if at_least else f"{count:,} 块"
    return IngestError(
        filename,
        f"文件切分后有{count_text}，超过每个文件 {cap:,} 块的上限"
        f"（向量化要{duration_text(count * seconds_per_chunk)}）。"
        "请把文件按章节拆分后分别上传；确实需要时管理员可以调高 RAG_MAX_CHUNKS_PER_FILE",
    )


def _solid(text: str) -> int:
    return len("".join(text.split()))


def _table_chars(text: str, size: int) -> int:
    """A table section as `chunking.chunk_table` packs it: whole rows, as many as fit or one longer row alone, so a
    row counts at most `size`; the opening (caption, headings) rides in the first chunk and counts nothing."""
    lines = text.split("\n")
    first = next((i for i, line in enumerate(lines) if parse_record(line) is not None), len(lines))
    if first == len(lines):
        return min(_solid(text), size)  # no row: one chunk
    if max(map(len, lines[first:])) <= size:
        return _solid(text) - _solid("\n".join(lines[:first]))
    return sum(min(_solid(line), size) for line in lines[first:])


def min_chunks(sections: Iterable[str | Section], chunk_size: int) -> int:
    """A lower bound on the chunk count: what `chunking.chunk_sections` packs, over the largest chunk.

    A prose chunk holds at most chunk_size characters, a table chunk whole rows (a FAQ's 800-character answers make
    a chunk each, not four), so each chunk holds at most chunk_size of what is counted here: non-blank characters,
    a table row at most chunk_size, a table's opening and the headings glued to it nothing, headings left over at the
    end (one chunk) at most chunk_size. A string counts as prose."""
    size = max(1, chunk_size)
    items = list(sections)
    chars = pending = 0
    for i, item in enumerate(items):
        if isinstance(item, str):
            chars += _solid(item)
        elif not item.text.strip():
            continue
        elif _is_heading_only(item) and i + 1 < len(items):
            pending += _solid(item.text)  # glued to the next section
        else:
            chars += _table_chars(item.text, size) if item.table else pending + _solid(item.text)
            pending = 0
    return math.ceil((chars + min(pending, size)) / size)


def duration_text(seconds: float) -> str:
    """约 40 秒 / 约 3 分钟 / 约 2.5 小时."""
    if seconds < 60:
        return f"约 {max(1, round(seconds))} 秒"
    if seconds < 3600:
        return f"约 {round(seconds / 60)} 分钟"
    return f"约 {seconds / 3600:.1f} 小时"


@dataclass
class IngestEstimate:
    """What ingesting one file would take, computed before any store is written.

    `error` is the Chinese reason when the file would be refused; `unchanged` when it is the
    current version again (nothing to embed). `needs_confirmation`: above the threshold the
    page asks before it starts.
    """

    filename: str
    doc_id: str = ""
    chunk_count: int = 0
    seconds: float = 0.0
    unchanged: bool = False
    needs_confirmation: bool = False
    error: str | None = None
    ocr_pages: int = 0  # scanned pages (or an image) the ingest will recognise: counted, not read, by the estimate
    ocr_skipped: str = ""  # the scanned pages past the OCR cap, named (they will not be read)
    readers_change: str = ""  # the version would reach other readers than the one it replaces: asked before it does

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def duration(self) -> str:
        return "无需重新向量化" if self.unchanged else duration_text(self.seconds)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self) | {"ok": self.ok, "duration": self.duration}


@dataclass
class ReindexReport:
    """What 重新索引 did: chunks written, versions cut again, and each version it could not cut (in Chinese)."""

    chunks: int = 0
    documents: int = 0
    failed: list[str] = field(default_factory=list)
