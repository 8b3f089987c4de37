"""What one reader may see today: the filter that runs before anything is scored.

A reader is a set of audience labels (`Principal.readable`; a single label such as
"hr" means that label plus "all"; None means every label). A pure function turns the catalog's live and pending versions into the visible
set — the newest version in effect per document among those the reader may
read — plus the vector store's scope (which audience partitions to search,
which stored versions to drop). `VisibilityCache` keeps the answer per
(catalog generation, day, readable set): at 100k chunks recomputing it per question
cost 26–46 ms, and it only changes when the catalog does. What search derives from
every visible document (`versions`, `short_documents`) is kept with it for the same reason.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from ..documents.catalog import Catalog, Readable, readable_set, versions_in_effect, visible_to
from ..types import DocumentInfo
from .vector_store import VectorScope, doc_key


@dataclass(frozen=True)
class Visible:
    active: tuple[DocumentInfo, ...]  # per document, the version this reader sees today
    keys: frozenset[str]  # their doc keys ("doc@vN")
    everything: bool  # every live version is visible (for reports; the keyword index decides from its own contents)
    scope: VectorScope  # the same set, expressed for the vector store
    _derived: dict = field(default_factory=dict, compare=False, repr=False)  # what the methods below derived

    def versions(self) -> frozenset[tuple[str, int]]:
        """(doc id, version) of every active version: built once per snapshot, not per question (a set of
        the 7k documents of a 100k-chunk store took 1.5 ms of every search)."""
        found = self._derived.get("versions")
        if found is None:
            found = self._derived["versions"] = frozenset((d.doc_id, d.version) for d in self.active)
        return found

    def short_documents(self, most: int) -> tuple[DocumentInfo, ...]:
        """The active versions of 1 to `most` chunks, in `active`'s order (a pass over every document, once per
        snapshot and `most`)."""
        key = ("short", most)
        found = self._derived.get(key)
        if found is None:
            found = self._derived[key] = tuple(d for d in self.active if 0 < d.chunk_count <= most)
        return found


def visible_versions(
    live: Sequence[DocumentInfo], pending: Sequence[DocumentInfo], today: date, reader: str | Readable
) -> Visible:
    """Newest current version in effect on `today` per document, when `reader` may read it.

    The version in effect is chosen first, for everyone; only then is it checked against the reader. A
    scheduled version for a narrower audience retires the old one for every reader on its day, as an
    immediate upload does: choosing among the readable versions first kept serving the old text to
    everyone else."""
    readable_labels = readable_set(reader)
    newest = versions_in_effect(live, today.isoformat())
    best = {doc_id: info for doc_id, info in newest.items() if visible_to(info.audience, readable_labels)}
    active = tuple(sorted(best.values(), key=lambda d: d.doc_id))
    keys = frozenset(doc_key(d.doc_id, d.version) for d in active)
    readable = {d.audience for d in live if visible_to(d.audience, readable_labels)}
    hidden = [
        d for d in list(live) + list(pending)
        if d.audience in readable and doc_key(d.doc_id, d.version) not in keys
    ]
    scope = VectorScope(
        audiences=frozenset(readable),
        hidden_keys=frozenset(doc_key(d.doc_id, d.version) for d in hidden),
        hidden_chunks=sum(d.chunk_count for d in hidden),
        hidden_audiences=frozenset(d.audience for d in hidden),
    )
    everything = len(keys) == len(live)
    return Visible(active=active, keys=keys, everything=everything, scope=scope)


class VisibilityCache:
    """`visible_versions` per (catalog generation, day, readable set); a handful of entries."""

    def __init__(self, catalog: Catalog, size: int = 16):
        self.catalog = catalog
        self.size = size
        self._cache: dict[tuple[int, date, Readable], Visible] = {}
        self._lock = threading.Lock()

    def get(self, today: date, reader: str | Readable) -> Visible:
        readable = readable_set(reader)
        key = (self.catalog.generation(), today, readable)
        with self._lock:
            hit = self._cache.get(key)
        if hit is not None:
            return hit
        # pending before live: a version that turns current in between is then counted as hidden, never missed
        pending = self.catalog.pending()
        visible = visible_versions(self.catalog.live_versions(), pending, today, readable)
        if self.catalog.generation() != key[0]:
            return visible  # the catalog changed while we read it: use, don't keep
        with self._lock:
            if len(self._cache) >= self.size:
                self._cache.pop(next(iter(self._cache)))
            self._cache[key] = visible
        return visible
