"""Which standard answers a new version of a document no longer supports.

A standard answer is served before search, so deleting a document holds the answers resting on it
(`StandardAnswers.hold_resting_on`). A new version can withdraw an answer just as surely: narrowed to fewer
readers than the answer is served to (年假制度 re-uploaded for HR only), or without the clause the answer quotes
(五天 became 十天). Left served, the answer would keep giving employees a clause they can no longer read, or the
old policy. An answer rests on the document when it was recorded as its source, names it in a clause
(`references`), or quotes a long run of its text. A clause naming the document and an article (《年假制度》第一条)
quotes no text to compare, so that article's text is compared between the versions (`standard_articles`); one
quoting its words is decided by them; one naming the document with neither is held whenever its text changed.
An answer whose 依据 was left blank rests on what its own text names or quotes (`basis`); any answer rests on what
its own text quotes (`quoting`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Sequence

from ..types import Chunk
from .records import StandardAnswer
from .standard_articles import article_key, article_texts, named_articles
from .standard_refs import (
    flat,
    long_pieces,
    names_document,
    policy_text,
    quoted_pieces,
    readable_to_all,
    references,
    rests_on,
)

NARROWED, CHANGED = "narrowed", "changed"  # `Hold.reason` besides "deleted"
_CITED = re.compile(r"《([^《》\n]{1,60})》[ \t]*(第[0-9０-９〇零一二三四五六七八九十百千两]+条)")  # 按《考勤制度》第五条，…


def basis(entry: StandardAnswer) -> list[str]:
    """What an answer names as its ground, read as its clauses are: its 依据, or, left blank (it is optional), the
    answer's own text (依据《年假制度》第一条，员工每年享有五天带薪年假): else a change to that policy never paused it.
    Beside a 依据, the text's names and bare articles (根据第五条, 另见《差旅办法》) are not read: the 依据 says whose
    第五条 it is (review 352)."""
    return [c for c in entry.clauses if c.strip()] or [entry.answer]


def naming(entry: StandardAnswer, titles: Sequence[str], known: Sequence[str] = ()) -> list[str]:
    """`basis`, and beside a 依据 the answer's own text when it names the document titled `titles` with an article
    (依据 another line, text 根据《考勤制度》第五条: review 354). A bare 第五条 or a title alone in the text still does
    not count (review 352)."""
    clauses = basis(entry)
    if clauses == [entry.answer]:
        return clauses
    cited = [f"《{m.group(1)}》{m.group(2)}" for m in _CITED.finditer(entry.answer)
             if names_document([f"《{m.group(1)}》"], titles, known)]  # read as the 依据 line 《考勤制度》第五条
    return [*clauses, *cited]


def quoting(entry: StandardAnswer) -> list[str]:
    """What an answer may quote a policy in: its 依据 and its own text, always. An answer copying a clause its 依据
    does not name was never paused when that policy was narrowed or deleted, nor refused for readers who cannot read
    it (review 348); only its long runs of a policy's words are read there (`quoted_pieces`, `long_pieces`)."""
    return [*(c for c in entry.clauses if c.strip()), entry.answer]


def outdated(entries: Sequence[StandardAnswer], recorded: set[str], titles: Sequence[str], old: Sequence[Chunk],
             new: Sequence[Chunk], audience: Sequence[str], known: Sequence[str] = ()) -> dict[str, str]:
    """answer id -> why (`NARROWED`, `CHANGED`) for each entry resting on the document whose version in effect
    went from `old` to `new` (read by `audience`): one a reader of the answer can no longer read, or a run it quoted
    from `old` that `new` no longer has. `recorded`: the entries recorded as written from it; `titles`: its
    titles, old and new; `known`: the other titles the catalog knows (a bare title inside a longer one)."""
    old_text, new_text = policy_text(old), policy_text(new)
    old_articles, new_articles = article_texts(old), article_texts(new)
    found: dict[str, str] = {}
    for entry in entries:
        clauses = naming(entry, titles, known)
        quoted = [p for clause in quoting(entry) for p in quoted_pieces(clause, titles) if p in old_text]
        loose = {a for clause in clauses for a in unnamed_articles(clause, [*titles, *known]) if a in old_articles}
        # an article named without its document (`loose`) may be another document's: its change holds the entry,
        # a document narrowed to fewer readers does not (review 206)
        named = rests_on(clauses, entry.id in recorded, titles, known, old_text) or any(
            p in old_text for p in long_pieces([entry.answer], titles))
        if not named and not loose:
            continue
        if named and not readable_to_all(audience, entry.audience):
            found[entry.id] = NARROWED
        elif any(p not in new_text for p in quoted) or any(old_articles[a] != new_articles.get(a) for a in loose):
            found[entry.id] = CHANGED
        elif untitled(old_text, titles) != untitled(new_text, titles) and any(
                _article_changed(named_articles(clause, titles, known), old_articles, new_articles,
                                 any(p in old_text for p in quoted_pieces(clause, titles)))
                for clause in clauses):
            found[entry.id] = CHANGED
    return found


