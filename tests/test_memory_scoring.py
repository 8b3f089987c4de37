"""Pure scoring: freshness halves at the half-life, scores are monotonic, nothing reads a clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag_core.memory.scoring import (
    CALIBRATIONS,
    DEFAULT_IMPORTANCE,
    age_days,
    default_importance,
    freshness,
    freshness_from_age,
    memory_score,
    relevance,
    retention_score,
)

NOW = datetime(2026, 6, 1, tzinfo=UTC)
E5 = CALIBRATIONS["e5"]


def test_freshness_is_one_now_and_halves_at_each_half_life():
    assert freshness(NOW, NOW, 30) == pytest.approx(1.0)
    assert freshness(NOW - timedelta(days=30), NOW, 30) == pytest.approx(0.5)
    assert freshness(NOW - timedelta(days=60), NOW, 30) == pytest.approx(0.25)
    assert freshness(NOW - timedelta(days=7), NOW, 7) == pytest.approx(0.5)


def test_four_hundred_days_is_practically_gone():
    # seed 000 Checkpoint 1: a 400-day-old memory has freshness 0.000 at a 30-day half-life
    assert freshness(NOW - timedelta(days=400), NOW, 30) < 1e-3


def test_future_and_naive_timestamps():
    assert freshness(NOW + timedelta(days=3), NOW, 30) == 1.0  # clock skew never boosts above 1
    naive = datetime(2026, 5, 2)  # naive is read as UTC
    assert age_days(naive, NOW) == pytest.approx(30.0)


def test_bad_half_life_is_refused():
    with pytest.raises(ValueError):
        freshness_from_age(1.0, 0)


@given(age=st.floats(0, 3650), half=st.floats(0.5, 365))
def test_freshness_property_halves_per_half_life(age, half):
    f0 = float(freshness_from_age(age, half))
    f1 = float(freshness_from_age(age + half, half))
    assert 0.0 <= f1 <= f0 <= 1.0
    if f0 > 1e-300:
        assert f1 == pytest.approx(f0 / 2, rel=1e-9)


@given(
    a=st.floats(0, 1), b=st.floats(0, 1), imp=st.floats(0, 1), fresh=st.floats(0, 1), rel=st.floats(0, 1)
)
def test_scores_are_monotonic_in_every_factor(a, b, imp, fresh, rel):
    lo, hi = min(a, b), max(a, b)
    assert memory_score(lo, imp, fresh) <= memory_score(hi, imp, fresh)
    assert memory_score(rel, lo, fresh) <= memory_score(rel, hi, fresh)
    assert memory_score(rel, imp, lo) <= memory_score(rel, imp, hi)
    assert retention_score(lo, fresh) <= retention_score(hi, fresh)
    assert 0.0 <= memory_score(rel, imp, fresh) <= 1.0


@given(c1=st.floats(-1, 1), c2=st.floats(-1, 1), kw=st.floats(0, 1))
def test_relevance_is_clipped_and_monotonic(c1, c2, kw):
    lo, hi = min(c1, c2), max(c1, c2)
    r_lo, r_hi = relevance(lo, kw, E5), relevance(hi, kw, E5)
    assert 0.0 <= r_lo <= r_hi <= 1.0
    assert relevance(hi, 0.0, E5) <= relevance(hi, kw, E5)


def test_relevance_anchor_points():
    assert relevance(E5.floor, 0.0, E5) == 0.0  # the "no evidence" level
    assert relevance(E5.floor + E5.span, 0.0, E5) == pytest.approx(1.0)
    assert relevance(E5.floor + E5.span / 2, 0.0, E5) == pytest.approx(0.5)
    arr = relevance(np.array([-0.5, 0.3, 0.9]), np.zeros(3), E5)
    assert isinstance(arr, np.ndarray) and arr.tolist() == pytest.approx([0.0, 0.5, 1.0])


def test_default_importance_by_kind():
    assert DEFAULT_IMPORTANCE == {"profile": 0.8, "preference": 0.7, "episode": 0.4, "interaction": 0.1}
    with pytest.raises(ValueError):
        default_importance("gossip")


def test_an_echo_can_never_reach_the_default_threshold():
    # relevance <= 1 and freshness <= 1, so an interaction at 0.1 scores <= 0.1 < threshold
    assert memory_score(1.0, default_importance("interaction"), 1.0) < E5.threshold
    # while a fresh profile fact passes with a moderate relevance
    assert memory_score(0.3, default_importance("profile"), 1.0) >= E5.threshold
