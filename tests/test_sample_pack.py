"""The shipped sample vectors (data/sample_vectors.npz): used only when they fit, and then nothing is embedded.

The fast tests build a pack for the fake embedder with the same writer the real one
was built with; the shipped pack is checked against the sample files, the settings
and the texts the samples' ingest embeds (no model), and, in the slow tier, against
the real e5 model.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from rag_core.assistant import SAMPLES_DIR
from rag_core.documents.prepare import index_text, prepare
from rag_core.facade.documents import SAMPLE_PACK
from rag_core.search.embedding import content_hash
from rag_core.search.sample_pack import (
    chunking_key,
    file_digests,
    load_pack,
    model_version,
    sample_files,
    save_pack,
)
from rag_core.search.sentence_index import sentence_texts
from rag_core.settings import Settings
from tests.fakes import BigramEmbedder, fake_assistant


def embedded_texts(folder: Path, settings: Settings) -> tuple[list[str], list[str]]:
    """(chunk texts, sentence texts) the samples' ingest sends to the main model."""
    chunks = []
    for path in sample_files(folder):
        chunks += prepare(path.read_bytes(), path.name, settings).chunks
    return [index_text(c) for c in chunks], [t for c in chunks for t in sentence_texts(c)]


def rows(data_dir: Path, name: str) -> dict:
    with sqlite3.connect(data_dir / name) as db:
        return {r[0]: r[1:] for r in db.execute("SELECT chunk_id, chunk, sentences FROM vectors")}


class ShiftedBigrams(BigramEmbedder):
    """Same model id, other vectors: a changed model that kept its name."""

    def vector(self, text: str) -> np.ndarray:
        return np.roll(super().vector(text), 1)


def fake_pack(tmp_path: Path, folder: Path = SAMPLES_DIR) -> Path:
    """A pack of the fake embedder's vectors, written like bench/sample_pack.py writes the shipped one."""
    settings = Settings(data_dir=tmp_path / "unused")
    chunk_texts, sentences = embedded_texts(folder, settings)
    model = BigramEmbedder()
    path = tmp_path / "fake_pack.npz"
    save_pack(path, model_id=model.model_id, files=file_digests(sample_files(folder)),
              chunking=chunking_key(settings), probe_text=chunk_texts[0], probe_vector=model.vector(chunk_texts[0]),
              exact={content_hash(t): model.vector(t) for t in chunk_texts},
              half={content_hash(t): model.vector(t) for t in sentences})
    return path


def test_a_fitting_pack_leaves_nothing_to_embed_and_builds_the_same_store(tmp_path):
    pack = fake_pack(tmp_path)
    plain = fake_assistant(tmp_path / "plain")
    plain.ensure_samples(pack=None)
    assert plain.embedder.computed > 0
    packed = fake_assistant(tmp_path / "packed")
    seen = []
    reports = packed.ensure_samples(pack=pack, on_progress=lambda done, total, name: seen.append((done, total, name)))
    assert all(r.ok for r in reports)
    assert packed.embedder.computed == 0, packed.sample_pack_status
    assert "使用预先计算的示例向量" in packed.sample_pack_status
    assert [s[:2] for s in seen] == [(i, 8) for i in range(9)] and seen[0][2] == "01_attendance_leave.md"
    assert rows(tmp_path / "plain", "sentences.sqlite3") == rows(tmp_path / "packed", "sentences.sqlite3")
    for question in ("年假有几天？", "出差住宿标准是多少？", "公司有班车吗？"):
        a, b = plain.search(question), packed.search(question)
        assert [(h.chunk.chunk_id, h.scores.probability) for h in a.hits] == \
            [(h.chunk.chunk_id, h.scores.probability) for h in b.hits]


def test_a_changed_model_under_the_same_name_does_not_use_the_pack(tmp_path):
    pack = fake_pack(tmp_path)
    a = fake_assistant(tmp_path / "store", embedder=ShiftedBigrams())
    a.ensure_samples(pack=pack)
    assert a.embedder.computed > 0 and "不同" in a.sample_pack_status
    vectors = a.vectors.get_vectors([c.chunk_id for c in a.catalog.all_chunks()][:5])
    model = ShiftedBigrams()
    for cid, vec in vectors.items():
        chunk = next(c for c in a.catalog.all_chunks() if c.chunk_id == cid)
        assert np.allclose(vec, model.vector(index_text(chunk)), atol=1e-6)


def test_changed_sample_files_or_chunking_are_indexed_by_the_model(tmp_path):
    pack = fake_pack(tmp_path)
    folder = tmp_path / "samples"
    shutil.copytree(SAMPLES_DIR, folder)
    path = sample_files(folder)[0]
    path.write_text(path.read_text(encoding="utf-8") + "\n\n第九十九条 新增条款。\n", encoding="utf-8")
    changed = fake_assistant(tmp_path / "changed")
    changed.ensure_samples(folder, pack=pack)
    assert changed.sample_pack_status == "示例制度文件与预先计算时不同"
    whole = fake_assistant(tmp_path / "whole")
    whole.ensure_samples(folder, pack=None)
    assert changed.embedder.computed == whole.embedder.computed  # every text, not just the changed file's

    rechunked = fake_assistant(tmp_path / "rechunked", chunk_size=300)
    rechunked.ensure_samples(pack=pack)
    assert rechunked.sample_pack_status == "切块设置与预先计算时不同" and rechunked.embedder.computed > 0


def test_an_unreadable_or_missing_pack_means_indexing(tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a pack")
    for pack in (bad, tmp_path / "missing.npz"):
        a = fake_assistant(tmp_path / pack.stem)
        assert all(r.ok for r in a.ensure_samples(pack=pack))
        assert a.embedder.computed > 0 and a.sample_pack_status == "没有预先计算的示例向量"


def test_the_shipped_pack_matches_the_samples_the_settings_and_what_ingest_embeds():
    """Fails after a change to the samples, the chunking or the model package: run bench/sample_pack.py."""
    pack = load_pack(SAMPLE_PACK)
    assert pack is not None, "data/sample_vectors.npz is missing: python bench/sample_pack.py"
    settings = Settings()
    assert pack.manifest["files"] == file_digests(sample_files(SAMPLES_DIR))
    assert pack.manifest["chunking"] == chunking_key(settings)
    assert pack.model_id == settings.embedding_model == "e5"
    assert pack.manifest["model_version"] == model_version("e5")
    chunk_texts, sentences = embedded_texts(SAMPLES_DIR, settings)
    assert set(pack.hashes) == {content_hash(t) for t in chunk_texts + sentences}
    assert SAMPLE_PACK.stat().st_size < 700_000  # kept small: chunk vectors float32, sentences float16


@pytest.mark.integration
def test_the_real_model_gives_the_shipped_vectors(tmp_path):
    from rag_core.search.embedding import CachedEmbedder, E5Embedder
    from rag_core.search.sample_pack import probe_matches

    pack = load_pack(SAMPLE_PACK)
    cached = CachedEmbedder(E5Embedder(), tmp_path / "cache.sqlite3")
    assert probe_matches(pack, cached)
    chunk_texts, sentences = embedded_texts(SAMPLES_DIR, Settings())
    shipped = dict(zip(pack.hashes, pack.vectors, strict=True))
    some = chunk_texts[::40] + sentences[::120]
    now = cached.inner.embed_passages(some)
    for text, vec in zip(some, now, strict=True):
        assert float(vec @ shipped[content_hash(text)]) > 0.999
