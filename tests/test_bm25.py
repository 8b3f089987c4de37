"""The BM25 inverted index: scores against the textbook formula in reference.py, exact zeros, filtering, removal."""

from __future__ import annotations

import random

import pytest
from reference import reference_bm25

from rag_core.search.bm25 import InvertedIndex
from rag_core.text.tokenizer import tokenize


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


def test_allowed_subset_scores_as_if_only_that_subset_were_indexed():
    rng = random.Random(11)
    vocab = [f"w{i}" for i in range(30)]
    corpus = [[rng.choice(vocab) for _ in range(rng.randint(1, 20))] for _ in range(60)]
    index = InvertedIndex()
    for i, doc in enumerate(corpus):
        index.add(f"c{i}", doc)
    allowed = sorted(rng.sample(range(len(corpus)), 25))
    query = [rng.choice(vocab) for _ in range(4)]
    got = index.score(query, allowed={f"c{i}" for i in allowed})
    want = reference_bm25([corpus[i] for i in allowed], query)
    for i, expected in zip(allowed, want, strict=True):
        assert got.get(f"c{i}", 0.0) == pytest.approx(expected, abs=1e-9)


def test_scores_are_term_score_exactly_and_follow_every_change():
    """The scoring loop inlines term_score with norms kept per avgdl: same floats, bit for bit, after adds and removes."""
    from rag_core.search.bm25 import idf, term_score

    def by_formula(index: InvertedIndex, query: list[str], allowed=None) -> dict[str, float]:
        ids = [c for c in index.lengths if allowed is None or c in allowed]
        n, avg = len(ids), sum(index.lengths[c] for c in ids) / len(ids)
        out: dict[str, float] = {}
        for term in dict.fromkeys(query):
            items = [(c, tf) for c, tf in index.postings.get(term, {}).items() if c in ids]
            for cid, tf in items:
                out[cid] = out.get(cid, 0.0) + term_score(tf, index.lengths[cid], avg, idf(n, len(items)))
        return out

    rng = random.Random(11)
    vocab = [f"w{i}" for i in range(30)]
    index = InvertedIndex()
    for step in range(60):
        index.add(f"c{step % 25}", [rng.choice(vocab) for _ in range(rng.randint(1, 20))])
        if step % 7 == 3:
            index.remove(f"c{(step * 3) % 25}")
        query = [rng.choice(vocab) for _ in range(4)]
        allowed = {c for c in index.lengths if rng.random() < 0.6} or None
        assert index.score(query) == by_formula(index, query)
        if allowed:
            assert index.score(query, allowed) == by_formula(index, query, allowed)


def test_top_gives_score_and_ranks_exactly_after_every_change():
    """Search's numpy path (`top`): the same floats as `score`, bit for bit, and `fusion.ranks`' order
    (ties by id) for any n, over every visible subset, after adds and removes."""
    from rag_core.search.fusion import ranks

    rng = random.Random(5)
    vocab = [f"w{i}" for i in range(12)]  # few words and short chunks: many equal scores, so ties by id matter
    index = InvertedIndex()
    for step in range(80):
        index.add(f"c{step % 40:02d}", [rng.choice(vocab) for _ in range(rng.randint(1, 6))])
        if step % 9 == 4:
            index.remove(f"c{(step * 7) % 40:02d}")
        query = [rng.choice(vocab) for _ in range(3)]
        for allowed in (None, frozenset(c for c in index.lengths if rng.random() < 0.5), {c for c in index.lengths}):
            want = index.score(query, allowed)
            for n in (1, 3, 10, 100):
                got = index.top(query, n, allowed)
                assert got.order == ranks(want, n)
                assert all(got.get(c) == s for c, s in want.items())
                assert got.get("nowhere", -1.0) == -1.0
            assert all(got.get(c) == 0.0 for c in index.lengths if c not in want)
