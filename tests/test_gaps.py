"""Gap grouping: pure clustering on vectors (no model), and the group records built from it."""

from __future__ import annotations

import numpy as np
import pytest

from rag_core.insights.gaps import cluster, group_gaps, medoid, normalise
from rag_core.insights.records import GapItem


def unit(*xs: float) -> np.ndarray:
    v = np.asarray(xs, dtype=np.float64)
    return v / np.linalg.norm(v)


def test_close_vectors_group_and_far_ones_stay_apart():
    vecs = np.vstack([unit(1, 0.05, 0), unit(1, -0.05, 0), unit(1, 0, 0.05), unit(0, 1, 0), unit(0, 1, 0.04)])
    assert cluster(vecs, 0.9) == [[0, 1, 2], [3, 4]]


def test_nothing_is_grouped_above_a_threshold_no_pair_reaches():
    vecs = np.vstack([unit(1, 0, 0), unit(0, 1, 0), unit(0, 0, 1)])
    assert cluster(vecs, 0.5) == [[0], [1], [2]]
    assert cluster(np.zeros((0, 3)), 0.5) == []


def test_average_linkage_does_not_chain_two_topics_through_one_wording():
    # a—b close, b—c close, a—c far: single linkage would make one group of three
    a, c = unit(1, 0), unit(0, 1)
    b = unit(1, 1)
    groups = cluster(np.vstack([a, b, c]), 0.7)
    assert len(groups) == 2, groups


def test_weights_count_repeated_wordings():
    # p and q merge first; whether r joins them depends on which of the two was asked more often
    def at(degrees: float) -> np.ndarray:
        return unit(np.cos(np.radians(degrees)), np.sin(np.radians(degrees)))

    vecs = np.vstack([at(0), at(-8), at(25.8)])  # r·p = 0.90, r·q = 0.83
    assert cluster(vecs, 0.86, weights=[5, 1, 1]) == [[0, 1, 2]]
    assert cluster(vecs, 0.86, weights=[1, 5, 1]) == [[0, 1], [2]]


def test_medoid_is_the_most_central_member():
    vecs = np.vstack([unit(1, 0.3), unit(1, 0), unit(1, -0.3)])
    assert medoid(vecs, [0, 1, 2], [1, 1, 1]) == 1


def test_normalise_ignores_punctuation_case_and_spaces():
    assert normalise("公司 有班车吗？") == normalise("公司有班车吗?") == normalise("公司有班车吗")


def items_and_vectors():
    rows = [
        ("公司有班车吗？", "2026-03-01T09:00:00+00:00", "zero_hit", "zhang", unit(1, 0.02, 0)),
        ("有没有通勤班车？", "2026-03-05T09:00:00+00:00", "refused", "li", unit(1, -0.02, 0)),
        ("公司有班车吗", "2026-03-09T09:00:00+00:00", "disliked", "wang", unit(1, 0.02, 0)),
        ("健身房几点开门？", "2026-03-02T09:00:00+00:00", "zero_hit", "zhang", unit(0, 1, 0)),
    ]
    items = [GapItem(text=t, when=w, kind=k, user=u, nearest={"chunk_id": "d@v1#0", "title": "考勤"} if i == 0 else {})
             for i, (t, w, k, u, _) in enumerate(rows)]
    return items, np.vstack([r[-1] for r in rows])


def test_group_records_count_dates_wordings_kinds_and_nearest():
    items, vecs = items_and_vectors()
    groups = group_gaps(items, vecs, 0.9)
    assert [g.count for g in groups] == [3, 1]
    bus = groups[0]
    assert bus.first_seen.startswith("2026-03-01") and bus.last_seen.startswith("2026-03-09")
    assert bus.questions[0] in ("公司有班车吗？", "公司有班车吗") and "有没有通勤班车？" in bus.questions
    assert bus.kinds == {"zero_hit": 1, "refused": 1, "disliked": 1}
    assert bus.nearest["title"] == "考勤"
    assert groups[1].representative == "健身房几点开门？"


@pytest.mark.parametrize("with_users", [False, True])
def test_user_names_only_when_asked_for(with_users: bool):
    items, vecs = items_and_vectors()
    groups = group_gaps(items, vecs, 0.9, with_users=with_users)
    names = {u for g in groups for u in g.users}
    assert names == ({"zhang", "li", "wang"} if with_users else set())
    assert "zhang" not in str([g.to_dict() for g in group_gaps(items, vecs, 0.9)])
