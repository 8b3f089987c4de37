"""Fusion: RRF, ranking and keyword coverage against reference.py."""

from __future__ import annotations

import random

import pytest
from reference import reference_coverage, reference_ranks, reference_rrf

from rag_core.search.fusion import coverage, ranks, rrf


def test_rrf_and_ranks():
    fused = rrf([["a", "b"], ["b", "c"]], k=60)
    assert fused["b"] == pytest.approx(1 / 62 + 1 / 61)
    assert ranks(fused)[0] == "b"
    assert fused["c"] == pytest.approx(1 / 62)


def test_rrf_matches_reference_on_random_rankings():
    rng = random.Random(3)
    ids = [f"c{i}" for i in range(40)]
    for _ in range(100):
        rankings = [rng.sample(ids, rng.randint(0, 30)) for _ in range(rng.randint(0, 3))]
        k = rng.choice([1, 10, 60])
        got, want = rrf(rankings, k=k), reference_rrf(rankings, k=k)
        assert got.keys() == want.keys()
        for item, score in want.items():
            assert got[item] == pytest.approx(score, abs=1e-12)


def test_ranks_match_reference_with_ties_and_top_n():
    rng = random.Random(5)
    for _ in range(50):
        scores = {f"c{i}": float(rng.choice([0.5, 1.0, 1.5, rng.random()])) for i in range(rng.randint(0, 300))}
        want = reference_ranks(scores)
        assert ranks(scores) == want
        for n in (1, 5, 30, 1000):
            assert ranks(scores, n) == want[:n]  # the heap path gives the head of the full sort


def test_coverage_counts_synonym_groups():
    weights = {"打车费": 3.0, "报销": 1.0}
    assert coverage(weights, {"出租车", "报销"}, {"打车费": {"出租车"}}) == pytest.approx(1.0)
    assert coverage(weights, {"报销"}, {}) == pytest.approx(0.25)


def test_coverage_matches_reference_on_random_inputs():
    rng = random.Random(8)
    vocab = [f"w{i}" for i in range(20)]
    for _ in range(200):
        weights = {term: rng.choice([0.0, 0.5, rng.random() * 5]) for term in rng.sample(vocab, rng.randint(0, 6))}
        chunk_terms = set(rng.sample(vocab, rng.randint(0, 10)))
        synonyms = {term: set(rng.sample(vocab, rng.randint(1, 3))) for term in rng.sample(vocab, 5)}
        got = coverage(weights, chunk_terms, synonyms)
        assert got == pytest.approx(reference_coverage(weights, chunk_terms, synonyms), abs=1e-12)