def untitled(text: str, titles: Sequence[str]) -> str:
    """A version's text (`policy_text`) without the document's titles, old and new: the chunker glues the title
    heading before the first section, and a policy renamed (年假制度 -> 年假管理制度) has not changed a clause."""
    for title in sorted({flat(t) for t in titles if t and t.strip()}, key=len, reverse=True):
        text = text.replace(title, "")
    return text


def unnamed_articles(clause: str, titles: Sequence[str]) -> set[int | str]:
    """The articles (第七条, 第7条) a clause names when it names none of the catalog's documents (`titles`): HR's
    shorthand (考勤制度第七条, 《考勤休假制度》第七条) or the article alone (第七条 年假天数). Such a clause rests
    on every document that has the article: holding it on a change there is safer than serving an old clause."""
    if names_document([clause], titles):
        return set()
    keys = (article_key(clause[m.start():]) for m in re.finditer("第", clause))
    return {k for k in keys if k is not None}


def _article_changed(named: set[object] | None, old: dict[object, str], new: dict[object, str], quotes: bool) -> bool:
    """Does the clause (`named`: the articles it names in this document; None: it does not name it) rest on text
    this version changed? The articles it names, found in the old version, compared; else, when it quotes words of
    the old version, those words decided (the caller compared them); only a clause with neither rests on the whole
    document, which the caller checked changed."""
    if named is None:
        return False
    if named and all(a in old for a in named):
        return any(old[a] != new.get(a) for a in named)
    return not quotes


def lost_with(entries: Sequence[StandardAnswer], deleted: Sequence[Chunk], titles: Sequence[str],
              live: Callable[[], Sequence[tuple[Sequence[str], Sequence[Chunk]]]],
              sourced: Collection[str] = ()) -> set[str]:
    """The entries a deleted document held up without being named: a clause naming an article it had without naming
    any document (`unnamed_articles`), or quoting a run of its text, when no live document that every reader of the
    entry can read has that article with the same text or that run (a duplicate HR kept). An entry with a recorded
    source still live (`sourced`) rests on that document: a bare article number it names is that one's (review 211).
    `live`: each live document's (audience, chunks), read only when some entry cites the deleted one so. `titles`:
    the deleted document's titles and the live ones."""
    if not deleted:
        return set()
    articles, text = article_texts(deleted), policy_text(deleted)
    cited: dict[str, tuple[list[str], list[str], Sequence[str]]] = {}
    for entry in entries:
        wanted = [] if entry.id in sourced else [
            articles[a] for clause in basis(entry) for a in unnamed_articles(clause, titles) if a in articles]
        runs = [p for p in long_pieces(quoting(entry), titles) if p in text]
        if wanted or runs:
            cited[entry.id] = (wanted, runs, entry.audience)
    if not cited:
        return set()
    documents = [(audience, article_texts(chunks).values(), policy_text(chunks)) for audience, chunks in live()]
    lost = set()
    for answer_id, (wanted, runs, audience) in cited.items():
        readable = [(kept, body) for doc_audience, kept, body in documents if readable_to_all(doc_audience, audience)]
        kept_articles = {t for kept, _ in readable for t in kept}
        kept_text = "\n".join(body for _, body in readable)
        if any(t not in kept_articles for t in wanted) or any(p not in kept_text for p in runs):
            lost.add(answer_id)
    return lost


def resting_on(entries: Sequence[StandardAnswer], recorded: Collection[str], doc_id: str, titles: Sequence[str],
               live: Sequence[tuple[str, str, Sequence[str]]], also: Iterable[str] = ()) -> tuple[list[str], list[tuple[str, str]]]:
    """Which `entries` rest on `doc_id` about to be deleted (`titles`: its titles, newest first), read only: the ids
    to hold, and (id, copy) for an entry recorded as written from it whose source a live copy with the identical title
    keeps. An entry rests on it when a reference (`references` of its `naming`) names it and no live document every
    reader of the entry reads (`live`: doc_id, title, audience); `recorded`: the entries recorded as written from it;
    `also`: entries resting on it without naming it (`lost_with`). One rule for holding them
    (`StandardAnswers.hold_resting_on`) and for saying so before the delete (the delete preview)."""
    deleted = [t for t in titles if t and t.strip()]
    known = [*deleted, *(t for _, t, _ in live if t)]  # a bare title inside a longer one names the longer
    resting: list[str] = []
    moved: list[tuple[str, str]] = []
    for e in entries:
        kept = [(d, t) for d, t, aud in live if d != doc_id and readable_to_all(aud, e.audience)]
        clauses = naming(e, deleted, known)
        named = set().union(*(references(clauses, t, known) for t in deleted))
        if named - set().union(*(references(clauses, t, known) for _, t in kept)):
            resting.append(e.id)
        elif e.id in recorded:
            copy = next((d for d, t in kept if t in deleted), None)
            if copy is None:
                resting.append(e.id)
            else:
                moved.append((e.id, copy))
    lost = set(also)
    return resting + [e.id for e in entries if e.id in lost and e.id not in resting], moved
