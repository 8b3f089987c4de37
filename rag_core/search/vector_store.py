"""Chroma as the vector store, always fed our own embeddings.

Embedded `PersistentClient` under the data dir by default; `CHROMA_HOST` /
`CHROMA_PORT` switch to `HttpClient` with no other change. Telemetry is off and
no embedding function is attached, so Chroma never tries to download a model.
The collection's metadata records the embedding model; the facade re-embeds
when it changes instead of mixing vector spaces.

Why one collection per audience: a Chroma `where` filter costs time in
proportion to the records it matches (measured: ~20 ms per 10k chunks whatever
the filter's shape), so restricting employees to the documents for everyone
was the slowest stage of search. Chunks are therefore partitioned by their
audience labels — documents for everyone in the store's base collection,
`hr`-only ones in another — and a role searches only the partitions it may
see. Another audience's chunks are never compared with the question at all.
Inside a visible partition the few versions not in effect (scheduled, still
being written) are dropped from an over-fetched result: fetching n plus their
chunk count gives exactly the top n of the rest; past `MAX_OVERFETCH` a
`where` filter is used instead.

The chunk text is not stored in Chroma (the catalog holds it): Chroma's
document index made each upsert ~1.7× slower for nothing search uses.

Every write is read back. Chroma 1.5.9 (embedded and server alike) sometimes
leaves a record written after a query unreachable by `query()` although
`get()` and `count()` include it — measured: a one-chunk document added to the
131-chunk sample store after a search was missing from every query in 3–8 of
40 trials (bench/bench_write_readback.py; 10 of 20 in a plain chromadb replay);
re-upserting the record made it reachable every time (compare
chroma-core/chroma#7758, the same symptom). So `upsert` queries each written
vector and re-writes the records that do not come back; what still does not
after `REPAIR_ATTEMPTS` is returned to the caller, which warns.

With a server, every public call goes through `chroma_server.call`: a server that is down is `VectorServerDown` (one
Chinese line), and the collections are opened again at the next call, so a server that came back is used without a
restart; one that came back empty is reopened at once, and every query is `VectorsLost` until `reset` (`lost`). A server down at start is the same: the store is made
unopened and stale, the first call that reaches the server opens it, and runs the owner's postponed start work
(`when_opened`: the assistant's rebuild check)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Protocol

import numpy as np

from ..errors import VectorServerDown
from ..types import Chunk
from .chroma_server import VectorsLost, call, catch_up_logged, client_settings, holds, through_server
from .recent_writes import RecentWrites, merged
from .vector_records import (  # noqa: F401 - re-exported: callers import them from here
    EVERYTHING,
    VectorCheck,
    VectorMatch,
    VectorScope,
    _metadata,
    doc_key,
    key_of_chunk,
    partition_suffix,
)

COLLECTION = "policy_chunks"
# Over-fetching k results costs ~1.2 ms at k=30, 3.6 ms at k=1,000 and 5.5 ms at k=2,000 on a 10k
# partition, while any `where` filter costs ~19 ms there (and ~10× that at 100k): measured, so the
# filter is only the fallback for very many hidden chunks (e.g. a year's policies scheduled at once).
MAX_OVERFETCH = 2000
LAYOUT = "audience-partitions-1"  # recorded in the catalog; another layout triggers a rebuild
# Read-back after a write: a record must be among the VERIFY_K nearest to its own vector. A
# batched self-query adds ~0.4 ms per written chunk (measured), next to ~75 ms to embed one chunk.
VERIFY_K = 10
REPAIR_ATTEMPTS = 2
# VERIFY_K exact duplicates of a vector can crowd out the record itself (float32 self-distances reach ~1e-6)
TIE_DISTANCE = 1e-5


class VectorStore(Protocol):
    model_id: str | None

    def upsert(self, chunks: Sequence[Chunk], vectors: np.ndarray) -> list[str]: ...
    def delete(self, chunk_ids: Sequence[str]) -> None: ...
    def query(self, vector: np.ndarray, n: int, scope: VectorScope = EVERYTHING) -> list[VectorMatch]: ...
    def count(self) -> int: ...
    def ids(self) -> list[str]: ...
    def reset(self, model_id: str) -> None: ...


# A role that sees several partitions asks them at once: Chroma's query runs in Rust without the GIL, and
# each call is mostly fixed cost (~1 ms at 10k for a 620-chunk partition as for a 9k one), so two
# partitions take ~1.2 ms instead of ~2.1 (bench/perf_child.py search, role hr). The merge is unchanged.
_PARTITION_POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="chroma-partition")


def unreachable_rows(col, ids: Sequence[str], vectors: np.ndarray) -> list[int]:
    """Rows whose record is not among the VERIFY_K nearest to its own vector (one batched query)."""
    if not len(ids):
        return []
    res = col.query(query_embeddings=vectors, n_results=VERIFY_K, include=["distances"])
    missing = []
    for row, (cid, found, dists) in enumerate(zip(ids, res["ids"], res["distances"])):
        if cid in found:
            continue
        if len(found) >= VERIFY_K and dists[-1] <= TIE_DISTANCE:
            continue  # crowded out by exact duplicates, which is not a lost record
        missing.append(row)
    return missing


class ChromaVectorStore:
    server = ""  # "host:port" with a Chroma server, "" embedded: no connection to lose (`chroma_server.call`)
    stale = False  # a server call failed: open the collections again before the next one
    lost = False  # a reopen found the base collection gone (server back empty): queries refused until `reset`
    client = None  # a server's HttpClient is made at the first open (a server down at start: at the first call)
    when_opened: Callable[[], None] | None = None  # run once at the next open (the owner's work postponed at start)
    _model = ""  # the model a collection created at an open records

    def __init__(
        self, path: Path | None = None, host: str = "", port: int = 8000, model_id: str = "", name: str = COLLECTION
    ):
        import chromadb

        chroma_settings = client_settings()
        self.name = name
        self.repaired = 0  # records re-written because a query could not find them (module docstring)
        self.recent = RecentWrites()  # searched exactly at every query: a fresh upload is always found
        self._lock = threading.Lock()
        self._model = model_id
        self._partitions: dict[tuple[str, ...], object] = {}  # none known before the first open
        if not host:
            assert path is not None
            Path(path).mkdir(parents=True, exist_ok=True)
            self.client = chromadb.PersistentClient(path=str(path), settings=chroma_settings)
            self.location = str(path)
            self.reopen(model_id)
            return
        self._connect = lambda: chromadb.HttpClient(host=host, port=port, settings=chroma_settings)
        self.location, self.server = f"http://{host}:{port}", f"{host}:{port}"
        try:  # a server down at start is no failed start: search answers by keywords until it is back
            call(self, lambda: self.reopen(model_id), retry=False)
        except VectorServerDown:
            self.stale = True  # the next call opens the client and the collections (`chroma_server.call`)

    @property
    def opened(self) -> bool:
        """Whether the collections were ever opened (False while a server down since the start stays down)."""
        return hasattr(self, "_collection")

    def reopen(self, model_id: str) -> None:
        """(Re)open the base collection and find the partitions: at start, and after the server was lost (`lost`)."""
        if self.client is None:
            self.client = self._connect()  # no request yet: HttpClient asks the server from its first use
        if self.opened and not holds(self.client, self.name):
            self.lost = True
        self._collection = self._open("", ("all",), model_id or self._model)
        # replaced, never mutated (copy on write): readers iterate a snapshot while another thread adds
        self._partitions = {("all",): self._collection}
        self._discover()
        self.stale = False
        if self.when_opened is not None:
            catch_up_logged(self)  # a failure other than the server's is logged, never raised into this call

    def catch_up(self) -> None:
        """The owner's postponed start work, once the server answers (kept for the next open if it fails)."""
        with self._lock:  # one thread runs it; another goes on meanwhile
            hook, self.when_opened = self.when_opened, None
        if hook is None:
            return
        try:
            hook()
        except BaseException:
            self.when_opened = hook
            raise

    def _open(self, suffix: str, audience: tuple[str, ...], model_id: str):
        return self.client.get_or_create_collection(
            self.name + suffix,
            metadata={"embedding_model": model_id, "audience": ",".join(audience)},
            configuration={"hnsw": {"space": "cosine"}},
            embedding_function=None,
        )

    def _discover(self) -> None:
        """Find this store's audience partitions (another process may have added some)."""
        prefix = self.name + "_a"
        known = {col.name for col in self._partitions.values()}
        found = {}
        for col in self.client.list_collections():
            name = col if isinstance(col, str) else col.name
            if name.startswith(prefix) and len(name) == len(prefix) + 10 and name not in known:
                full = self.client.get_collection(name, embedding_function=None)
                audience = tuple(a for a in (full.metadata or {}).get("audience", "").split(",") if a)
                if audience:
                    found[audience] = full
        if found:
            with self._lock:
                self._partitions = {**self._partitions, **found}

    def _partition(self, audience: tuple[str, ...]):
        col = self._partitions.get(audience)
        if col is None:
            col = self._open(partition_suffix(audience), audience, self.model_id or "")
            with self._lock:
                self._partitions = {**self._partitions, audience: col}
        return col

    @property
    def audiences(self) -> list[tuple[str, ...]]:
        return sorted(self._partitions)

    @property
    def model_id(self) -> str | None:
        if not self.opened:
            return None  # not known until the server answers
        meta = self._collection.metadata or {}
        return meta.get("embedding_model")

    @through_server()
    def reset(self, model_id: str) -> None:
        """Drop every vector of every partition and record a new model (before a full re-embed)."""
        self._discover()
        for col in list(self._partitions.values()):
            try:
                self.client.delete_collection(col.name)
            except Exception:  # noqa: BLE001 - absent collection is fine
                pass
        self._model = model_id
        self._collection = self._open("", ("all",), model_id)
        self._partitions = {("all",): self._collection}
        self.recent.clear()
        self.lost = False  # every vector is written again after a reset (`indexer.reembed_all`)

    @through_server()
    def upsert(self, chunks: Sequence[Chunk], vectors: np.ndarray) -> list[str]:
        """Write the chunks' vectors; returns the ids a query still cannot find after repair (normally none)."""
        if not chunks:
            return []
        vectors = np.asarray(vectors, dtype=np.float32)
        groups: dict[tuple[str, ...], list[int]] = {}
        for i, c in enumerate(chunks):
            groups.setdefault(tuple(c.audience) or ("all",), []).append(i)
        step = 1000
        unreachable: list[str] = []
        for audience, rows in groups.items():
            col = self._partition(audience)
            for start in range(0, len(rows), step):
                part = rows[start : start + step]
                ids = [chunks[i].chunk_id for i in part]
                metadatas = [_metadata(chunks[i]) for i in part]
                col.upsert(ids=ids, embeddings=vectors[part], metadatas=metadatas)
                self.recent.add(audience, ids, vectors[part])
                unreachable += self._repair(col, ids, vectors[part], metadatas)
        return unreachable

    def _repair(self, col, ids: list[str], vectors: np.ndarray, metadatas: list[dict]) -> list[str]:
        """Re-write the records a query with their own vector does not return; the ids that stay lost."""
        missing = unreachable_rows(col, ids, vectors)
        for _ in range(REPAIR_ATTEMPTS):
            if not missing:
                break
            self.repaired += len(missing)
            col.upsert(
                ids=[ids[i] for i in missing], embeddings=vectors[missing], metadatas=[metadatas[i] for i in missing]
            )
            still = unreachable_rows(col, [ids[i] for i in missing], vectors[missing])
            missing = [missing[i] for i in still]
        return [ids[i] for i in missing]

    @through_server()
    def verify(self, repair: bool = True, batch: int = 1000, known: Callable[[str], bool] | None = None) -> VectorCheck:
        """Query every stored vector with itself; re-write (if `repair`) what a query cannot find.

        Covers what the per-write read-back cannot: records that a later delete or
        update made unreachable (the large-store form of chroma-core/chroma#7758).
        One batched self-query per `batch` records: 0.15 ms per record on the 10k
        benchmark store. `known` (e.g. "is this chunk in the catalog?") limits the
        check to live chunks, so a record deleted meanwhile is never written back.
        """
        self._discover()
        report = VectorCheck()
        before = self.repaired
        for col in list(self._partitions.values()):
            ids = col.get(include=[])["ids"]  # all ids first: re-writes may reorder offset-based pages
            if known is not None:
                ids = [cid for cid in ids if known(cid)]
            for start in range(0, len(ids), batch):
                got = col.get(ids=ids[start : start + batch], include=["embeddings", "metadatas"])
                vectors = np.asarray(got["embeddings"], dtype=np.float32)
                report.checked += len(got["ids"])
                if repair:
                    report.unreachable += self._repair(col, list(got["ids"]), vectors, list(got["metadatas"]))
                else:
                    report.unreachable += [got["ids"][i] for i in unreachable_rows(col, got["ids"], vectors)]
        report.rewritten = self.repaired - before
        return report

    @through_server()
    def delete(self, chunk_ids: Sequence[str]) -> None:
        ids = list(chunk_ids)
        if not ids:
            return
        self.recent.drop(ids)
        self._discover()
        for col in self._partitions.values():
            for start in range(0, len(ids), 1000):
                col.delete(ids=ids[start : start + 1000])

    @through_server()  # a server back empty is reopened at once: VectorsLost, not matches from empty collections
    def query(self, vector: np.ndarray, n: int, scope: VectorScope = EVERYTHING) -> list[VectorMatch]:
        """The n nearest chunks the scope allows, across its partitions; `VectorsLost` while the store is lost."""
        if self.lost:
            raise VectorsLost(self.server)
        if n <= 0:
            return []
        if scope.audiences is not None and not scope.audiences <= self._partitions.keys():
            self._discover()  # a partition created by another process
        audiences = self._partitions.keys() if scope.audiences is None else scope.audiences
        query = np.asarray(vector, dtype=np.float32)[None, :]
        hidden = scope.hidden_keys

        def nearest(audience: tuple[str, ...]) -> list[VectorMatch]:
            col = self._partitions.get(audience)
            if col is None:
                return []
            fetch, where = n, None
            if scope.hides_in(audience):
                if n + scope.hidden_chunks <= MAX_OVERFETCH:
                    fetch = n + scope.hidden_chunks
                else:
                    where = {"doc_key": {"$nin": sorted(hidden)}}
            res = col.query(query_embeddings=query, n_results=fetch, where=where, include=["distances"])
            ids = res["ids"][0] if res["ids"] else []
            dists = res["distances"][0] if res["distances"] else []
            return [VectorMatch(cid, 1.0 - float(d)) for cid, d in zip(ids, dists) if key_of_chunk(cid) not in hidden]

        if not audiences:  # a reader who may see no partition (no live document for them) gets nothing
            return []
        first, *others = sorted(audiences)
        pending = [_PARTITION_POOL.submit(nearest, audience) for audience in others]  # this thread asks the first
        matches = nearest(first)
        for part in pending:
            matches += part.result()
        exact = self.recent.nearest(query, n, audiences, lambda cid: key_of_chunk(cid) in hidden)
        top = merged(matches, exact, n)
        gone = self._gone(top, matches)
        return merged(matches, [m for m in exact if m.chunk_id not in gone], n) if gone else top

    def _gone(self, top: list[VectorMatch], found: list[VectorMatch]) -> set[str]:
        """The recent rows in the top n that the approximate search did not return and Chroma no longer holds
        (another process deleted them), dropped from the buffer. Only rows that made the top n are read back:
        reading every unseen recent row made each query after a large ingest 1.5-5x slower (review 375 #5)."""
        seen = {m.chunk_id for m in found}
        unseen = [m.chunk_id for m in top if m.chunk_id not in seen]
        held: set[str] = set()
        for audience, ids in self.recent.by_partition(unseen).items() if unseen else ():
            if (col := self._partitions.get(audience)) is not None:
                held |= set(col.get(ids=ids, include=[])["ids"])
        gone = set(unseen) - held
        if gone:
            self.recent.drop(gone)
        return gone

    @through_server()
    def get_vectors(self, chunk_ids: Sequence[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        ids = list(chunk_ids)
        if ids:
            self._discover()
        for col in self._partitions.values():
            for start in range(0, len(ids), 1000):
                res = col.get(ids=ids[start : start + 1000], include=["embeddings"])
                for cid, emb in zip(res["ids"], res["embeddings"]):
                    out[cid] = np.asarray(emb, dtype=np.float32)
        return out

    @through_server()
    def count(self) -> int:
        self._discover()
        return sum(col.count() for col in self._partitions.values())

    @through_server()
    def ids(self) -> list[str]:
        self._discover()
        out: list[str] = []
        for col in self._partitions.values():
            out += col.get(include=[])["ids"]
        return out
