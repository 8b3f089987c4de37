"""Review 56 (memory): a restatement that says more keeps its detail; one that says less leaves the row's text alone.

Real e5 puts 用户怀孕了 and 用户怀孕7个月了 above the dedup cosine, as it does 用户对花生过敏 and 用户对芒果过敏: the
terms decide. `fakes.NearEmbedder` does the same offline: every text lands near every other, so only the terms tell.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from fakes import NearEmbedder

from rag_core.memory import MemoryStore

NOW = datetime(2026, 6, 1, 9, tzinfo=UTC)


@pytest.fixture
def store(tmp_path):
    s = MemoryStore(tmp_path / "m.sqlite3", NearEmbedder())
    yield s
    s.close()


@pytest.mark.parametrize(("first", "second", "kept"), [
    ("我怀孕了", "我怀孕7个月了", "用户怀孕7个月了"),
    ("我对花生过敏", "我对花生和芒果过敏", "用户对花生和芒果过敏"),
    ("我有孩子", "我有两个孩子，都在上小学", "用户有两个孩子，都在上小学"),
    ("我对花生和芒果过敏", "我对花生过敏", "用户对花生和芒果过敏"),  # says less: a pure restatement
    ("我常驻杭州", "我在杭州上班", "用户常驻杭州"),  # says the same in other words
])
def test_a_restatement_with_more_detail_takes_the_new_wording(store, first, second, kept):
    [(mid, action, _)] = store.told_facts("u", first, "", now=NOW - timedelta(days=3))
    told = store.told_facts("u", second, "", now=NOW)
    assert [(m, a) for m, a, _ in told] == [(mid, "strengthened")]
    assert [m.content for m in store.list("u", now=NOW)] == [kept]
    # the vector is the stored text's: it is recalled as what it now says
    assert np.allclose(store._vectors("u").raw[0], store.embedder.vector(kept), atol=1e-6)


def test_undo_of_the_detailed_restatement_brings_back_the_older_wording(store):
    [(mid, _, _)] = store.told_facts("u", "我怀孕了", "", now=NOW - timedelta(days=3))
    before = store.get(mid)
    store.told_facts("u", "我怀孕7个月了", "", now=NOW)
    assert store.get(mid).content == "用户怀孕7个月了"
    assert store.undo([mid], user_id="u", now=NOW) == 1
    after = store.get(mid)
    assert (after.content, after.importance, after.created_at, after.deleted) == (
        "用户怀孕了", before.importance, before.created_at, False)
    assert np.allclose(store._vectors("u").raw[0], store.embedder.vector("用户怀孕了"), atol=1e-6)
    assert any("用户怀孕了" in h["detail"] for h in store.history("u", mid) if h["action"] == "strengthened")


@pytest.mark.parametrize(("mine", "theirs"), [
    ("我怀孕了", "我嫂子怀孕7个月了"), ("我对花生过敏", "我外甥对花生和芒果过敏"), ("我下个月结婚", "我表弟下个月结婚"),
])
def test_a_relatives_fact_never_rewrites_the_persons_own(tmp_path, mine, theirs):
    """Review 199: the relative's words add terms before the shared ones: another subject, not more detail."""
    from rag_core.memory.text import adds_detail

    assert not adds_detail(theirs.replace("我", "用户", 1), mine.replace("我", "用户", 1))
