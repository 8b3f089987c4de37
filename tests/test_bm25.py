"""BM25 against a naive reference, exact zeros, filtering and the jieba tokenizer."""

from __future__ import annotations

import math
import random

import pytest

from rag_core.search.bm25 import InvertedIndex
from rag_core.search.fusion import Candidate, Thresholds, coverage, passed_threshold, ranks, rrf
from rag_core.text.tokenizer import expand_query, tokenize


def reference_bm25(corpus: list[list[str]], query: list[str], k1=1.2, b=0.75) -> list[float]:
    """Textbook BM25, written independently: loops over every document."""
    n = len(corpus)
    avg = sum(len(d) for d in corpus) / n
    out = []
    for doc in corpus:
        s = 0.0
        for term in set(query):
            df = sum(1 for d in corpus if term in d)
            tf = doc.count(term)
            if tf == 0:
                continue
            idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
            s += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len(doc) / avg))
        out.append(s)
    return out


def test_matches_reference_on_random_corpora():
    rng = random.Random(7)
    vocab = [f"w{i}" for i in range(40)]
    for _ in range(20):
        corpus = [[rng.choice(vocab) for _ in range(rng.randint(1, 30))] for _ in range(rng.randint(2, 25))]
        query = [rng.choice(vocab) for _ in range(rng.randint(1, 5))]
        idx = InvertedIndex()
        for i, doc in enumerate(corpus):
            idx.add(f"c{i}", doc)
        got = idx.score(query)
        want = reference_bm25(corpus, query)
        for i, w in enumerate(want):
            assert got.get(f"c{i}", 0.0) == pytest.approx(w, abs=1e-9)


def test_exact_zero_when_no_query_term_occurs():
    idx = InvertedIndex()
    idx.add("a", tokenize("国内出差住宿凭发票实报实销，一线城市每晚上限 600 元。"))
    idx.add("b", tokenize("网约车须上传平台电子行程单，现金支付的出租车须保留纸质发票。"))
    scores = idx.score(tokenize("年假有几天？"))
    assert scores == {}  # every chunk: exactly 0
    assert idx.score(tokenize("住宿上限"))["a"] > 0


def test_statistics_use_only_the_allowed_chunks():
    idx = InvertedIndex()
    idx.add("public", ["年假", "天数"])
    idx.add("hidden", ["年假", "薪酬", "机密"])
    assert set(idx.score(["机密"], allowed={"public"})) == set()
    only_public = idx.score(["年假"], allowed={"public"})["public"]
    single = InvertedIndex()
    single.add("public", ["年假", "天数"])
    assert only_public == pytest.approx(single.score(["年假"])["public"])


def test_remove_keeps_the_index_consistent():
    idx = InvertedIndex()
    idx.add("a", ["x", "y"])
    idx.add("b", ["y"])
    idx.remove("a", ["x", "y"])
    assert "x" not in idx.postings and idx.score(["y"]).keys() == {"b"}
    assert idx.total_len == 1


def test_user_dictionary_keeps_hr_words_whole():
    for word in ["年假", "调休", "五险一金", "网约车", "行程单", "实报实销"]:
        assert word in tokenize(f"关于{word}的规定"), word
    assert "oa" in tokenize("在 OA 系统提交") and "600" in tokenize("上限 600 元")
    assert "的" not in tokenize("公司的制度")


def test_synonyms_expand_colloquial_words():
    tokens, added, groups = expand_query("打车费能报吗")
    assert "出租车" in added and "网约车" in added
    assert any("出租车" in g for g in groups.values())


def test_rrf_and_ranks():
    fused = rrf([["a", "b"], ["b", "c"]], k=60)
    assert fused["b"] == pytest.approx(1 / 62 + 1 / 61)
    assert ranks(fused)[0] == "b"
    assert fused["c"] == pytest.approx(1 / 62)


def test_threshold_reasons():
    t = Thresholds(bm25=1.5, min_coverage=0.5, cosine_floor=0.8, cosine_margin=0.05)
    assert passed_threshold(Candidate("x", bm25=2.0, coverage=0.6), t).startswith("BM25")
    assert passed_threshold(Candidate("x", bm25=2.0, coverage=0.2), t) == ""
    assert passed_threshold(Candidate("x", cosine=0.9, margin=0.06), t).startswith("余弦")
    assert passed_threshold(Candidate("x", cosine=0.9, margin=0.01), t) == ""
    assert passed_threshold(Candidate("x", cosine=0.7, margin=0.2), t) == ""


def test_coverage_counts_synonym_groups():
    weights = {"打车费": 3.0, "报销": 1.0}
    assert coverage(weights, {"出租车", "报销"}, {"打车费": {"出租车"}}) == pytest.approx(1.0)
    assert coverage(weights, {"报销"}, {}) == pytest.approx(0.25)


def test_top_n_ranks_equal_the_head_of_the_full_sort():
    rng = random.Random(5)
    for _ in range(50):
        scores = {f"c{i}": float(rng.choice([0.5, 1.0, 1.5, rng.random()])) for i in range(rng.randint(0, 300))}
        for n in (1, 5, 30, 1000):
            assert ranks(scores, n) == ranks(scores)[:n]


def test_cached_statistics_give_the_same_scores():
    index = InvertedIndex()
    rng = random.Random(9)
    words = ["年假", "加班", "报销", "出差", "试用期", "工资"]
    for i in range(200):
        index.add(f"d{i}", [rng.choice(words) for _ in range(rng.randint(1, 12))])
    allowed = {f"d{i}" for i in range(0, 200, 3)}
    stats = index.stats(allowed)
    assert stats[0] == len(allowed)
    assert index.score(["年假", "报销"], allowed, stats=stats) == index.score(["年假", "报销"], allowed)
    assert index.stats() == (len(index), index.total_len)
