"""Reading memories: recall for a question, listings, the audit trail.

Recall ranks a user's active memories by relevance × importance × freshness and
then *selects*: only scores at or above the threshold, at most top_k. Mixed into
MemoryStore; relies on its ``_vectors``, ``_centres_for_model``, ``half_life_days``,
``_check_user``, ``_lock``, ``_conn``, ``embedder`` and settings attributes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

import numpy as np

from ..errors import MemoryStoreError
from ..text.asking import speaks_of_asker
from ..text.inputs import MAX_QUESTION_CHARS
from ..text.pii import redact_text
from ..types import MemoryHit
from . import db
from .centres import centre_rows
from .scoring import as_utc, freshness_by_kind, personal_relevance, relevance
from .text import about_an_outsider, as_the_person, grounded_in, keyword_overlap, keyword_terms


def read_out(row: tuple) -> db.MemoryRecord:
    """A stored row as every reader gets it: text and source masked. A row kept before masking (or written into
    the file by hand) holds raw numbers; masking here, where rows are read, keeps them off the page, out of the
    trace and out of the conversation store, which copies each turn's memories (`redact_text` is idempotent)."""
    rec = db.record_from_row(row)
    return replace(rec, content=redact_text(rec.content), source=redact_text(rec.source))


class RecallMixin:
    def _hits(self, ids: Sequence[str], numbers: dict[str, tuple[float, float, float]]) -> list[MemoryHit]:
        """MemoryHits in the order of `ids`; numbers maps id → (relevance, freshness, score)."""
        if not ids:
            return []
        by_id: dict[str, db.MemoryRecord] = {}
        with self._lock:
            for part in db.batches(list(ids)):
                sql = f"SELECT {db.COLUMNS} FROM memories WHERE id IN ({','.join('?' * len(part))})"
                by_id.update((r[0], read_out(r)) for r in self._conn.execute(sql, part))
        out = []
        for mid in ids:
            rec = by_id[mid]
            rel, fresh, score = numbers[mid]
            out.append(
                MemoryHit(
                    id=rec.id, content=rec.content, kind=rec.kind, importance=rec.importance,
                    relevance=round(rel, 4), freshness=round(fresh, 4), score=round(score, 4),
                    created_at=rec.created_at, last_accessed=rec.last_accessed, access_count=rec.access_count,
                )
            )
        return out

    def _rank(self, user_id: str, query: str, now: datetime, threshold: float | None,
              evidence: str = "") -> list[tuple[str, float, float, float]]:
        """(id, relevance, freshness, score) best first; threshold None keeps every row.

        `evidence`: the text of the sources the answer stands on (titles and clauses); a profile fact
        whose names occur there is as relevant as one the question asks about (`personal_relevance`)."""
        uv = self._vectors(user_id)
        if not uv.ids:
            return []
        qcentre, _ = self._centres_for_model()
        q = centre_rows(np.asarray(self.embedder.embed_query(query), dtype=np.float32)[None, :], qcentre)[0]
        cos = uv.centred @ q
        fresh = freshness_by_kind(uv.created_ts, uv.kinds, now, self.half_life_days)
        base = uv.importance * fresh
        terms = keyword_terms(query)
        personal = speaks_of_asker(query)
        # only a profile fact can be lifted, so only those are looked for in the sources
        grounded = np.asarray([bool(evidence) and kind == "profile" and grounded_in(content, evidence)
                               for content, kind in zip(uv.contents, uv.kinds, strict=True)], dtype=bool)
        # a fact about someone outside the family (kept before write-back and the memories page refused them) is never
        # lifted, whether kept as chat words it (用户同事…) or as typed (我同事…)
        others = np.asarray([kind == "profile" and about_an_outsider(as_the_person(content))
                             for content, kind in zip(uv.contents, uv.kinds, strict=True)], dtype=bool)
        if threshold is None:
            idx = np.arange(len(uv.ids))
        else:  # keyword overlap only where it could lift a memory over the threshold
            bound = personal_relevance(np.asarray(relevance(cos, 1.0 if terms else 0.0, self.calibration)),
                                       uv.kinds, personal, grounded, others) * base
            idx = np.nonzero(bound >= threshold)[0]
        kw = np.array([keyword_overlap(terms, uv.contents[i]) for i in idx], dtype=np.float64)
        own = np.atleast_1d(relevance(cos[idx], kw, self.calibration))
        rel = personal_relevance(own, [uv.kinds[i] for i in idx], personal, grounded[idx], others[idx])
        scores = rel * base[idx]
        # The lift is a floor for selection, not a rank: among lifted facts (all at 0.5) the one the question is
        # about (常驻杭州 for 住宿标准) must come before newer ones that are not, so the order is the score without
        # the lift, then the closeness below the calibration's floor (clipped to 0 there), then the lifted score.
        closeness = cos[idx] + self.calibration.keyword_weight * kw
        rows = zip(idx.tolist(), rel.tolist(), scores.tolist(), (own * base[idx]).tolist(), closeness.tolist(), strict=True)
        ranked = sorted(rows, key=lambda t: (-t[3], -t[4], -t[2], -uv.created_ts[t[0]], uv.ids[t[0]]))
        return [(uv.ids[i], r, float(fresh[i]), s) for i, r, s, *_ in ranked if threshold is None or s >= threshold]

    def search(
        self,
        user_id: str,
        query: str,
        *,
        now: datetime | None = None,
        top_k: int | None = None,
        threshold: float | None = None,
        touch: bool = True,
        evidence: str = "",
    ) -> list[MemoryHit]:
        """Memories worth putting in the prompt for this question; often none at all.

        `evidence`: the sources' titles and text, which ground a profile fact they name."""
        user_id = self._check_user(user_id)
        if not (query or "").strip():
            return []
        now = as_utc(now) if now else db.utc_now()
        k = self.top_k if top_k is None else top_k
        th = self.threshold if threshold is None else threshold
        ranked = self._rank(user_id, query, now, th, evidence)[: max(0, k)]
        if touch:
            self.touch(user_id, [mid for mid, *_ in ranked], now=now)
        return self._hits([r[0] for r in ranked], {r[0]: r[1:] for r in ranked})

    def touch(self, user_id: str, memory_ids: Sequence[str], *, now: datetime | None = None) -> None:
        """Count a use of these memories of `user_id` (access_count + 1, last_accessed = now): the ones a prompt
        got, not every one recall offered (the prompt leaves out one that gives the assistant orders)."""
        if not memory_ids:
            return
        user_id = self._check_user(user_id)
        now = as_utc(now) if now else db.utc_now()
        with self._tx(invalidate=False) as conn:  # not a content change: the vector cache stays valid
            conn.executemany(
                "UPDATE memories SET last_accessed = ?, access_count = access_count + 1 WHERE id = ? AND user_id = ?",
                [(db.iso(now), mid, user_id) for mid in memory_ids],
            )

    def list(
        self,
        user_id: str,
        *,
        now: datetime | None = None,
        query: str | None = None,
        kind: str | None = None,
        include_deleted: bool = False,
    ) -> list[MemoryHit]:
        """Everything of a user, best first: by score for a query, else by importance × freshness."""
        user_id = self._check_user(user_id)
        now = as_utc(now) if now else db.utc_now()
        query = query.strip() if query else None
        if query and len(query) > MAX_QUESTION_CHARS:  # ranked against every memory: bounded as a question is
            raise MemoryStoreError(f"搜索内容太长：{len(query)} 个字，最多 {MAX_QUESTION_CHARS} 个字，请删短后再提交")
        numbers: dict[str, tuple[float, float, float]] = {}
        created_ts: dict[str, float] = {}
        if query:
            for mid, rel, fresh, score in self._rank(user_id, query, now, None):
                numbers[mid] = (rel, fresh, score)
        sql = "SELECT id, importance, created_at, deleted_at, kind FROM memories WHERE user_id = ?"
        args: list = [user_id]
        if kind:
            sql += " AND kind = ?"
            args.append(kind)
        if not include_deleted:
            sql += " AND deleted_at IS NULL"
        with self._lock:
            rows = self._conn.execute(sql, args).fetchall()
        base_relevance = 0.0 if query else 1.0  # with a query, rows _rank skipped (deleted) score 0
        for mid, imp, created, _deleted, kind_ in rows:
            created_ts[mid] = db.parse_iso(created).timestamp()
            if mid not in numbers:
                fresh = float(freshness_by_kind(np.array([created_ts[mid]]), [kind_], now, self.half_life_days)[0])
                numbers[mid] = (base_relevance, fresh, base_relevance * imp * fresh)
        order = sorted(created_ts, key=lambda m: (-numbers[m][2], -created_ts[m], m))
        return self._hits(order, numbers)

    def get(self, memory_id: str, *, user_id: str | None = None) -> db.MemoryRecord | None:
        """The stored row with its audit fields (deleted ones too); None if unknown or not this user's."""
        with self._lock:
            row = self._conn.execute(f"SELECT {db.COLUMNS} FROM memories WHERE id = ?", (memory_id,)).fetchone()
        rec = read_out(row) if row else None
        return rec if rec and (user_id is None or rec.user_id == user_id) else None

    def history(self, user_id: str, memory_id: str | None = None) -> list[dict]:
        """The audit trail (added / strengthened / replaced / deleted / …), oldest first."""
        sql = "SELECT memory_id, action, content, detail, at FROM memory_history WHERE user_id = ?"
        args = [self._check_user(user_id)]
        if memory_id:
            sql += " AND memory_id = ?"
            args.append(memory_id)
        with self._lock:
            rows = self._conn.execute(sql + " ORDER BY seq", args).fetchall()
        # detail too: an added row's is its source line (rules: 我的工资卡是…), as raw as the text it came from
        return [{"memory_id": mid, "action": action, "content": redact_text(content), "detail": redact_text(detail),
                 "at": at}
                for mid, action, content, detail, at in rows]

    def users(self) -> list[str]:
        with self._lock:
            return [r[0] for r in self._conn.execute("SELECT DISTINCT user_id FROM memories ORDER BY user_id")]

    def count(self, user_id: str, *, include_deleted: bool = False) -> int:
        sql = "SELECT COUNT(*) FROM memories WHERE user_id = ?" + ("" if include_deleted else " AND deleted_at IS NULL")
        with self._lock:
            return int(self._conn.execute(sql, (user_id,)).fetchone()[0])
