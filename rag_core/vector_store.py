"""Chroma as the vector store, always fed our own embeddings.

Embedded `PersistentClient` under the data dir by default; `CHROMA_HOST` /
`CHROMA_PORT` switch to `HttpClient` with no other change. Telemetry is off and
no embedding function is attached, so Chroma never tries to download a model.
The collection's metadata records the embedding model; the facade re-embeds
when it changes instead of mixing vector spaces.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from .types import Chunk

COLLECTION = "policy_chunks"


@dataclass
class VectorMatch:
    chunk_id: str
    cosine: float


class VectorStore(Protocol):
    model_id: str | None

    def upsert(self, chunks: Sequence[Chunk], vectors: np.ndarray) -> None: ...
    def delete(self, chunk_ids: Sequence[str]) -> None: ...
    def query(self, vector: np.ndarray, n: int, doc_keys: Sequence[str] | None) -> list[VectorMatch]: ...
    def count(self) -> int: ...
    def ids(self) -> list[str]: ...
    def reset(self, model_id: str) -> None: ...


def doc_key(doc_id: str, version: int) -> str:
    """One value per document version, used to filter to visible versions before scoring."""
    return f"{doc_id}@v{version}"


def _metadata(c: Chunk) -> dict:
    return {
        "doc_id": c.doc_id,
        "version": c.version,
        "doc_key": doc_key(c.doc_id, c.version),
        "chunk_id": c.chunk_id,
        "source": c.source,
        "title": c.title,
        "section": c.section,
        "page": c.page if c.page is not None else -1,
        "audience": "," + ",".join(c.audience) + ",",
        "content_hash": c.content_hash,
        "ingested_at": c.ingested_at,
    }


class ChromaVectorStore:
    def __init__(
        self, path: Path | None = None, host: str = "", port: int = 8000, model_id: str = "", name: str = COLLECTION
    ):
        import chromadb
        from chromadb.config import Settings as ChromaSettings

        chroma_settings = ChromaSettings(anonymized_telemetry=False)
        if host:
            self.client = chromadb.HttpClient(host=host, port=port, settings=chroma_settings)
            self.location = f"http://{host}:{port}"
        else:
            assert path is not None
            Path(path).mkdir(parents=True, exist_ok=True)
            self.client = chromadb.PersistentClient(path=str(path), settings=chroma_settings)
            self.location = str(path)
        self.name = name
        self._collection = self._open(model_id)

    def _open(self, model_id: str):
        col = self.client.get_or_create_collection(
            self.name,
            metadata={"embedding_model": model_id},
            configuration={"hnsw": {"space": "cosine"}},
            embedding_function=None,
        )
        return col

    @property
    def model_id(self) -> str | None:
        meta = self._collection.metadata or {}
        return meta.get("embedding_model")

    def reset(self, model_id: str) -> None:
        """Drop every vector and record a new model (used before a full re-embed)."""
        try:
            self.client.delete_collection(self.name)
        except Exception:  # noqa: BLE001 - absent collection is fine
            pass
        self._collection = self._open(model_id)

    def upsert(self, chunks: Sequence[Chunk], vectors: np.ndarray) -> None:
        if not chunks:
            return
        step = 1000
        for start in range(0, len(chunks), step):
            part = chunks[start : start + step]
            self._collection.upsert(
                ids=[c.chunk_id for c in part],
                embeddings=np.asarray(vectors[start : start + step], dtype=np.float32),
                documents=[c.text for c in part],
                metadatas=[_metadata(c) for c in part],
            )

    def delete(self, chunk_ids: Sequence[str]) -> None:
        ids = list(chunk_ids)
        for start in range(0, len(ids), 1000):
            self._collection.delete(ids=ids[start : start + 1000])

    def query(self, vector: np.ndarray, n: int, doc_keys: Sequence[str] | None) -> list[VectorMatch]:
        """Nearest chunks among the given document versions (None: no filter needed)."""
        if n <= 0 or (doc_keys is not None and not doc_keys):
            return []
        if doc_keys is None:
            where = None
        elif len(doc_keys) > 1:
            where = {"doc_key": {"$in": list(doc_keys)}}
        else:
            where = {"doc_key": doc_keys[0]}
        res = self._collection.query(
            query_embeddings=np.asarray(vector, dtype=np.float32)[None, :],
            n_results=n,
            where=where,
            include=["distances"],
        )
        ids = res["ids"][0] if res["ids"] else []
        dists = res["distances"][0] if res["distances"] else []
        return [VectorMatch(cid, 1.0 - float(d)) for cid, d in zip(ids, dists)]

    def get_vectors(self, chunk_ids: Sequence[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        ids = list(chunk_ids)
        for start in range(0, len(ids), 1000):
            res = self._collection.get(ids=ids[start : start + 1000], include=["embeddings"])
            for cid, emb in zip(res["ids"], res["embeddings"]):
                out[cid] = np.asarray(emb, dtype=np.float32)
        return out

    def count(self) -> int:
        return self._collection.count()

    def ids(self) -> list[str]:
        return list(self._collection.get(include=[])["ids"])
