"""Ingest stage: bytes → parsed → redacted → chunks with identity → tokens.

Pure preparation, no store writes: the facade writes the result only after
every step succeeded, so a refused file changes nothing already indexed.

Redaction is one pass over everything a document contributes to stored or shown
text: the file name first (so the display name, the doc id and every chunk id are
derived from the masked name), then body, headings and section paths, and the
title. Citation markers and chat-template tokens copied into a policy are
neutralised in the same pass: only the engine writes [资料N].
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date
from itertools import groupby

from ..errors import IngestError
from ..settings import Settings
from ..text.instructions import instruction_sentences
from ..text.markers import neutralise_markers
from ..text.pii import REDACTION_CATEGORIES
from ..text.records import parse_record
from ..text.tokenizer import tokenize
from ..types import Chunk, DocumentInfo, ParsedDocument, ReadingReport, Section
from .audience_names import audience_names
from .bounds import PRE_PARSE_MARGIN, chunk_cap_error, min_chunks
from .catalog import utc_stamp
from .chunking import TextChunk, chunk_document, rejoin
from .cut_record import cut_digest
from .doc_ids import check_identity, check_twin, doc_id_for, given_doc_id, shown_text
from .formats import Line
from .name_keys import NameKeys
from .parsing import MAX_NAME_CHARS, parse_bytes, safe_filename
from .reading import attach_captions
from .redaction import redact, redact_filename, redact_text
from .tables import masking_cells
from .text_bound import text_min_chunks


@dataclass
class PreparedDocument:
    doc_id: str
    parsed: ParsedDocument
    chunks: list[Chunk]  # version and ids filled in by the facade
    tokens: list[list[str]]
    content_hash: str
    redactions: dict[str, int]
    warnings: list[str]
    name_key: str = ""  # keyed hash of the original file name (`NameKeys`), never the name itself


def effective_day(text: str | None, filename: str) -> str | None:
    """生效日期 as stored and compared (as text): YYYY-MM-DD, or None for "at once".

    `date.fromisoformat` also takes 20261204 and 2026-W49-5; stored as typed they compared wrongly with ISO dates.
    The typed text is echoed masked: the refusal reaches the page and the CLI."""
    if text is None or not str(text).strip():
        return None
    try:
        return date.fromisoformat(str(text).strip()).isoformat()
    except ValueError as exc:
        typed = redact_text(_echoed(str(text)))
        raise IngestError(filename, f"生效日期 {typed!r} 无法识别，请按 YYYY-MM-DD 填写，例如 2026-12-04") from exc


ECHOED_CHARS = 40  # of a typed value a refusal repeats: enough to recognise it, never a runaway input's whole
ECHOED_NAMES = 5  # unknown category names a refusal repeats


def _echoed(typed: str) -> str:
    return typed if len(typed) <= ECHOED_CHARS else typed[:ECHOED_CHARS] + "…"


def audience_change(new: tuple[str, ...], old: DocumentInfo, day: str | None, *, asking: bool = False) -> list[str]:
    """A warning when a new version leaves out readers of the version it replaces, reaches readers it did not, or
    both (`day`: when it takes effect): a managers-only policy uploaded again for everyone by mistake was served to
    all staff without a word, and HR → 管理者 was said only as "narrower". `asking`: said before the write, as the
    question the documents page asks (nothing is written yet, so nothing to undo)."""
    when = f"自 {day} 起" if day else ("导入后" if asking else "现在起")
    replaces = "将取代的" if asking else "取代的"
    names = f"这一版的可见范围（{audience_names(new)}）比它{replaces} v{old.version}（{audience_names(old.audience)}）"
    fewer = "all" not in new and not set(old.audience) <= set(new)
    more = "all" not in old.audience and not set(new) <= set(old.audience)
    undo = "请确认可见范围无误后再导入" if asking else "如非本意，请立即按原来的可见范围重新上传"
    if fewer and more:
        return [f"注意：{names.replace('比它', '与它')}不同，{when}原来的部分受众将查不到这份制度，新增的受众能查到它；{undo}"]
    if fewer:
        return [f"注意：{names}窄，{when}其余受众将查不到这份制度；{undo}"]
    if more:
        return [f"注意：{names}宽，{when}新增的受众也能查到这份制度；{undo}"]
    return []


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
    sources_of: Callable[[str], Iterable[str]] | None = None,
    hidden_of: Callable[[str], Iterable[str]] | None = None,
    name_keys: NameKeys | None = None,
    doc_ids: Callable[[], Iterable[str]] | None = None,
) -> PreparedDocument:
    """Parse, mask and chunk one file. With `sources_of` (doc id → its files' names) and no
    explicit `doc_id`, a different file name that maps onto an existing document is refused;
    `name_keys` also refuses a different file whose name became equal only by masking or cutting,
    `doc_ids` (the stored ids) one whose id differs from a stored one only in case or width; that last check is
    also made for an explicit `doc_id` that names no stored document (`check_twin`)."""
    counts: dict[str, int] = {}
    if unknown := sorted(set(redact_disabled) - set(REDACTION_CATEGORIES)):  # typed: echoed masked
        typed = "、".join(redact_text(_echoed(str(name))) for name in unknown[:ECHOED_NAMES])
        raise IngestError(filename, f"不认识的脱敏类别：{typed}；可以保留的类别：{'、'.join(REDACTION_CATEGORIES)}")

    def masked(text: str) -> str:
        if not settings.redact_pii:
            return text
        res = redact(text, redact_disabled)
        for k, v in res.counts.items():
            counts[k] = counts.get(k, 0) + v
        return res.text

    originals: list[str] = []  # the clean name before masking and the cut: only its keyed hash is kept

    def masked_name(name: str) -> str:  # before the name is cut to length (`safe_filename`)
        originals.append(name)
        if not settings.redact_pii:
            return name
        name, found = redact_filename(name, redact_disabled)
        counts.update({k: counts.get(k, 0) + v for k, v in found.items() if v})
        return name

    filename = safe_filename(filename, masked_name)
    name_key = name_keys.key(originals[0]) if name_keys is not None and originals else ""
    if doc_id and len(doc_id.strip()) > MAX_NAME_CHARS:  # it is shown, stored in every chunk id and typed again
        raise IngestError(safe_filename(filename), f"文档ID 太长（{len(doc_id.strip()):,} 个字符），最多 {MAX_NAME_CHARS} 个字符，"
                          "请换一个短一些的文档ID，或留空按文件名识别")
    cap = settings.max_chunks_per_file
    if len(data) <= settings.max_file_bytes and \
            (least := text_min_chunks(data, filename, settings.chunk_size, cap)) > cap * PRE_PARSE_MARGIN:
        # from the decoded text, before a record is built: 780,000 CSV rows were parsed for 55 s to be refused. Only
        # far over the cap: masking (an address from its road on) shortens text this count cannot see
        raise chunk_cap_error(safe_filename(filename), least, cap, settings.ingest_seconds_per_chunk, at_least=True)
    with masking_cells(cell_mask(settings.redact_pii, redact_disabled)) as in_cells:  # a form's labels beside values
        parsed = _parsed(data, filename, settings)
    counts.update({k: counts.get(k, 0) + v for k, v in in_cells.items() if v})
    _mask_reading(parsed.reading, settings, redact_disabled)
    if (least := min_chunks(parsed.sections, settings.chunk_size)) > cap * PRE_PARSE_MARGIN:
        # before masking and chunking: a 19 MB text would cost seconds more just to count
        raise chunk_cap_error(parsed.source, least, cap, settings.ingest_seconds_per_chunk, at_least=True)
    sections = [
        replace(s, text=neutralise_markers(masked(s.text)), path=neutralise_markers(_quiet(shown_text(s.path), settings, redact_disabled)))
        for s in parsed.sections
    ]
    title = neutralise_markers(_quiet(shown_text(parsed.title), settings, redact_disabled))  # cleaned, then masked
    parsed = replace(parsed, sections=sections, title=title)
    text_chunks = _text_chunks(parsed, settings)
    doc_id = given_doc_id(doc_id)
    if doc_id:  # a new version of the document it names; a new id only when it is no stored one's twin
        typed = shown_text(doc_id).strip()
        doc_id = masked(typed).strip() or "document"  # masked as stored: no hidden mark splits a number
        # two ids masked alike (two phone numbers) would be one document: the second replaced it (review 349); an
        # id stored before names its own document (是新版本 on an older store's 热线_010_12345678: review 352)
        if doc_id != typed and not (doc_ids is not None and typed in set(doc_ids())):
            raise IngestError(parsed.source, f"文档ID不能含手机号、邮箱、证件号、银行卡号或住址：{_echoed(doc_id)}。"
                                             "请换一个文档ID（例如制度名称），未写入任何内容")
        doc_id = typed if doc_id != typed else doc_id
        if sources_of is not None:
            check_twin(doc_id, parsed.source, sources_of, hidden_of, doc_ids, typed=True)
    else:
        # masked again once derived: 热线 010（12345678） passes as a name, but its id 热线_010_12345678 is a number;
        # one an older store (or an upload with 座机号 left unmasked) keeps unmasked is still that document (review 354)
        derived = doc_id_for(parsed.source)
        doc_id = derived if doc_ids is not None and derived in set(doc_ids()) else masked(derived)  # nothing counted
        if sources_of is not None:
            check_identity(doc_id, parsed.source, sources_of, hidden_of, name_key, name_keys.of if name_keys else None,
                           doc_ids)
    return replace(_prepared(parsed, text_chunks, doc_id, audience, settings, counts), name_key=name_key)


def cell_mask(on: bool, disabled: frozenset[str]) -> Callable[[str], tuple[str, dict[str, int]]]:
    """How a table cell is masked beside its label (`tables.masking_cells`): as the file's text is, or not at all."""
    def mask(text: str) -> tuple[str, dict[str, int]]:
        if not on:
            return text, {}
        found = redact(text, disabled)
        return found.text, found.counts
    return mask


def _parsed(data: bytes, filename: str, settings: Settings) -> ParsedDocument:
    """`parse_bytes` with its refusal masked: a reason may quote the file's own words (a sheet or part name,
    张三13812345678), and it is shown on the page, in the estimate, the CLI and the audit log."""
    try:
        return parse_bytes(data, filename, max_bytes=settings.max_file_bytes)
    except IngestError as exc:
        reason = redact_text(exc.reason)
        if reason == exc.reason:
            raise
        raise IngestError(exc.filename, reason) from None  # the unmasked one is not kept as the cause


def rechunk(chunks: Sequence[Chunk], settings: Settings) -> PreparedDocument:
    """A stored version cut again with the current chunk size and overlap (the settings page's 重新索引).

    Its title, file name and section paths are kept, and its text is not masked again: it was masked at
    upload, with the categories the uploader chose to keep. Rebuilding from the text alone (saved as a .txt)
    lost the title and the chapters and masked a number kept on purpose."""
    first = chunks[0]
    sections: list[Section] = []
    for (path, page), run in groupby(chunks, key=lambda c: (c.section, c.page)):
        sections += _restored(rejoin(list(run)), path, page)
    parsed = ParsedDocument(source=first.source, title=first.title, sections=sections)
    return _prepared(parsed, _text_chunks(parsed, settings), first.doc_id, first.audience, settings, {})


def _restored(text: str, path: str, page: int | None) -> list[Section]:
    """A stored section's text split back into prose and tables (two or more record lines, with the caption
    line before them, as the parsers mark them), so that cutting it again keeps whole rows together."""
    raws, lines, table, i = text.split("\n"), [], 0, 0
    while i < len(raws):
        if parse_record(raws[i]) is not None and i + 1 < len(raws) and parse_record(raws[i + 1]) is not None:
            table += 1
            while i < len(raws) and parse_record(raws[i]) is not None:
                lines.append(Line(raws[i], None, page, True, table))
                i += 1
            continue
        lines.append(Line(raws[i], None, page))
        i += 1
    return [Section(text=body, path=path, page=page, table=key is not None)
            for key, run in groupby(attach_captions(lines), key=lambda line: line.table)
            if (body := "\n".join(line.text for line in run)).strip()]


def _text_chunks(parsed: ParsedDocument, settings: Settings) -> list[TextChunk]:
    text_chunks = chunk_document(parsed, settings.chunk_size, settings.chunk_overlap)
    if not text_chunks:
        raise IngestError(parsed.source, "文件里没有可以索引的文字")
    if len(text_chunks) > settings.max_chunks_per_file:  # before tokenising: jieba is the slow part of preparing
        raise chunk_cap_error(parsed.source, len(text_chunks), settings.max_chunks_per_file, settings.ingest_seconds_per_chunk)
    return text_chunks


def _prepared(parsed: ParsedDocument, text_chunks: list[TextChunk], doc_id: str, audience: tuple[str, ...],
              settings: Settings, counts: dict[str, int]) -> PreparedDocument:
    now = utc_stamp()
    digest = cut_digest((c.text for c in text_chunks), settings.chunk_size, settings.chunk_overlap)
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
        warnings.append(
            f"这份文档很短，只分成 {len(chunks)} 段，而每次提问最多取 {settings.top_k} 段：问到它时几乎会整篇作为依据"
        )
    # kept in the text, never quoted or prompted (text.instructions, answer.prompt: body, each heading of a section
    # path, the file name alike); HR should look at the file
    orders = list(dict.fromkeys(s for c in chunks for part in (c.text, *c.section.split(" > "))
                                for s in instruction_sentences(part)))
    if orders:
        shown = "；".join(f"“{shown_text(s)[:40]}”" for s in orders[:3])
        warnings.append(f"文档里有 {len(orders)} 句话像是对问答助手下的指令，不是制度条文，"
                        f"不会发给问答模型，也不会被引用：{shown}。请核对原文件")
    if instruction_sentences(parsed.source):
        warnings.append(f"文件名“{shown_text(parsed.source)[:40]}”像是对问答助手下的指令：提问时不会把文件名发给问答模型，"
                        "回答里标注出处时也不会显示它。请改用说明文档内容的文件名后重新上传")
    return PreparedDocument(doc_id, parsed, chunks, tokens, digest, counts, warnings)


def _mask_reading(reading: ReadingReport, settings: Settings, disabled: frozenset[str]) -> None:
    """The upload report quotes the file's own words (sheet names, a dropped page header): masked like the body."""
    for words in (reading.sheets, reading.hidden_sheets, reading.furniture, reading.notes):
        words[:] = [_quiet(text, settings, disabled) for text in words]


def _quiet(text: str, settings: Settings, disabled: frozenset[str]) -> str:
    """Masked without counting: headings and the title repeat text the body already counted."""
    return redact(text, disabled).text if settings.redact_pii and text else text


def with_version(chunks: list[Chunk], version: int) -> list[Chunk]:
    return [replace(c, version=version, chunk_id=f"{c.doc_id}@v{version}#{c.index}") for c in chunks]
