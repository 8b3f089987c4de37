"""Sentence-boundary chunking with whole-sentence overlap.

Why: a chunk that starts mid-sentence ("00 元，其他城市……") is noise to both the
retriever and the model. So text is cut into sentence units first (。！？；!?;
newlines, blank lines), units are packed up to `chunk_size` characters, and the
overlap carried into the next chunk is made of whole trailing units only, never
a broken one. Each section (an article 第X条 or a heading) starts a new chunk,
and no overlap crosses a section boundary, so a chunk never opens with the tail
of an unrelated article.

Invariants (tested): every chunk starts at a unit start; removing each chunk's
`overlap_chars` prefix and joining gives back the section text exactly.
A unit longer than `chunk_size` (a paragraph with no punctuation) is split at a
comma if possible, else hard-split (before a number, word or mask the cut would fall inside), so chunk size
stays bounded.

A table section (record lines, see `tables.py`) is cut in whole rows instead:
each chunk is the table's caption — or, without one, its heading — followed by as
many rows as fit, so no chunk holds a row without knowing what table it is in. The
repeated caption counts as overlap, so `rejoin` gives the text back (plus the
newline that ends the last row, so the text after a table starts a line of its own).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..text.digit_runs import number_runs
from ..text.pii import PLACEHOLDERS
from ..text.records import parse_record
from ..types import Chunk, ParsedDocument, Section
from .parsing import states_clause

# A unit ends after sentence punctuation (plus closing quotes/brackets) or a newline run.
_UNIT_END = re.compile(r"[。！？；!?;]+[”’」』）)\]]*|\n+")
_SOFT_BREAK = re.compile(r"[，、,：:]")


@dataclass(frozen=True)
class TextChunk:
    """A chunk before it gets document identity (ids, version, audience)."""

    text: str
    section: str
    page: int | None
    overlap_chars: int


def split_units(text: str) -> list[str]:
    """Split text into sentence units whose concatenation is exactly `text`.

    Whitespace after a sentence end stays with that sentence, so every unit but
    possibly the first begins with a visible character.
    """
    units: list[str] = []
    pos = 0
    search_from = 0
    while (match := _UNIT_END.search(text, search_from)) is not None:
        end = match.end()
        # swallow following spaces/newlines into this unit
        while end < len(text) and text[end] in " \t\u3000\n":
            end += 1
        if end > pos:
            units.append(text[pos:end])
            pos = end
        search_from = max(end, match.end())
    if pos < len(text):
        units.append(text[pos:])
    return units


# A number, amount, code or address: a hard cut inside one (报销上限12|000元) leaves two pieces neither of which
# says it, and a masked value ([手机号]) must not be split either.
_TOKEN = re.compile(r"[0-9A-Za-z０-９Ａ-Ｚａ-ｚ@＠._\-－%％+]+")
_LOOKAHEAD = 64  # how far past the cut a run is read to see that the cut falls inside it


def _hard_cut(unit: str, start: int, limit: int) -> int:
    """Where to cut `unit[start:]` with no soft break in reach: `limit`, or earlier at the start of the number,
    word or mask the cut would fall inside, else after the last space; `limit` when no such place is left."""
    text = unit[start : start + limit + _LOOKAHEAD]
    spans = [*(m.span() for m in _TOKEN.finditer(text)), *(m.span() for m in PLACEHOLDERS.finditer(text)),
             *number_runs(text)]
    inside = [s for s, e in spans if s < limit < e]
    if not inside:
        return limit
    cut = min(inside)
    if cut > 0:
        return cut
    space = max(text.rfind(" ", 0, limit), text.rfind("\u3000", 0, limit))
    return space + 1 if space > 0 else limit


def _bound_unit(unit: str, limit: int) -> list[str]:
    """Split one over-long unit at soft breaks, else every `limit` characters."""
    if len(unit) <= limit:
        return [unit]
    pieces: list[str] = []
    start = 0
    while len(unit) - start > limit:
        window = unit[start : start + limit]
        cut = None
        for m in _SOFT_BREAK.finditer(window):
            if m.end() >= limit // 2:
                cut = m.end()
        if cut is None:
            cut = _hard_cut(unit, start, limit)
        pieces.append(unit[start : start + cut])
        start += cut
    pieces.append(unit[start:])
    return [p for p in pieces if p]


def chunk_units(units: list[str], chunk_size: int, overlap: int) -> list[tuple[str, int]]:
    """Pack units into chunks; returns (text, overlap_chars) pairs."""
    bounded: list[str] = []
    for u in units:
        bounded.extend(_bound_unit(u, chunk_size))
    chunks: list[tuple[str, int]] = []
    buf: list[str] = []
    carried = 0  # how many leading units of buf are overlap
    for unit in bounded:
        size = sum(len(u) for u in buf)
        if buf and size + len(unit) > chunk_size and len(buf) > carried:
            chunks.append(("".join(buf), sum(len(u) for u in buf[:carried])))
            tail: list[str] = []
            n = 0
            for u in reversed(buf):
                if n + len(u) > overlap or len(tail) + 1 >= len(buf):
                    break
                tail.insert(0, u)
                n += len(u)
            # overlap plus the next unit must still fit
            while tail and n + len(unit) > chunk_size:
                n -= len(tail.pop(0))
            buf = tail
            carried = len(tail)
        buf.append(unit)
    if buf and len(buf) > carried:
        chunks.append(("".join(buf), sum(len(u) for u in buf[:carried])))
    return chunks


def _is_heading_only(section: Section) -> bool:
    """One short line without a sentence end that is not an article's clause (第三条 婚假为3天，晚婚不再另加)."""
    text = section.text.strip()
    return "\n" not in text and len(text) <= 40 and not re.search(r"[。！？；!?;]", text) and not states_clause(text)


