"""Building benchmark stores through the facade, and timing the ingest stages.

Embedding 100k chunks with e5 on two cores would take hours, so only the first
~1k chunks of the synthetic corpus are embedded for real (that store is the
end-to-end ingest benchmark). Larger stores continue from a copy of it through
the very same `Assistant.ingest_bytes` path, with the model replaced by
`LookupEmbedder`: a chunk seen before gets its real e5 vector from the
embedding cache, any other chunk gets the real e5 vector of a chunk of the same
article (年假天数, 出差补贴 …) plus small deterministic noise (cosine ≈ 0.98 to
it). Queries are always embedded by the real model, and the second ranking model (USE) embeds
every chunk and sentence for real: it is some 25x faster than e5. On request (`perf_child.py build
--stand-in-second`) it too is replaced, by `second_stand_in`: the same lookup over real USE vectors of
a really built store's chunks and sentences (a new sentence gets a real sentence vector of the same
article, a new chunk a real chunk vector), so growing a store to 100k takes minutes, not hours.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np

from bench.synthetic import SyntheticDoc

_ARTICLE = re.compile(r"第[一二三四五六七八九十百]+条\s*(\S+)")


def article_key(index_text: str) -> str:
    """The article title in a chunk's index text head ("… > 第七条 年假天数" → 年假天数)."""
    head = index_text.split("\n", 1)[0]
    found = _ARTICLE.findall(head)
    return found[-1] if found else ""


