"""Which document audiences a stored insight reveals, so a reader sees only clauses they may read.

A question's nearest clause and a rated answer's trace carry policy text. Each
clause in them keeps its document's audience labels (`Hit.to_dict`,
`nearest_clause`); a record is shown to a reader only when every clause in it is
readable to them, whoever asked the question. The asker's own words are not
policy text and are not restricted by this.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ..documents.catalog import VERSIONS_USED, office_today, versions_in_effect
from ..types import UNKNOWN_AUDIENCE

# A clause whose audience is no longer known (a record written before audiences were kept, of a
# document since deleted) is shown to administrators only.
UNKNOWN = UNKNOWN_AUDIENCE


def _records(value: Any) -> Iterator[dict]:
    """Every dict inside a JSON-like value, outermost first."""
    if isinstance(value, dict):
        yield value
        for child in value.values():
            yield from _records(child)
    elif isinstance(value, list | tuple):
        for child in value:
            yield from _records(child)


def revealed(value: Any) -> list[tuple[str, ...]]:
    """The audience labels of every clause inside a JSON-like value (dicts with `chunk_id` and `audience`), and of
    every standard answer in it (`clauses` and `audience`: HR's answer is for the audiences it was written for)."""
    return sorted({tuple(sorted(node["audience"])) or UNKNOWN for node in _records(value)
                   if ("chunk_id" in node or "clauses" in node) and "audience" in node})


def chunk_ids(value: Any) -> list[str]:
    """Every clause id inside a JSON-like value (a stored trace's sources, hits and near misses)."""
    return list(dict.fromkeys(node["chunk_id"] for node in _records(value) if isinstance(node.get("chunk_id"), str)))


def readable_by(audiences: Iterable[Iterable[str]], readable: frozenset[str] | None) -> bool:
    """True when a reader with `readable` labels (None: every label) may read every one of `audiences`."""
    return readable is None or all(not readable.isdisjoint(labels) for labels in audiences)


def labels_in_use(doc_audiences: Iterable[Iterable[str]], readable: frozenset[str] | None) -> list[str]:
    """The audience labels a standard answer may name: "all" first, then the documents' and the reader's own
    labels, only those the reader may read (so the answer stays one they can see and delete)."""
    found = {label for labels in doc_audiences for label in labels} | set(readable or ())
    found.discard("all")
    return ["all", *sorted(label for label in found if readable is None or label in readable)]


def unreadable_labels(audience: Iterable[str], readable: frozenset[str] | None) -> list[str]:
    """The labels in `audience` a reader with `readable` may not read (none for an administrator)."""
    return [] if readable is None else [label for label in audience if label not in readable]


def named_documents(value: Any) -> list[str]:
    """Every document a JSON-like value names: its clauses' `doc_id`, the documents of its clause ids ('doc@v2#7'
    → 'doc') and of a standard answer's clauses."""
    named = [node["doc_id"] for node in _records(value) if isinstance(node.get("doc_id"), str)]
    clauses = [c for node in _records(value) if isinstance(node.get("clauses"), list) for c in node["clauses"]]
    named += [c.rsplit("#", 1)[0].rsplit("@v", 1)[0] for c in [*chunk_ids(value), *clauses] if isinstance(c, str)]
    return [doc_id for doc_id in dict.fromkeys(named) if doc_id]


def audiences_now(catalog: Any, doc_ids: Iterable[str], cache: dict[str, list[tuple[str, ...]]] | None = None,
                  day: str | None = None) -> list[tuple[str, ...]]:
    """The audience of the version of each named document in effect on `day` (the office's today: search's
    rule, `versions_in_effect`): a policy narrowed after a record was written (uploaded to everyone by mistake,
    then for managers only) hides its clauses there as it does in search, while a narrower version scheduled for
    a later day hides nothing yet, and one replaced by a wider version whose day came hides nothing any more. A
    document with no version in effect is judged by the audience it had when last in effect, before it was deleted
    (`Catalog.deleted_audience`): narrowed to managers and then deleted, it stays hidden from the others, while a
    policy deleted as it was (for everyone) shows what was answered then. One never in effect adds nothing.
    `cache` (doc id → its audiences) lets a caller judging many records read each document once."""
    cache = {} if cache is None else cache
    day = day or office_today()
    found: list[tuple[str, ...]] = []
    for doc_id in dict.fromkeys(doc_ids):
        if doc_id not in cache:
            live = [v for v in catalog.versions(doc_id) if v.status == "current"]
            cache[doc_id] = [tuple(v.audience) or UNKNOWN for v in versions_in_effect(live, day).values()]
            if not cache[doc_id] and (gone := catalog.deleted_audience(doc_id)) is not None:
                cache[doc_id] = [gone or UNKNOWN]
        found += cache[doc_id]
    return found


def reused_since(catalog: Any, doc_id: str) -> str | None:
    """When the document now under `doc_id` was first written, if an earlier one under that id was deleted (None:
    never deleted, or no document under it now). Version numbers are never given twice (`VERSIONS_USED`), so the
    new document's versions are the ones above the deleted one's highest (review 367 #3)."""
    used = catalog.get_meta(VERSIONS_USED + doc_id)
    return min((v.ingested_at for v in catalog.versions(doc_id) if used is not None and v.version > int(used)),
               default=None)


def cited_then(catalog: Any, cited: Iterable[str], asked_at: str,
               cache: dict[str, Any]) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """A logged question's cited documents split in two: the ids that still name the document it cited, and the
    audiences of the deleted documents it cited whose id was given to another since (367 #3, 375 #2)."""
    same: list[str] = []
    gone: list[tuple[str, ...]] = []
    for doc_id in cited:
        if (then := _deleted_then(catalog, doc_id, asked_at, cache)) is None:
            same.append(doc_id)
        else:
            gone.append(then)
    return tuple(same), tuple(gone)


def _deleted_then(catalog: Any, doc_id: str, asked_at: str, cache: dict[str, Any]) -> tuple[str, ...] | None:
    """The audience of the incarnation of `doc_id` that stood when a question was asked, if it was deleted since
    (a delete in that same second counts: the cautious side), else None. A delete from before deletion times were
    kept is known only to have come before the current document: judged by its audience when it is the only one,
    else as unknown (administrators only)."""
    if doc_id not in cache:
        cache[doc_id] = (catalog.deletions(doc_id), reused_since(catalog, doc_id))
    deletions, since = cache[doc_id]
    for index, (at, audience) in enumerate(deletions):
        if at and asked_at <= at:  # the first dated delete may also be preceded by undated ones, of unknown times
            earlier = [aud for t, aud in deletions[:index] if not t] if not any(t for t, _ in deletions[:index]) else []
            candidates = {aud or UNKNOWN for aud in (audience, *earlier)}
            return candidates.pop() if len(candidates) == 1 else UNKNOWN  # 378 #2: not the dated one alone
    untimed = [audience for at, audience in deletions if not at]
    if untimed and since is not None and asked_at < since:
        return (untimed[0] or UNKNOWN) if len(deletions) == 1 else UNKNOWN
    return None


def cited_audiences(catalog: Any, cited: Iterable[str], asked_at: str, cache: dict[str, dict], day: str) -> list:
    """The audiences a logged question's answer came from: of the documents still under their ids as in effect on
    `day` (`audiences_now`), and of those deleted since as they were (`cited_then`). One rule for 使用情况 and 知识缺口
    (review 378 #1: the gaps page judged by the document under the id now). `cache` is kept between rows."""
    same, gone = cited_then(catalog, cited, asked_at, cache.setdefault("then", {}))
    return [*audiences_now(catalog, same, cache.setdefault("now", {}), day=day), *gone]