def _under(heading: str, path: str) -> bool:
    """Is a section at `path` the heading's own (a table after it) or nested under it? Text before any heading is
    the document's opening: everything is under it."""
    return not heading or path == heading or path.startswith(heading + " > ")


def chunk_table(section: Section, lead: str, chunk_size: int) -> list[TextChunk]:
    """Row groups that never split a row; every chunk opens with the caption (or heading) line(s).

    `lead` is the heading glued in front. The first chunk opens with the file's own text
    (lead and caption); a chunk without it gets the caption or heading repeated as overlap.
    """
    lines = section.text.split("\n")
    first_row = next((i for i, line in enumerate(lines) if parse_record(line) is not None), len(lines))
    rows = [line + "\n" for line in lines[first_row:]]  # the last row too: text after a table starts a new line
    opening = lead + section.text[: max(0, len(section.text) + 1 - sum(map(len, rows)))] if rows else lead + section.text
    caption = "\n".join(lines[:first_row]).strip()
    repeat = caption or lead.strip() or section.path.rsplit(" > ", 1)[-1].strip()
    repeat = f"{repeat}\n" if repeat else ""
    groups: list[list[str]] = [[]]
    for row in rows:
        head = opening if len(groups) == 1 and opening.strip() else repeat
        if groups[-1] and len(head) + sum(map(len, groups[-1])) + len(row) > chunk_size:
            groups.append([])
        groups[-1].append(row)
    out = []
    for n, group in enumerate(groups):
        if n == 0 and opening.strip():
            out.append(TextChunk(opening + "".join(group), section.path, section.page, 0))
        else:
            lap = len(repeat) + (len(opening) if n == 0 else 0)
            out.append(TextChunk(repeat + (opening if n == 0 else "") + "".join(group), section.path, section.page, lap))
    return out


def _common(paths: list[str]) -> str:
    """The deepest heading path the sections share ("" when none)."""
    shared: list[str] = []
    for names in zip(*(path.split(" > ") for path in paths)):
        if len(set(names)) > 1:
            break
        shared.append(names[0])
    return " > ".join(shared)


def chunk_sections(sections: list[Section], chunk_size: int, overlap: int) -> list[TextChunk]:
    """Chunk each section separately; heading-only sections are glued to the next one when it is nested under them
    (or is their own table). Those that head nothing after them (a contents list, an article's name with no text)
    are a chunk of their own under the path they share, never cited as the next article."""
    out: list[TextChunk] = []
    pending: list[Section] = []  # heading-only sections waiting for what they head
    for i, section in enumerate(sections):
        text = section.text
        if not text.strip():
            continue
        if _is_heading_only(section) and i + 1 < len(sections):
            pending.append(section)
            continue
        k = len(pending)
        while k and _under(pending[k - 1].path, section.path):
            k -= 1
        if k:
            alone = "".join(s.text.rstrip() + "\n" for s in pending[:k])
            path, page = _common([s.path for s in pending[:k]]), pending[0].page
            out += [TextChunk(t, path, page, n) for t, n in chunk_units(split_units(alone), chunk_size, 0)]
        lead = "".join(s.text.rstrip() + "\n" for s in pending[k:])
        pending = []
        if section.table:
            out += chunk_table(section, lead, chunk_size)
            continue
        for chunk_text, lap in chunk_units(split_units(lead + text), chunk_size, overlap):
            if chunk_text.strip():
                out.append(TextChunk(chunk_text, section.path, section.page, lap))
    if pending:
        out.append(TextChunk("".join(s.text.rstrip() + "\n" for s in pending), sections[-1].path, sections[-1].page, 0))
    return out


def chunk_document(doc: ParsedDocument, chunk_size: int, overlap: int) -> list[TextChunk]:
    return chunk_sections(doc.sections, chunk_size, overlap)


def rejoin(chunks: Sequence[TextChunk | Chunk]) -> str:
    """Inverse of chunking: drop each chunk's overlap and concatenate (stored chunks too)."""
    return "".join(c.text[c.overlap_chars :] for c in chunks)
