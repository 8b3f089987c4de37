"""Forgetting: explicit delete, capacity eviction, expiry, purge after retention, erasure.

Forgetting is a design goal, not a clean-up chore (seed 000 §1.2, 坑7): a store that
only grows gets slower, noisier and keeps facts that stopped being true. Every
removal except the two purges is a soft delete with a reason and a time, so it can be
audited and undone until ``purge_deleted`` runs after ``retention_days``.
Mixed into MemoryStore; relies on its ``_tx``, ``_lock``, ``_conn``, ``_cache``,
``_hits``, ``half_life_days``, ``_check_user`` and ``users``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from datetime import datetime, timedelta

import numpy as np

from ..errors import MemoryStoreError
from ..text.pii import redact_text
from ..types import MemoryHit
from . import db
from .scoring import as_utc, freshness_by_kind

EXPIRE_MAX_IMPORTANCE = 0.2  # expiry only touches interaction items at or below this


UNSTRENGTHENED = "unstrengthened"  # history: an undo took a restatement back
UNTOLD = "untold"  # history: an undo took back a telling a later one outlives (我老婆怀孕了, told again with 7个月)
_NAMED = re.compile(r"telling=(\d+)")  # the telling an UNSTRENGTHENED or UNTOLD entry took back, when it names one
KEPT = "kept"  # history: an undo left a row as it was, since the person changed it by hand after the turn
REWORDED = "；原文："  # a restatement's detail when it put more detail into the row's text (`MemoryStore.add`)
TRIMMED = "trimmed"  # the history action of a row a new fact took one of its clauses from (`editing.without_changed`)
_OLD_IMPORTANCE = re.compile(r"importance ([0-9.]+)→")  # the detail `add` writes for a restatement
_HAND = ("importance", "edited")  # history actions of a person's own change (`update_importance`, `update_text`)


class Written(tuple):
    """What `MemoryStore.add` returns: (memory id, "added" | "strengthened" | "replaced" | "trimmed": an older memory
    kept without the clause the new fact changes), as it always has, with
    `telling`: the history entry this telling wrote, for a turn to keep so its undo takes back exactly that one.
    `told_facts` may carry it on its (id, action, text) the same way: Written(id, action, text, telling=...)."""

    telling: int | None

    def __new__(cls, *items, telling: int | None = None) -> Written:
        written = super().__new__(cls, items)
        written.telling = telling
        return written

    def __getnewargs_ex__(self) -> tuple[tuple, dict]:  # copy and pickle keep the telling
        return tuple(self), {"telling": self.telling}


def history_seq(conn) -> int:
    return int(conn.execute("SELECT last_insert_rowid()").fetchone()[0])


def _tellings(conn, memory_id: str) -> list[tuple[int, str, str, str, str]]:
    """(seq, action, detail, at, content) of each telling of a row that no undo took back yet, oldest first: the
    one that added it, then each restatement. A restatement names the importance it started from (and the text,
    when it reworded the row); the telling before it was when the row was last told, which its created_at then
    said. An undo's entry names the telling it took back; an older one without a name took back the latest."""
    told: list[tuple[int, str, str, str, str]] = []
    for seq, action, detail, at, content in conn.execute(
            "SELECT seq, action, detail, at, content FROM memory_history WHERE memory_id = ? AND action IN "
            f"('added', 'strengthened', '{UNSTRENGTHENED}', '{UNTOLD}') ORDER BY seq", (memory_id,)):
        named = _NAMED.search(detail) if action in (UNSTRENGTHENED, UNTOLD) else None
        if action in ("added", "strengthened"):
            told.append((seq, action, detail, at, content))
        elif named:
            told = [t for t in told if t[0] != int(named.group(1))]
        elif told and told[-1][1] == "strengthened":
            told.pop()
    return told


def _rise(detail: str) -> float:
    """How much a restatement raised the row's importance (its detail: importance 0.80→0.85)."""
    found = re.search(r"importance ([0-9.]+)→([0-9.]+)", detail)
    return float(found.group(2)) - float(found.group(1)) if found else 0.0


def _wording(telling: tuple[int, str, str, str, str]) -> str | None:
    """The text a telling gave the row: the one that added it, or a restatement that put more detail in."""
    return telling[4] if telling[1] == "added" or REWORDED in telling[2] else None


