"""The nearest stored wording that passes the match rule, among the standard answers a reader may be served.

Only the served entries (the reader's audience, not held) are asked for: the query is filtered to their ids, so
another audience's or a held entry's wordings never take one of the places. And the search widens while its
furthest wording is still above the cosine floor, so no run of near wordings that fail the word rule hides one
further down that passes it. The rule itself (`matching.is_match`) is unchanged: widening only looks at more
wordings above the same floor. Among wordings equally near (the same question stored twice), the reader's most
specific audience wins, then the newest: not the first stored (`preferred`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from ..errors import StoreDamaged
from .matching import agreement, is_match, wording
from .records import StandardAnswer, StandardMatch

CANDIDATES = 8  # nearest wordings checked against the rule at first
WIDEN = 4  # then this many times as many, while the furthest is still above the floor
TIE = 1e-6  # cosines this close are the same wording's
MAX_FILTER_IDS = 1000  # more served entries than this: the query is not filtered, the widening still serves

UNREADABLE = ("标准答复的检索索引暂时读不出（多半是应用运行时用命令行改动了标准答复）：这个问题已按制度回答；"
              "下一个问题前会自动从标准答复重建索引，无需操作。若反复出现，请重启应用")


class StandardIndexUnreadable(StoreDamaged):
    """Chroma failed on the wordings' collection (embedded Chroma after another process wrote to it: "Nothing found
    on disk"): handled as damage is (the question is answered from the policies, the line shown once), and the
    collection is rebuilt from the table before the next question instead of failing every question until a restart."""

    def __init__(self) -> None:
        super().__init__(UNREADABLE)


def preferred(matches: Sequence[StandardMatch]) -> StandardMatch | None:
    """Among equally near matches (all served to the reader): one for fewer readers than everyone (the managers'
    answer over the one for all), then the fewest labels, then the newest (HR's correction over the old one)."""
    return max(matches, key=lambda m: ("all" not in m.entry.audience, -len(m.entry.audience), m.entry.created_at),
               default=None)


def nearest_match(collection, question: str, vector: np.ndarray, served: Mapping[str, StandardAnswer], *,
                  served_wordings: int, cosine_floor: float, agreement_floor: float) -> StandardMatch | None:
    """The served entry (`served`: by id) whose wording passes the rule with the highest cosine (ties: `preferred`),
    or None.

    `served_wordings`: how many wordings the served entries have (the most a filtered query can return)."""
    total = collection.count()
    if not served or not total:
        return None
    filtered = len(served) <= MAX_FILTER_IDS
    where = {"answer_id": {"$in": sorted(served)}} if filtered else None
    available = min(served_wordings, total) if filtered else total
    asked = wording(question)
    query = np.asarray(vector, dtype=np.float32)[None, :]
    seen: set[str] = set()
    best: list[StandardMatch] = []
    wanted = min(CANDIDATES, available)
    while wanted > 0:
        res = collection.query(query_embeddings=query, n_results=wanted, where=where,
                               include=["distances", "metadatas"])
        cosines = [1.0 - float(d) for d in res["distances"][0]]
        for row_id, cosine, meta in zip(res["ids"][0], cosines, res["metadatas"][0]):
            if cosine < cosine_floor or (best and cosine < best[0].cosine - TIE):
                return preferred(best)  # nearest first: nothing further can pass, or tie
            if row_id in seen:
                continue
            seen.add(row_id)
            entry = served.get(meta["answer_id"])
            if entry is None:  # unfiltered (very many entries): an entry not served takes no decision
                continue
            agree = agreement(asked, wording(meta["wording"]))
            if is_match(cosine, agree, cosine_floor=cosine_floor, agreement_floor=agreement_floor):
                best.append(StandardMatch(entry=entry, wording=meta["wording"], cosine=cosine, agreement=agree))
        if len(cosines) < wanted or wanted >= available:
            return preferred(best)  # every wording there is was looked at
        wanted = min(wanted * WIDEN, available)
    return preferred(best)
