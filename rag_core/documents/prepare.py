"""Ingest stage: bytes → parsed → redacted → chunks with identity → tokens.

Pure preparation, no store writes: the facade writes the result only after
every step succeeded, so a refused file changes nothing already indexed.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from ..errors import IngestError
from ..settings import Settings
from ..text.tokenizer import tokenize
from ..types import Chunk, ParsedDocument
from .chunking import chunk_document
from .parsing import parse_bytes, safe_filename
from .redaction import redact

_DOC_ID_BAD = re.compile(r"[^\w\u4e00-\u9fff.-]+")


@dataclass
class PreparedDocument:
    doc_id: str
    parsed: ParsedDocument
    chunks: list[Chunk]  # version and ids filled in by the facade
    tokens: list[list[str]]
    content_hash: str
    redactions: dict[str, int]
    warnings: list[str]


def doc_id_for(filename: str) -> str:
    """A stable id from the file name: same name → same document, next version."""
    stem = safe_filename(filename).rsplit(".", 1)[0]
    return _DOC_ID_BAD.sub("_", stem).strip("_") or "document"


def _strip_title(section: str, title: str) -> str:
    """The title is stored once per chunk; keep the section path below it (第三章 假期 > 第八条)."""
    prefix = f"{title} > "
    if section.startswith(prefix):
        return section[len(prefix) :]
    return "" if section == title else section


def index_text(chunk: Chunk) -> str:
    """What BM25 and the embedder see: the chunk plus its title and section path.

    A chunk in the middle of 第八条 年假 often never repeats "年假"; prefixing the
    path lets both retrievers know what the chunk is about.
    """
    head = " ".join(p for p in (chunk.title, chunk.section) if p)
    return f"{head}\n{chunk.text}" if head else chunk.text


def prepare(
    data: bytes,
    filename: str,
    settings: Settings,
    *,
    doc_id: str | None = None,
    audience: tuple[str, ...] = ("all",),
    redact_disabled: frozenset[str] = frozenset(),
) -> PreparedDocument:
    parsed = parse_bytes(data, filename, max_bytes=settings.max_file_bytes)
    counts: dict[str, int] = {}
    if settings.redact_pii:
        sections = []
        for s in parsed.sections:
            res = redact(s.text, redact_disabled)
            for k, v in res.counts.items():
                counts[k] = counts.get(k, 0) + v
            sections.append(replace(s, text=res.text))
        title = redact(parsed.title, redact_disabled).text
        parsed = replace(parsed, sections=sections, title=title)
    text_chunks = chunk_document(parsed, settings.chunk_size, settings.chunk_overlap)
    if not text_chunks:
        raise IngestError(parsed.source, "文件里没有可以索引的文字")
    doc_id = doc_id or doc_id_for(parsed.source)
    now = datetime.now(UTC).isoformat(timespec="seconds")
    digest = hashlib.sha256(
        ("\x1e".join(c.text for c in text_chunks) + f"|{settings.chunk_size}|{settings.chunk_overlap}").encode("utf-8")
    ).hexdigest()
    chunks = [
        Chunk(
            chunk_id=f"{doc_id}@v0#{i}",
            doc_id=doc_id,
            version=0,
            index=i,
            text=tc.text,
            source=parsed.source,
            title=parsed.title,
            section=_strip_title(tc.section, parsed.title),
            page=tc.page,
            audience=audience,
            content_hash=hashlib.sha256(tc.text.encode("utf-8")).hexdigest(),
            ingested_at=now,
            overlap_chars=tc.overlap_chars,
        )
        for i, tc in enumerate(text_chunks)
    ]
    tokens = [tokenize(index_text(c)) for c in chunks]
    warnings = []
    if len(chunks) <= settings.top_k:
        warnings.append(f"只切出 {len(chunks)} 块，不多于 top_k={settings.top_k}：检索对这份文档几乎等于全文返回")
    return PreparedDocument(doc_id, parsed, chunks, tokens, digest, counts, warnings)


def with_version(chunks: list[Chunk], version: int) -> list[Chunk]:
    return [replace(c, version=version, chunk_id=f"{c.doc_id}@v{version}#{c.index}") for c in chunks]