def _to_take(tellings: list, named: list[int], bare: int) -> list:
    """The tellings an undo takes back: those the turn's entries name (the history entry each wrote), and for
    each entry with no name (a turn stored before turns kept them) the latest one not named already."""
    taken = [t for t in tellings if t[0] in set(named)]
    rest = [t for t in tellings if t not in taken]
    return sorted(taken + rest[max(0, len(rest) - bare):] if bare else taken)


def _changed_by_hand_since(conn, memory_id: str, seq: int) -> bool:
    marks = ",".join("?" * len(_HAND))
    return conn.execute(f"SELECT 1 FROM memory_history WHERE memory_id = ? AND seq > ? AND action IN ({marks}) LIMIT 1",
                        (memory_id, seq, *_HAND)).fetchone() is not None


def _versions(conn, ids: list[str]) -> dict[str, tuple[str, float, str]]:
    """id -> (text as shown, importance, created_at): what a preview's hit showed of a row (`read_out` masks the
    text), so a confirm can tell whether the row is still that."""
    found: dict[str, tuple[str, float, str]] = {}
    for part in db.batches(ids):
        sql = f"SELECT id, content, importance, created_at FROM memories WHERE id IN ({','.join('?' * len(part))})"
        found.update((mid, (redact_text(content), float(imp), created)) for mid, content, imp, created in conn.execute(sql, part))
    return found


def _as_shown(hit: MemoryHit | None, version: tuple[str, float, str], planned: bool) -> bool:
    """Whether a listed row may go: unchanged since its preview's hit, or, for a bare id, still in the plan."""
    if hit is None:
        return planned
    return (hit.content, float(hit.importance), hit.created_at) == version