class StageClock:
    """Accumulates wall time of wrapped callables, by stage name."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)

    def wrap(self, owner, attr: str, stage: str) -> None:
        """Replace `owner.attr` (a method or module function) by a timed wrapper."""
        inner = getattr(owner, attr)

        def timed(*args, **kwargs):
            t0 = time.perf_counter()
            try:
                return inner(*args, **kwargs)
            finally:
                self.seconds[stage] += time.perf_counter() - t0
                self.calls[stage] += 1

        setattr(owner, attr, timed)

    def instrument(self, assistant) -> None:
        """Time the ingest stages on the very objects the facade and its write path use.

        `prepare` is looked up in the module that calls it (rag_core/facade/documents.py); the
        model, the embedding cache, Chroma, the catalog and BM25 are the instances that
        rag_core/search/indexer.py writes through.
        """
        import rag_core.facade.documents as facade_module

        if not getattr(facade_module.prepare, "_bench_timed", False):
            self.wrap(facade_module, "prepare", "prepare (parse, redact, chunk, jieba)")
            facade_module.prepare._bench_timed = True
        self.wrap(assistant.embedder.inner, "embed_passages", "model")
        self.wrap(assistant.embedder, "embed_passages", "embed incl. cache")
        self.wrap(assistant.vectors, "upsert", "chroma upsert")
        self.wrap(assistant.catalog, "insert_version", "catalog insert")
        self.wrap(assistant.catalog, "set_status", "catalog status")
        self.wrap(assistant.keywords, "add", "bm25 add")

    def breakdown(self, total_s: float) -> dict[str, float]:
        """Seconds per stage; the cache share is embed minus model, the rest is 'other'."""
        s = dict(self.seconds)
        embed = s.pop("embed incl. cache", 0.0)
        model = s.get("model", 0.0)
        s["embedding cache (hash, SQLite)"] = max(0.0, embed - model)
        s["other (facade, centroid, retire)"] = max(0.0, total_s - embed - sum(v for k, v in s.items() if k not in (
            "model", "embedding cache (hash, SQLite)")))
        return s


def ingest_all(assistant, docs: Iterable[SyntheticDoc], on_report: Callable | None = None) -> dict:
    """Ingest documents through the facade; counts of statuses, chunks and seconds."""
    statuses: dict[str, int] = defaultdict(int)
    chunks = 0
    t0 = time.perf_counter()
    for doc in docs:
        rep = assistant.ingest_bytes(doc.data, doc.filename, audience=doc.audience)
        if not rep.ok:
            raise RuntimeError(rep.error)
        statuses[rep.status] += 1
        chunks += rep.chunk_count
        if on_report:
            on_report(rep)
    return {"seconds": time.perf_counter() - t0, "chunks": chunks, "statuses": dict(statuses)}


def cached_vectors(cache_path: Path, model_id: str) -> dict[str, np.ndarray]:
    """hash → vector rows of a CachedEmbedder SQLite file."""
    out: dict[str, np.ndarray] = {}
    with sqlite3.connect(str(cache_path)) as db:
        for h, blob in db.execute("SELECT hash, vector FROM embeddings WHERE model=?", (model_id,)):
            out[h] = np.frombuffer(blob, dtype=np.float32)
    return out


class LookupEmbedder:
    """Stands in for e5 when building large stores: real e5 vectors reused with small noise.

    `pool` maps the index texts of really embedded chunks to their vectors. `kind_of` (optional) sorts
    texts into kinds (a chunk, a sentence): a new text then gets a vector of its own kind.
    """

    def __init__(self, pool: dict[str, np.ndarray], model_id: str = "e5", sigma: float = 0.2,
                 kind_of: Callable[[str], str] | None = None):
        self.model_id = model_id
        self.dim = len(next(iter(pool.values())))
        self.sigma = sigma
        self.kind_of = kind_of or (lambda text: "")
        self._by_hash = {self._hash(t): v for t, v in pool.items()}
        self._by_article: dict[tuple[str, str], list[np.ndarray]] = defaultdict(list)
        self._by_kind: dict[str, list[np.ndarray]] = defaultdict(list)
        for text, vec in pool.items():
            kind = self.kind_of(text)
            self._by_article[kind, article_key(text)].append(vec)
            self._by_kind[kind].append(vec)
        self._all = list(pool.values())
        self.computed = 0

    @staticmethod
    def _hash(text: str) -> str:
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def vector(self, text: str) -> np.ndarray:
        h = self._hash(text)
        exact = self._by_hash.get(h)
        if exact is not None:
            return exact
        kind = self.kind_of(text)
        bases = self._by_article.get((kind, article_key(text))) or self._by_kind.get(kind) or self._all
        base = bases[int(h[:8], 16) % len(bases)]
        rng = np.random.default_rng(int(h[8:24], 16))
        vec = base + self.sigma * rng.standard_normal(self.dim).astype(np.float32) / np.sqrt(self.dim)
        return (vec / np.linalg.norm(vec)).astype(np.float32)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        self.computed += len(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.vstack([self.vector(t) for t in texts])

    def embed_query(self, text: str) -> np.ndarray:
        raise RuntimeError("LookupEmbedder embeds passages only; open the store with the real model to search")


def pool_from_store(data_dir: Path, model_id: str = "e5") -> dict[str, np.ndarray]:
    """index text → real vector for every chunk of a really embedded store."""
    from rag_core.documents.catalog import Catalog
    from rag_core.documents.prepare import index_text
    from rag_core.search.embedding import content_hash

    vectors = cached_vectors(data_dir / "embedding_cache.sqlite3", model_id)
    catalog = Catalog(data_dir / "catalog.sqlite3")
    try:
        texts = [index_text(c) for c in catalog.all_chunks()]
    finally:
        catalog.close()
    return {t: vectors[content_hash(t)] for t in texts if content_hash(t) in vectors}


def second_kind(text: str) -> str:
    """A second-model text is a chunk's (heading, then several sentences) or one sentence's (heading, sentence)."""
    from rag_core.text.sentences import split_sentences

    body = text.split("\n", 1)[-1]
    return "sentence" if len(split_sentences(body)) <= 1 else "chunk"


def second_pool_from_store(data_dir: Path, model_id: str = "use") -> dict[str, np.ndarray]:
    """Second-model text → real vector, for every chunk and sentence text of a store whose USE rows are real.

    The vectors are the second model's cache rows (float32, as the model gave them; the second-model
    index keeps the same vectors as float16), found by the texts `SecondModel.rows` embeds.
    """
    from rag_core.documents.catalog import Catalog
    from rag_core.search.embedding import content_hash
    from rag_core.search.sentence_index import second_chunk_text, second_sentence_texts

    vectors = cached_vectors(data_dir / "second_embedding_cache.sqlite3", model_id)
    catalog = Catalog(data_dir / "catalog.sqlite3")
    try:
        texts = [t for c in catalog.all_chunks() for t in (second_chunk_text(c), *second_sentence_texts(c))]
    finally:
        catalog.close()
    return {t: vectors[h] for t in texts if (h := content_hash(t)) in vectors}


def second_stand_in(pool: dict[str, np.ndarray], model_id: str = "use", sigma: float = 0.2) -> LookupEmbedder:
    """Stands in for the second model (USE) when growing large stores: its real chunk and sentence vectors reused.

    A text of the pool gets its own vector; a new one the vector of a pool text of the same kind
    (chunk or sentence) and article plus small noise seeded by the text's hash, so a build is
    deterministic. Passages only: a store built with it is searched with the real USE.
    """
    return LookupEmbedder(pool, model_id=model_id, sigma=sigma, kind_of=second_kind)


def revise(text: str, mark: int) -> str:
    """The same policy with one sentence changed (a revision note in its third paragraph)."""
    paragraphs = text.split("\n\n")
    body = [i for i, p in enumerate(paragraphs) if p and not p.startswith("#")]
    target = body[min(2, len(body) - 1)]
    paragraphs[target] = paragraphs[target] + f"本款于第{mark}次修订时调整。"
    return "\n\n".join(paragraphs)
