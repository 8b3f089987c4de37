"""Per-user long-term memory in SQLite: recall, write-back, dedup, forgetting, audit.

Why SQLite rather than a Chroma collection:
- dedup and contradiction replacement read, decide and write several rows; one
  ``BEGIN IMMEDIATE`` transaction makes that atomic, even with the CLI and the app
  writing the same file;
- soft delete with reason/time, the replaced-by chain and the history table are
  ordinary columns and rows, and purging past retention is one DELETE;
- recall, listing, dedup and forgetting all run ``WHERE user_id = ?``, so one user
  never sees another's; calls by memory id (uuid4) take an optional ``user_id`` guard;
- recall is brute-force cosine over one user's vectors, cached in numpy: the store's
  part of a recall measured p50 0.4 ms at 1k and ~8–12 ms at 10k memories
  (bench/bench_memory.py), less than embedding the question (~10–20 ms with e5), so
  an ANN index would add a dependency and buy nothing at the sizes forget() keeps.

The vector cache is per user, rebuilt when another connection commits (PRAGMA
data_version) or after bulk changes, and patched in place by add().
"""

from __future__ import annotations

import sqlite3
import threading
import uuid
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from ..errors import MemoryStoreError
from . import db
from .centres import centre_rows, compute_centres, shipped_centres, signature
from .content import checked_content
from .editing import EditingMixin, number_told_again, numbered, restates, without_changed
from .forgetting import REWORDED, TRIMMED, ForgettingMixin, Written, history_seq
from .recall import RecallMixin
from .scoring import (
    KINDS,
    as_utc,
    calibration_for,
    default_importance,
)
from .text import adds_detail, agreeing_slots, conflicting_slots, denies, negated, same_fact_terms, slots
from .writeback import WriteBackMixin

STRENGTHEN_STEP = 0.05  # seed 004 §4: a repeated fact gains a little, never jumps
_CACHED_USERS = 8
_CENTRES: dict[tuple[str, str], tuple[np.ndarray, np.ndarray]] = {}  # per process, across stores


@dataclass
class _UserVectors:
    """One user's active memories as arrays, for scoring without re-reading SQLite."""

    ids: list[str]
    contents: list[str]
    kinds: list[str]
    importance: np.ndarray
    created_ts: np.ndarray  # epoch seconds
    raw: np.ndarray  # (n, dim) normalised embeddings, for dedup
    centred: np.ndarray  # (n, dim) centred and re-normalised, for relevance


