"""Which documents a standard answer's clauses name or quote, and whether a document is readable to all of an answer's
readers: what decides that an answer rests on a document (`rests_on`: held when it is deleted, narrowed or replaced,
and refused for readers wider than it, `narrower_basis`)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from ..types import Chunk

MIN_PIECE = 4  # shorter runs (第一条, 年假) are headings and words, not a quoted clause
MIN_QUOTE = 8  # a run this long found in the policy makes an answer that never names it rest on it
_SPACE = re.compile(r"\s+")
_BREAK = re.compile(r"[^\w]+|_+")  # punctuation: 第一条：员工… and 第一条 员工… quote the same words
QUOTED = re.compile(r"《([^》]{4,})》")  # a document named in a clause as 《考勤与休假管理制度》
_NAME_END = "制度|规定|办法|细则|手册|条例|守则|规程|规范|指引|须知"
# an edition or status after a title (年假制度（2023年修订）, 年假制度(试行), 年假制度2024版): HR names the policy without it
EDITION = re.compile(r"(?:[\s_-]*(?:[（(][^（）()]{1,20}[)）]|修订版|修订稿|征求意见稿|试行|暂行|草案|\d{4}年?(?:修订)?版?))+$")
CONTINUED = re.compile(rf"(?!有关|相关|等|中|之)[^\W及和或的第]*?(?:{_NAME_END})(?=$|\W|第|及|和|或|的)")


def without_edition(title: str) -> str:
    """The title with a trailing edition or status (`EDITION`) taken off; the title itself when nothing is left."""
    return EDITION.sub("", title).strip() or title


def _names(quoted: str, title: str) -> bool:
    """Does 《quoted》 name the document `title`: its end (the company's name left out), or the same with an
    edition or status left off either (《年假制度》 for 年假制度（2023年修订）)?"""
    base = without_edition(quoted)
    return title.endswith(quoted) or (len(base) >= 4 and without_edition(title).endswith(base))


def _covered(text: str, title: str, known: Sequence[str]) -> list[tuple[int, int]]:
    """Spans of `text` holding a longer known title that contains `title`, or a tail of one (at least four
    characters, as in 《》: HR leaves out the company's name) that still contains it."""
    spans: list[tuple[int, int]] = []
    for longer in {k.strip() for k in known}:
        if len(longer) <= len(title) or title not in longer:
            continue
        for start in range(len(longer)):
            tail = longer[start:]
            if len(tail) <= len(title) or title not in tail or (start and len(tail) < 4):
                break
            spans += [(m.start(), m.start() + len(tail)) for m in re.finditer(f"(?={re.escape(tail)})", text)]
    return spans


def _bare(text: str, title: str, known: Sequence[str]) -> bool:
    """Does `title` occur in `text` anywhere (Chinese has no word breaks: 依据考勤与休假管理制度第五条, 按…执行), save
    inside a longer known title containing it (`_covered`) or running on into a longer document name (`CONTINUED`)?"""
    covered = _covered(text, title, known)
    for m in re.finditer(f"(?={re.escape(title)})", text):
        start, end = m.start(), m.start() + len(title)
        if any(a <= start and end <= b for a, b in covered) or CONTINUED.match(text, end):
            continue
        return True
    return False


def references(clauses: Sequence[str], title: str, known: Sequence[str] = ()) -> set[str]:
    """The references in `clauses` that name the document titled `title`: a 《name》 that is the title or ends
    it (HR types 《考勤与休假管理制度》 for 星河科技有限公司考勤与休假管理制度) once an edition or status is left off
    (《年假制度》 for 年假制度（2023年修订）: `_names`), or the bare title (or without its edition) anywhere outside
    any 《》 (`_bare`), unless that occurrence is part of a longer name: one of the `known` titles (the catalog's,
    live or deleted) containing it, or a longer document name it runs on into.

    A document titled 考勤 is not 《考勤与休假管理制度》 nor 考勤与休假管理制度第五条, so deleting it holds nothing."""
    title = title.strip()
    if len(title) < 2:
        return set()
    base = without_edition(title)
    found: set[str] = set()
    for clause in clauses:
        found |= {f"《{q}》" for q in QUOTED.findall(clause) if _names(q, title)}
        bare = QUOTED.sub(" ", clause)
        if _bare(bare, title, known) or (base != title and _bare(bare, base, [*known, title])):
            found.add(title)
    return found


def names_document(clauses: Sequence[str], titles: Sequence[str], known: Sequence[str] = ()) -> bool:
    """Does a clause name one of `titles` (`references`; `known`: the other titles the catalog knows)?"""
    return any(references(clauses, t, [*titles, *known]) for t in titles)


def gap_sources(nearest: dict, clauses: Sequence[str]) -> list[str]:
    """The document an answer written from a knowledge gap is recorded as resting on: its nearest clause's, only when
    a clause HR chose names it. That clause is the one that did not answer the question: a hint, no basis."""
    doc_id, title = nearest.get("doc_id", ""), nearest.get("title", "")
    return [doc_id] if doc_id and title and names_document(clauses, [title]) else []


def readable_to_all(doc_audience: Sequence[str], answer_audience: Sequence[str]) -> bool:
    """Can every reader the answer is served to read the document ("all" plus each of the answer's labels)?"""
    return all(not {"all", label}.isdisjoint(doc_audience) for label in answer_audience or ("all",))


def flat(text: str) -> str:
    """Text without whitespace, in one character width (NFKC): a re-upload that re-wraps a line keeps every clause,
    and ８０元 in a policy is the 80元 an answer quotes (review 382 #2: a changed ８０ kept 80元 served)."""
    return _SPACE.sub("", unicodedata.normalize("NFKC", text))


def policy_text(chunks: Iterable[Chunk]) -> str:
    """A version's text as clauses are compared with it: each section's own heading (第五条 年假, kept in the
    section path, not the text) before its text, overlaps dropped, whitespace removed."""
    parts: list[str] = []
    section: str | None = None
    for chunk in chunks:
        if chunk.section != section:
            section = chunk.section
            parts.append(section.rsplit(">", 1)[-1])
        parts.append(chunk.text[chunk.overlap_chars :])
    return flat("\n".join(parts))


def quoted_pieces(clause: str, titles: Sequence[str]) -> list[str]:
    """The runs of a clause that can quote a policy: 《names》 and the document's titles taken out, whitespace
    removed, cut at punctuation; runs shorter than `MIN_PIECE` dropped."""
    text = QUOTED.sub("|", clause)
    for title in sorted((t.strip() for t in titles if t and t.strip()), key=len, reverse=True):
        text = text.replace(title, "|")
    return [piece for piece in _BREAK.split(flat(text)) if len(piece) >= MIN_PIECE]


def long_pieces(clauses: Sequence[str], titles: Sequence[str]) -> list[str]:
    """The runs of `clauses` long enough (`MIN_QUOTE`) that finding one in a document's text makes an answer rest
    on it, its `titles` taken out."""
    return [p for clause in clauses for p in quoted_pieces(clause, titles) if len(p) >= MIN_QUOTE]


def rests_on(clauses: Sequence[str], recorded: bool, titles: Sequence[str], known: Sequence[str], text: str) -> bool:
    """Does an answer rest on the document titled `titles` whose version reads `text` (`policy_text`): recorded as
    written from it, a clause naming it (`references`; `known`: the catalog's other titles), or quoting a long run
    of it (`long_pieces`)? The one rule for holding an answer (`standard_versions.outdated`) and for refusing one
    for readers wider than such a document (`narrower_basis`)."""
    return recorded or names_document(clauses, titles, known) or any(p in text for p in long_pieces(clauses, titles))


class Basis(NamedTuple):
    """A version an answer may rest on: its document, title, audience, and its text (`policy_text`, read on demand
    and only for a clause long enough to quote it)."""

    doc_id: str
    title: str
    audience: Sequence[str]
    text: Callable[[], str] = str


def narrower_basis(clauses: Sequence[str], sources: Sequence[str], answer_audience: Sequence[str],
                   live: Sequence[Basis | tuple[str, str, Sequence[str]]]) -> list[tuple[str, tuple[str, ...]]]:
    """(title, audience) of each live document (`live`) an answer rests on (`rests_on`: recorded as a source, named
    in a clause, or quoted) that some of the answer's readers cannot read, unless a copy they all can read carries
    the same reference or the same run: served so, the answer would give them a clause they may not see."""
    docs = [Basis(*doc) for doc in live]
    known = [d.title for d in docs]
    wide = [d for d in docs if readable_to_all(d.audience, answer_audience)]
    kept = set().union(*(references(clauses, d.title, known) for d in wide))
    found = []
    for d in (d for d in docs if not readable_to_all(d.audience, answer_audience)):
        runs = [p for p in long_pieces(clauses, [d.title]) if p in d.text()] if clauses else []
        if (d.doc_id in sources or references(clauses, d.title, known) - kept
                or any(not any(p in w.text() for w in wide) for p in runs)):
            found.append((d.title, tuple(d.audience)))
    return found
