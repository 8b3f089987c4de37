"""Which documents a standard answer's clauses name, and whether a document is readable to all of an answer's
readers: what decides that an answer rests on a document (held when it is deleted, narrowed or replaced)."""

from __future__ import annotations

import re
from collections.abc import Sequence

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


def narrower_basis(clauses: Sequence[str], sources: Sequence[str], answer_audience: Sequence[str],
                   live: Sequence[tuple[str, str, Sequence[str]]]) -> list[tuple[str, tuple[str, ...]]]:
    """(title, audience) of each live document (`live`: doc_id, title, audience) an answer rests on (a clause names
    it, or it is a recorded source) that some of the answer's readers cannot read, unless a copy they all can read
    carries the same reference: served so, the answer would give them a clause they may not see."""
    known = [t for _, t, _ in live]
    kept = set().union(*(references(clauses, t, known) for _, t, aud in live if readable_to_all(aud, answer_audience)))
    return [(t, tuple(aud)) for d, t, aud in live if not readable_to_all(aud, answer_audience)
            and (d in sources or references(clauses, t, known) - kept)]