class MemoryStore(RecallMixin, ForgettingMixin, WriteBackMixin, EditingMixin):
    """Long-term memories of many users in one SQLite file; every call is scoped by user."""

    def __init__(
        self,
        db_path: Path | str,
        embedder,
        *,
        half_life_days: float = 30.0,
        threshold: float | None = None,
        top_k: int = 3,
        retention_days: float = 30.0,
        interaction_ttl_days: float | None = 14.0,
    ):
        self.db_path = Path(db_path)
        self.embedder = embedder
        self.calibration = calibration_for(embedder.model_id)
        # Plain attributes so a settings change applies on the next call, no restart.
        self.half_life_days = half_life_days
        self.threshold = self.calibration.threshold if threshold is None else threshold
        self.top_k = top_k
        self.retention_days = retention_days
        self.interaction_ttl_days = interaction_ttl_days
        self._lock = threading.RLock()
        try:
            self._conn = db.connect(self.db_path)
            if (check := self._conn.execute("PRAGMA quick_check(1)").fetchone()[0]) != "ok":
                raise sqlite3.DatabaseError(check)
        except sqlite3.DatabaseError as exc:  # a garbled file: one line naming it and the way out
            # SQLite's own words stay the cause: a full disk or a busy file is no damage, and the facade says so
            raise MemoryStoreError(
                f"{self.db_path.name} 已损坏：记忆无法读取。请用 python -m rag_core restore <备份目录> 从备份恢复；"
                "没有备份时把它移走（所有人的记忆会清空），再重新启动"
            ) from exc
        self._centres: tuple[np.ndarray, np.ndarray] | None = None
        self._cache: OrderedDict[str, tuple[tuple[int, int], _UserVectors]] = OrderedDict()
        self._generation = 0

    # ---- plumbing --------------------------------------------------------------------

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    @contextmanager
    def _tx(self, *, invalidate: bool = True):
        """One write transaction; nested use joins the outer one (the lock is re-entrant).

        invalidate=False is for add(), which patches the cached vectors itself.
        """
        with self._lock:
            if self._conn.in_transaction:
                yield self._conn
                self._generation += invalidate
                return
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
                self._conn.execute("COMMIT")
            except BaseException:
                # a failed COMMIT (a full disk, SQLITE_BUSY) may leave the transaction open: the next write would
                # join it and never commit. SQLite may also have rolled it back itself, then there is nothing to do.
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                self._generation += 1
                raise
            self._generation += invalidate

    def _centres_for_model(self) -> tuple[np.ndarray, np.ndarray]:
        """Background means: from this database, else the process, shipped or computed (then saved)."""
        if self._centres is not None:
            return self._centres
        sig, model = signature(), self.embedder.model_id
        with self._lock:
            row = self._conn.execute(
                "SELECT background, query_centre, memory_centre FROM memory_centres WHERE model_id = ?", (model,)
            ).fetchone()
        if row and row[0] == sig:
            self._centres = (db.from_blob(row[1]).copy(), db.from_blob(row[2]).copy())
            return self._centres
        if (model, sig) not in _CENTRES:
            _CENTRES[(model, sig)] = shipped_centres(self.embedder) or compute_centres(self.embedder)
        qc, mc = _CENTRES[(model, sig)]
        with self._tx() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO memory_centres VALUES (?, ?, ?, ?)", (model, sig, db.to_blob(qc), db.to_blob(mc))
            )
        self._centres = (qc, mc)
        return self._centres

    def _vectors(self, user_id: str) -> _UserVectors:
        """The user's active memories as arrays; cached until another connection or a bulk change writes.

        Built under the lock so a concurrent add() cannot patch a snapshot this call then overwrites.
        """
        with self._lock:
            version = (self._generation, self._conn.execute("PRAGMA data_version").fetchone()[0])
            hit = self._cache.get(user_id)
            if hit and hit[0] == version:
                self._cache.move_to_end(user_id)
                return hit[1]
            rows = self._conn.execute(
                "SELECT id, content, kind, importance, created_at, embedding, model_id FROM memories "
                "WHERE user_id = ? AND deleted_at IS NULL ORDER BY created_at, id",
                (user_id,),
            ).fetchall()
            stale = [i for i, r in enumerate(rows) if r[5] is None or r[6] != self.embedder.model_id]
            vecs = [db.from_blob(r[5]) if r[5] is not None else None for r in rows]
            if stale:  # written by another embedder: re-embed so all vectors share one space
                fresh = self.embedder.embed_passages([rows[i][1] for i in stale])
                with self._tx() as conn:
                    for i, v in zip(stale, fresh, strict=True):
                        vecs[i] = v
                        conn.execute(
                            "UPDATE memories SET embedding = ?, model_id = ? WHERE id = ?",
                            (db.to_blob(v), self.embedder.model_id, rows[i][0]),
                        )
                version = (self._generation, version[1])
            dim = int(getattr(self.embedder, "dim", 0) or (len(vecs[0]) if vecs else 0))
            raw = np.vstack(vecs).astype(np.float32) if vecs else np.zeros((0, dim), dtype=np.float32)
            uv = _UserVectors(
                ids=[r[0] for r in rows],
                contents=[r[1] for r in rows],
                kinds=[r[2] for r in rows],
                importance=np.array([r[3] for r in rows], dtype=np.float64),
                created_ts=np.array([db.parse_iso(r[4]).timestamp() for r in rows], dtype=np.float64),
                raw=raw,
                centred=centre_rows(raw, self._centres_for_model()[1]) if len(rows) else raw,
            )
            self._cache[user_id] = (version, uv)
            self._cache.move_to_end(user_id)
            while len(self._cache) > _CACHED_USERS:
                self._cache.popitem(last=False)
            return uv

    @staticmethod
    def _check_user(user_id: str) -> str:
        if not isinstance(user_id, str) or not user_id.strip():
            raise MemoryStoreError("用户标识不能为空")
        return user_id.strip()

    @staticmethod
    def _check_importance(importance: float) -> float:
        try:
            value = float(importance)
        except (TypeError, ValueError):
            raise MemoryStoreError(f"重要性必须是 0 到 1 之间的数字，收到：{importance!r}") from None
        if not 0.0 <= value <= 1.0:
            raise MemoryStoreError(f"重要性必须在 0 到 1 之间，收到：{value}")
        return value

    # ---- writing ---------------------------------------------------------------------

    def add(
        self,
        user_id: str,
        content: str,
        *,
        kind: str = "profile",
        importance: float | None = None,
        created_at: datetime | None = None,
        source: str = "",
        now: datetime | None = None,
    ) -> Written:
        """Store a memory; returns (memory_id, "added" | "strengthened" | "replaced"), with the history entry of
        this telling as `.telling` (`undo` takes back exactly that one when given it).

        A restated fact (same slot value, or a near-duplicate by meaning with the same
        key terms) strengthens the existing row; one that says more (`text.adds_detail`) also gives it its wording,
        the older text kept in history for an undo. A fact that contradicts an active one
        about the same slot (department, city, manager, name) replaces it; the old row
        is soft-deleted with reason "replaced" and points to its successor. A memory that
        says more keeps the rest (`editing.without_changed`): 用户对花生过敏 of 用户常驻杭州，对花生过敏.
        """
        user_id = self._check_user(user_id)
        content = checked_content(content)
        if kind not in KINDS:
            raise MemoryStoreError(f"未知的记忆类型：{kind}（可选：{'/'.join(KINDS)}）")
        imp = default_importance(kind) if importance is None else self._check_importance(importance)
        now = as_utc(now) if now else db.utc_now()
        created = as_utc(created_at) if created_at else now
        vec = np.asarray(self.embedder.embed_passages([content])[0], dtype=np.float32)
        is_fact = kind != "interaction"
        new_slots = slots(content) if is_fact else {}

        self._centres_for_model()  # may write once; keep it out of the transaction below
        with self._tx(invalidate=False) as conn:  # decide and write atomically, so two writers cannot both add
            uv = self._vectors(user_id)
            conflicts, dup = self._match(uv, content, vec, is_fact, new_slots, profile=kind == "profile")
            if dup is not None and not conflicts:
                old_id, old_imp = uv.ids[dup], float(uv.importance[dup])
                new_imp = old_imp if not is_fact else min(1.0, max(old_imp, imp) + STRENGTHEN_STEP)
                # a fact told again is current again: its freshness restarts (the history keeps when it was first
                # told). Only a restatement does this; a recall touches last_accessed, never the age.
                stated = max(float(uv.created_ts[dup]), created.timestamp()) if is_fact else float(uv.created_ts[dup])
                conn.execute(
                    "UPDATE memories SET importance = ?, last_accessed = ?, created_at = ? WHERE id = ? AND user_id = ?",
                    (new_imp, db.iso(now), db.iso(datetime.fromtimestamp(stated, UTC)), old_id, user_id),
                )
                detail = f"importance {old_imp:.2f}→{new_imp:.2f}"
                if is_fact and adds_detail(content, uv.contents[dup]):  # 用户怀孕7个月了 after 用户怀孕了: the detail stays
                    conn.execute("UPDATE memories SET content = ?, embedding = ?, model_id = ? WHERE id = ?",
                                 (content, db.to_blob(vec), self.embedder.model_id, old_id))
                    db.add_history(conn, old_id, user_id, "strengthened", now, content, f"{detail}{REWORDED}{uv.contents[dup]}")
                    with self._lock:  # text and vector changed: read again
                        self._cache.pop(user_id, None)
                    return Written(old_id, "strengthened", telling=history_seq(conn))
                db.add_history(conn, old_id, user_id, "strengthened", now, content, detail)
                telling = history_seq(conn)
                importance, created_ts = uv.importance.copy(), uv.created_ts.copy()
                importance[dup], created_ts[dup] = new_imp, stated
                self._patch(user_id, uv, keep=None, importance=(importance, created_ts))
                return Written(old_id, "strengthened", telling=telling)
            new_id = self._insert(conn, user_id, content, kind, imp, created, source, vec)
            telling = history_seq(conn)
            # a contradicted memory that says more keeps the rest, in place (its vector is read again); undo restores it
            trimmed = {i: rest for i in conflicts if (rest := without_changed(uv.contents[i], new_slots, content))}
            for i, rest in trimmed.items():
                conn.execute("UPDATE memories SET content = ?, embedding = NULL, model_id = NULL WHERE id = ?",
                             (rest, uv.ids[i]))
                db.add_history(conn, uv.ids[i], user_id, TRIMMED, now, rest, f"trimmed_by={new_id}{REWORDED}{uv.contents[i]}")
            if trimmed:
                with self._lock:  # text and vector changed: read again
                    self._cache.pop(user_id, None)
            conflicts = [i for i in conflicts if i not in trimmed]
            for i in conflicts:
                conn.execute(
                    "UPDATE memories SET deleted_at = ?, delete_reason = 'replaced', replaced_by = ? "
                    "WHERE id = ? AND user_id = ? AND deleted_at IS NULL",
                    (db.iso(now), new_id, uv.ids[i], user_id),
                )
                db.add_history(conn, uv.ids[i], user_id, "replaced", now, uv.contents[i], f"replaced_by={new_id}")
            if not trimmed:
                keep = [i for i in range(len(uv.ids)) if i not in set(conflicts)]
                self._patch(user_id, uv, keep=keep, importance=None, new=(new_id, content, kind, imp, created, vec))
            return Written(new_id, "replaced" if conflicts else "trimmed" if trimmed else "added", telling=telling)

    def _patch(self, user_id: str, uv: _UserVectors, *, keep, importance, new=None) -> None:
        """Update the cached vectors after add() instead of re-reading every row."""
        if keep is not None:
            uv = _UserVectors(
                ids=[uv.ids[i] for i in keep], contents=[uv.contents[i] for i in keep],
                kinds=[uv.kinds[i] for i in keep], importance=uv.importance[keep], created_ts=uv.created_ts[keep],
                raw=uv.raw[keep], centred=uv.centred[keep],
            )
        if importance is not None:  # (importance, created_ts) after a restatement
            uv = _UserVectors(uv.ids, uv.contents, uv.kinds, importance[0], importance[1], uv.raw, uv.centred)
        if new is not None:
            mid, content, kind, imp, created, vec = new
            centred = centre_rows(vec[None, :], self._centres_for_model()[1])
            uv = _UserVectors(
                ids=[*uv.ids, mid], contents=[*uv.contents, content], kinds=[*uv.kinds, kind],
                importance=np.append(uv.importance, imp),
                created_ts=np.append(uv.created_ts, db.parse_iso(db.iso(created)).timestamp()),
                raw=np.vstack([uv.raw, vec[None, :]]), centred=np.vstack([uv.centred, centred]),
            )
        with self._lock:
            entry = self._cache.get(user_id)
            if entry is not None:
                self._cache[user_id] = (entry[0], uv)

    def _match(
        self, uv: _UserVectors, content: str, vec: np.ndarray, is_fact: bool, new_slots: dict[str, str],
        profile: bool = False,
    ) -> tuple[list[int], int | None]:
        """(rows the new fact contradicts, the row it restates or None); facts never match echoes."""
        conflicts, dup, dup_cos = [], None, -1.0
        cosines = uv.raw @ vec if len(uv.ids) else np.zeros(0)
        near = np.nonzero(cosines >= self.calibration.dedup_cosine)[0]
        # Only slot facts must be compared with every row; anything else only with near-duplicates.
        # A denial (用户已经不在杭州了) is compared with every row too: it replaces the slot fact it denies.
        candidates = range(len(uv.ids)) if new_slots or (is_fact and negated(content)) else near.tolist()
        if profile and numbered(content)[1]:
            # a number told again (用户工龄10年) is compared with every profile fact, however far its vector
            candidates = sorted(set(candidates) | {i for i, kind in enumerate(uv.kinds) if kind == "profile"})
        near_set = set(near.tolist())
        for i in candidates:
            if (uv.kinds[i] != "interaction") != is_fact:
                continue
            old_slots = slots(uv.contents[i]) if is_fact else {}
            if conflicting_slots(new_slots, old_slots) or (is_fact and (
                    denies(content, uv.contents[i], near=i in near_set)
                    # (a profile fact: episodes with numbers are many, 第3次出差 and 第5次出差 both true)
                    or (profile and uv.kinds[i] == "profile" and number_told_again(content, uv.contents[i])))):
                conflicts.append(i)
                continue
            same = bool(agreeing_slots(new_slots, old_slots)) or (
                i in near_set and same_fact_terms(content, uv.contents[i])
            )
            if same and cosines[i] > dup_cos and (not is_fact or restates(content, uv.contents[i])):
                dup, dup_cos = i, float(cosines[i])
        return conflicts, dup

    def _insert(self, conn, user_id, content, kind, importance, created, source, vec) -> str:
        mid = uuid.uuid4().hex
        conn.execute(
            "INSERT INTO memories (id, user_id, content, kind, importance, created_at, source, embedding, model_id) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (mid, user_id, content, kind, importance, db.iso(created), source, db.to_blob(vec), self.embedder.model_id),
        )
        db.add_history(conn, mid, user_id, "added", created, content, source)
        return mid

    def update_importance(
        self, memory_id: str, importance: float, *, now: datetime | None = None, user_id: str | None = None
    ) -> None:
        value = self._check_importance(importance)
        with self._tx() as conn:
            row = conn.execute(
                "SELECT user_id, importance FROM memories WHERE id = ? AND deleted_at IS NULL", (memory_id,)
            ).fetchone()
            if not row or (user_id is not None and row[0] != user_id):
                raise MemoryStoreError(f"找不到记忆：{memory_id}")
            conn.execute("UPDATE memories SET importance = ? WHERE id = ?", (value, memory_id))
            db.add_history(conn, memory_id, row[0], "importance", as_utc(now) if now else db.utc_now(), "", f"{row[1]:.2f}→{value:.2f}")