class ForgettingMixin:
    def _soft_delete(self, conn, rows: Iterable[tuple[str, str, str]], reason: str, now: datetime) -> int:
        """rows: (id, user_id, content). Returns how many were still active."""
        n = 0
        for mid, uid, content in rows:
            cur = conn.execute(
                "UPDATE memories SET deleted_at = ?, delete_reason = ? WHERE id = ? AND user_id = ? AND deleted_at IS NULL",
                (db.iso(now), reason, mid, uid),
            )
            if cur.rowcount:
                db.add_history(conn, mid, uid, "deleted", now, content, reason)
                n += 1
        return n

    def delete(
        self, memory_ids: Iterable[str], reason: str = "用户删除", now: datetime | None = None, *, user_id: str | None = None
    ) -> int:
        """Soft delete: the row leaves recall at once and is purged after retention_days."""
        ids = [m for m in dict.fromkeys(memory_ids) if m]
        if not ids:
            return 0
        now = as_utc(now) if now else db.utc_now()
        owner = self._check_user(user_id) if user_id is not None else None
        with self._tx() as conn:
            return self._soft_delete(conn, self._active_rows(conn, ids, owner), reason, now)

    @staticmethod
    def _active_rows(conn, ids: list[str], owner: str | None) -> list[tuple[str, str, str]]:
        """(id, user_id, content) of the ids still active, only `owner`'s when one is named."""
        rows = []
        for part in db.batches(ids):
            sql = f"SELECT id, user_id, content FROM memories WHERE id IN ({','.join('?' * len(part))}) AND deleted_at IS NULL"
            args = list(part)
            if owner is not None:
                sql += " AND user_id = ?"
                args.append(owner)
            rows += conn.execute(sql, args).fetchall()
        return rows

    def undo(self, memory_ids: Iterable[str], *, user_id: str, reason: str = "用户撤销", now: datetime | None = None) -> int:
        """Take back what a statement wrote, in one transaction. `memory_ids` holds one entry per fact the turn told
        (a row told twice in the turn, 我常驻杭州，我在杭州上班, is named twice): the row's id, or (id, telling) with
        the history entry `add` wrote for it (`Written.telling`), so exactly that telling is taken back; a bare id
        (a turn stored before turns kept the telling) takes back the row's latest. A row whose tellings all go is
        soft-deleted, and the facts it replaced (我在财务部工作 before 我调到了人事部) are active again, taken back
        too when the same turn told them; a row they only strengthened (the fact told again, weeks after it was
        first told) gets back its importance, age and wording from before, and stays; a row a later turn told again
        (我老婆怀孕了, then 我老婆怀孕7个月了) stays as that later telling left it (`_untell`). A row the person changed
        by hand since the turn (its importance or its text) stays as they left it. Returns how many of the told
        facts were handled: the rows still active afterwards are the ones kept."""
        entries = [(m, None) if isinstance(m, str) else (m[0], m[1]) for m in memory_ids if m]
        told = Counter(m for m, _telling in entries if m)
        if not told:
            return 0
        named: dict[str, list[int]] = {}
        for m, telling in entries:
            if m and telling is not None:
                named.setdefault(m, []).append(int(telling))
        now = as_utc(now) if now else db.utc_now()
        owner = self._check_user(user_id)
        with self._tx() as conn:
            queue, done, handled = self._active_rows(conn, list(told), owner), set(), 0
            while queue:
                mid, _uid, content = queue.pop(0)
                if mid in done:
                    continue
                done.add(mid)
                handled += told[mid]
                tellings = _tellings(conn, mid)
                taken = _to_take(tellings, named.get(mid, []), told[mid] - len(named.get(mid, [])))
                if taken and _changed_by_hand_since(conn, mid, taken[0][0]):
                    db.add_history(conn, mid, owner, KEPT, now, content, f"{reason}：撤销前已手动修改，保留")
                elif tellings and not taken:  # its telling was taken back already
                    continue
                elif taken != tellings and taken == tellings[-len(taken):]:
                    self._unstrengthen(conn, owner, mid, content, taken, tellings[-len(taken) - 1][3], reason, now)
                elif taken != tellings:
                    self._untell(conn, owner, mid, content, tellings, taken, reason, now)
                else:  # the turn added it: it goes, and what it replaced is current again
                    self._soft_delete(conn, [(mid, owner, content)], reason, now)
                    # a replaced row the same turn told too (我在财务部工作，我调到了人事部) goes as well
                    queue += [row for row in self._restore_replaced(conn, owner, mid, now) if told[row[0]]]
            return handled + self._forget_replaced(conn, owner, [m for m in told if m not in done], told, reason, now)

    @staticmethod
    def _forget_replaced(conn, owner: str, ids: list[str], told: Counter, reason: str, now: datetime) -> int:
        """A fact the undone turn added that a later one replaced (我在销售部工作, then 我调到市场部了) is already out
        of recall; it is marked taken back, so undoing the later turn does not bring it back. Returns how many of the
        told facts that was."""
        handled = 0
        for part in db.batches(ids):
            rows = conn.execute(f"SELECT id, content, replaced_by FROM memories WHERE id IN ({','.join('?' * len(part))})"
                                " AND user_id = ? AND delete_reason = 'replaced'", [*part, owner]).fetchall()
            for mid, content, successor in rows:
                if len(_tellings(conn, mid)) > told[mid]:  # told before this turn too: it stays, as replaced
                    continue
                conn.execute("UPDATE memories SET delete_reason = ?, replaced_by = NULL WHERE id = ?", (reason, mid))
                if successor:  # what it replaced now waits on its successor: undoing that brings it back, in any order
                    conn.execute("UPDATE memories SET replaced_by = ? WHERE replaced_by = ? AND user_id = ? AND "
                                 "delete_reason = 'replaced'", (successor, mid, owner))
                db.add_history(conn, mid, owner, "deleted", now, content, f"{reason}：已被后来的说法替换")
                handled += told[mid]
        return handled

    @staticmethod
    def _restore_replaced(conn, owner: str, mid: str, now: datetime) -> list[tuple[str, str, str]]:
        """Make active again the rows `mid` replaced; returns them as (id, user_id, content)."""
        rows = conn.execute("SELECT id, content FROM memories WHERE replaced_by = ? AND user_id = ? AND "
                            "delete_reason = 'replaced'", (mid, owner)).fetchall()
        for old_id, content in rows:
            conn.execute("UPDATE memories SET deleted_at = NULL, delete_reason = NULL, replaced_by = NULL WHERE id = ?",
                         (old_id,))
            db.add_history(conn, old_id, owner, "restored", now, content, f"undone={mid}")
        # and the rows it took a clause from (`editing.without_changed`) get their whole text back — unless changed
        # since (by hand, or trimmed again by a later telling): then they stay as they are (review 344)
        for old_id, trimmed, detail in conn.execute(
                "SELECT memory_id, content, detail FROM memory_history WHERE user_id = ? AND action = ? AND "
                "detail LIKE ?", (owner, TRIMMED, f"trimmed_by={mid}%")).fetchall():
            whole = detail.split(REWORDED, 1)[1]
            if conn.execute("UPDATE memories SET content = ?, embedding = NULL, model_id = NULL WHERE id = ? AND "
                            "deleted_at IS NULL AND content = ?", (whole, old_id, trimmed)).rowcount:
                db.add_history(conn, old_id, owner, "restored", now, whole, f"undone={mid}")
        return [(old_id, owner, content) for old_id, content in rows]

    @staticmethod
    def _unstrengthen(conn, owner: str, mid: str, content: str, taken: list[tuple[int, str, str, str, str]],
                      created_at: str, reason: str, now: datetime) -> None:
        """Take back restatements of a row: the importance before the first of them, the age the telling before it
        gave, the wording before the first that reworded it (its vector is computed again on the next read)."""
        old = _OLD_IMPORTANCE.search(taken[0][2])
        importance = float(old.group(1)) if old else None
        words = next((detail.split(REWORDED, 1)[1] for _seq, _action, detail, _at, _text in taken if REWORDED in detail), None)
        sets, args = ["created_at = ?"], [created_at]
        if importance is not None:
            sets.append("importance = ?")
            args.append(importance)
        if words:
            sets += ["content = ?", "embedding = NULL", "model_id = NULL"]
            args.append(words)
        conn.execute(f"UPDATE memories SET {', '.join(sets)} WHERE id = ?", (*args, mid))
        shown = f"importance →{importance:.2f}，" if importance is not None else ""
        for telling in taken:
            db.add_history(conn, mid, owner, UNSTRENGTHENED, now, words or content,
                           f"{reason}：{shown}created_at →{created_at}；telling={telling[0]}")

    @staticmethod
    def _untell(conn, owner: str, mid: str, content: str, tellings: list, taken: list, reason: str,
                now: datetime) -> None:
        """Take back tellings of a row a later telling outlives (我老婆怀孕了 undone after 我老婆怀孕7个月了): the row
        stays as the tellings left would have it. It loses the rise each taken restatement gave it, and for the
        telling that added it the rise the next one gave (that one now stands alone); its wording is the last a
        remaining telling gave, when a taken one gave the current wording; its age is the last remaining
        telling's when the latest was taken."""
        left = [t for t in tellings if t not in taken]
        lost = sum(_rise(t[2]) for t in taken if t[1] == "strengthened")
        if taken[0][1] == "added":
            lost += _rise(left[0][2])
        sets, args = ["importance = MIN(1.0, MAX(0.0, importance - ?))"], [lost]
        if tellings[-1] in taken:
            sets.append("created_at = ?")
            args.append(left[-1][3])
        worded = [t for t in tellings if _wording(t) is not None]
        words = next((_wording(t) for t in reversed(worded) if t not in taken), None)
        if worded and worded[-1] in taken and words not in (None, content):
            sets += ["content = ?", "embedding = NULL", "model_id = NULL"]
            args.append(words)
        conn.execute(f"UPDATE memories SET {', '.join(sets)} WHERE id = ?", (*args, mid))
        for telling in taken:
            db.add_history(conn, mid, owner, UNTOLD, now, words or content, f"{reason}：以后又说过，保留；telling={telling[0]}")

    def _forget_plan(self, keep: int, user_id: str | None, now: datetime) -> list[tuple[str, float, float]]:
        """(id, freshness, retention) of the memories forget() would drop, lowest retention first. Freshness is
        recall's and the memory page's (`freshness_by_kind`: a profile fact never goes stale), so keep-N keeps the
        rows the page lists first and drops the ones it lists last."""
        if keep < 0:
            raise MemoryStoreError("保留条数不能为负数")
        users = [self._check_user(user_id)] if user_id is not None else self.users()
        plan: list[tuple[str, float, float]] = []
        for uid in users:
            with self._lock:
                rows = self._conn.execute(
                    "SELECT id, importance, created_at, kind FROM memories WHERE user_id = ? AND deleted_at IS NULL",
                    (uid,)).fetchall()
            if len(rows) <= keep:
                continue
            created = np.array([db.parse_iso(r[2]).timestamp() for r in rows])
            fresh = freshness_by_kind(created, [r[3] for r in rows], now, self.half_life_days)
            keyed = sorted(
                ((r[0], float(f), r[1] * float(f), c) for r, f, c in zip(rows, fresh, created, strict=True)),
                key=lambda t: (-t[2], -t[3], t[0]),  # best first; ties: newer first
            )
            plan.extend((mid, f, ret) for mid, f, ret, _ in reversed(keyed[keep:]))
        return plan

    def preview_forget(self, keep: int, *, user_id: str | None = None, now: datetime | None = None) -> list[MemoryHit]:
        """What forget(keep) would remove, without removing it (for a confirm step in the UI)."""
        now = as_utc(now) if now else db.utc_now()
        plan = self._forget_plan(keep, user_id, now)
        return self._hits([p[0] for p in plan], {mid: (1.0, f, ret) for mid, f, ret in plan})

    def forget(self, keep: int, *, user_id: str | None = None, now: datetime | None = None) -> int:
        """Keep the `keep` memories with the best importance × freshness per user; soft-delete the rest."""
        now = as_utc(now) if now else db.utc_now()
        plan = self._forget_plan(keep, user_id, now)
        if not plan:
            return 0
        with self._tx() as conn:
            rows = []
            for part in db.batches([p[0] for p in plan]):
                marks = ",".join("?" * len(part))
                rows += conn.execute(f"SELECT id, user_id, content FROM memories WHERE id IN ({marks})", part).fetchall()
            return self._soft_delete(conn, rows, "forgotten", now)

    def forget_listed(self, previewed: Iterable[MemoryHit | str], keep: int, *, user_id: str | None = None,
                      now: datetime | None = None) -> tuple[int, int, bool]:
        """Forget exactly the memories a preview listed (`preview_forget(keep)`), not a plan computed again now, and
        only while each is still what the preview showed: a memory added, edited, re-weighed or told again since
        (another tab, a chat turn) was never shown, so it never goes unseen. A preview's hit carries its version (text,
        importance, age); a bare id carries none, so it goes only while forgetting down to `keep` would still drop it.
        Returns (how many were forgotten, how many listed rows were kept because they changed since, whether the
        plan for `keep` now differs from the list)."""
        shown: dict[str, MemoryHit | None] = {}
        for item in previewed:
            mid = item if isinstance(item, str) else item.id
            if mid and mid not in shown:
                shown[mid] = None if isinstance(item, str) else item
        now = as_utc(now) if now else db.utc_now()
        owner = self._check_user(user_id) if user_id is not None else None
        with self._tx() as conn:  # the comparison and the removal see the same rows
            plan = {p[0] for p in self._forget_plan(keep, owner, now)}
            rows = self._active_rows(conn, list(shown), owner)
            current = _versions(conn, [row[0] for row in rows])
            still = [row for row in rows if _as_shown(shown[row[0]], current[row[0]], row[0] in plan)]
            count = self._soft_delete(conn, still, "forgotten", now)
            return count, len(rows) - len(still), plan != set(shown) or len(still) < len(rows)

    def expire(self, now: datetime | None = None) -> int:
        """Soft-delete low-importance interaction echoes older than interaction_ttl_days."""
        if self.interaction_ttl_days is None:
            return 0
        now = as_utc(now) if now else db.utc_now()
        cutoff = db.iso(now - timedelta(days=self.interaction_ttl_days))
        with self._tx() as conn:
            rows = conn.execute(
                "SELECT id, user_id, content FROM memories WHERE deleted_at IS NULL AND kind = 'interaction' "
                "AND importance <= ? AND created_at < ?",
                (EXPIRE_MAX_IMPORTANCE, cutoff),
            ).fetchall()
            return self._soft_delete(conn, rows, "expired", now)

    def purge_deleted(self, now: datetime | None = None) -> int:
        """Hard-delete soft-deleted rows (and their history) older than retention_days."""
        now = as_utc(now) if now else db.utc_now()
        cutoff = db.iso(now - timedelta(days=self.retention_days))
        with self._tx() as conn:
            ids = [r[0] for r in conn.execute("SELECT id FROM memories WHERE deleted_at IS NOT NULL AND deleted_at < ?", (cutoff,))]
            for part in db.batches(ids):
                marks = ",".join("?" * len(part))
                conn.execute(f"DELETE FROM memory_history WHERE memory_id IN ({marks})", part)
                conn.execute(f"DELETE FROM memories WHERE id IN ({marks})", part)
            return len(ids)

    def purge_user(self, user_id: str) -> int:
        """The right to be forgotten: every row and every history entry of this user, now."""
        user_id = self._check_user(user_id)
        with self._tx() as conn:
            n = conn.execute("DELETE FROM memories WHERE user_id = ?", (user_id,)).rowcount
            conn.execute("DELETE FROM memory_history WHERE user_id = ?", (user_id,))
        with self._lock:
            self._cache.pop(user_id, None)
        return int(n)
