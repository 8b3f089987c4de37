"""Knowledge gaps: unanswered questions grouped by meaning.

Pure functions on vectors and records, so the grouping is tested without a model.
The grouping is average-linkage agglomerative clustering on cosine similarity:
two groups merge while the mean similarity between their members stays above
the threshold, so one odd wording cannot chain two topics together (single
linkage would). Identical wordings are clustered once and counted by weight.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

import numpy as np

from .records import GapGroup, GapItem

# Mean e5 cosine between wordings of one question (measured in docs/insights.md).
GAP_SIMILARITY = 0.90
MAX_WORDINGS = 1500  # distinct wordings clustered at most (the most recent); O(n²) memory
EXAMPLES = 5  # wordings shown per group

_PUNCT = re.compile(r"[\s，。？！?!,.、；;：:“”\"'（）()]+")


def normalise(text: str) -> str:
    """The key under which two wordings count as the same text (case, spaces, punctuation)."""
    return _PUNCT.sub("", text).lower()


def cluster(vectors: np.ndarray, threshold: float, weights: Sequence[float] | None = None) -> list[list[int]]:
    """Average-linkage clusters of unit `vectors`; each a list of row indexes, in row order.

    `weights` count repeated wordings (a wording asked five times weighs five).
    """
    n = len(vectors)
    if n == 0:
        return []
    vecs = np.asarray(vectors, dtype=np.float64)
    w = np.ones(n) if weights is None else np.asarray(weights, dtype=np.float64)
    sim = vecs @ vecs.T
    np.fill_diagonal(sim, -np.inf)
    members: dict[int, list[int]] = {i: [i] for i in range(n)}
    mass = w.copy()
    alive = np.ones(n, dtype=bool)
    while len(members) > 1:
        flat = int(np.argmax(sim))
        a, b = divmod(flat, n)
        if sim[a, b] < threshold:
            break
        a, b = min(a, b), max(a, b)
        # the merged group's mean similarity to every other group, by member mass
        merged = (mass[a] * sim[a] + mass[b] * sim[b]) / (mass[a] + mass[b])
        sim[a], sim[:, a] = merged, merged
        sim[a, a] = -np.inf
        sim[b], sim[:, b] = -np.inf, -np.inf
        mass[a] += mass[b]
        alive[b] = False
        members[a] += members.pop(b)
    return [sorted(group) for _, group in sorted(members.items())]


def medoid(vectors: np.ndarray, rows: Sequence[int], weights: Sequence[float]) -> int:
    """The row most similar on average to the group's members (weighted): the representative."""
    if len(rows) == 1:
        return rows[0]
    sub = np.asarray(vectors, dtype=np.float64)[list(rows)]
    w = np.asarray([weights[r] for r in rows], dtype=np.float64)
    scores = (sub @ sub.T) @ w
    return rows[int(np.argmax(scores))]


def group_gaps(
    items: Sequence[GapItem], vectors: np.ndarray, threshold: float = GAP_SIMILARITY, *, with_users: bool = False
) -> list[GapGroup]:
    """Group the gap items (one vector each) by meaning; largest and most recent groups first."""
    if not len(items):
        return []
    by_text: dict[str, list[int]] = {}
    for i, item in enumerate(items):
        by_text.setdefault(normalise(item.text), []).append(i)
    keys = sorted(by_text, key=lambda k: max(items[i].when for i in by_text[k]), reverse=True)[:MAX_WORDINGS]
    first_rows = [by_text[k][0] for k in keys]
    uniq = np.asarray(vectors)[first_rows]
    weights = [len(by_text[k]) for k in keys]
    groups: list[GapGroup] = []
    for rows in cluster(uniq, threshold, weights):
        item_rows = [i for r in rows for i in by_text[keys[r]]]
        group_items = [items[i] for i in item_rows]
        wordings = Counter(items[by_text[keys[r]][0]].text for r in rows for _ in by_text[keys[r]])
        representative = items[first_rows[medoid(uniq, rows, weights)]].text
        times = sorted(item.when for item in group_items)
        groups.append(
            GapGroup(
                representative=representative,
                count=len(group_items),
                first_seen=times[0],
                last_seen=times[-1],
                questions=[text for text, _ in wordings.most_common(EXAMPLES)],
                kinds=dict(Counter(item.kind for item in group_items)),
                nearest=_nearest(group_items, representative),
                users=sorted({item.user for item in group_items if item.user}) if with_users else [],
            )
        )
    groups.sort(key=lambda g: (-g.count, _desc(g.last_seen)))
    return groups


def _nearest(items: Sequence[GapItem], representative: str) -> dict:
    """The clause nearest to the group: the representative's, else the one most members came closest to."""
    for item in items:
        if item.text == representative and item.nearest:
            return item.nearest
    found = Counter(item.nearest.get("chunk_id", "") for item in items if item.nearest)
    if not found:
        return {}
    best = found.most_common(1)[0][0]
    return next(item.nearest for item in items if item.nearest.get("chunk_id", "") == best)


def _desc(text: str) -> tuple[int, ...]:
    """Sort key that orders ISO timestamps newest first."""
    return tuple(-ord(c) for c in text)
