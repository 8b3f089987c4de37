"""Memory actions: add, recall, list, re-weigh, delete, forget, purge.

Scoring and storage live in `rag_core.memory`; this mixin opens the store on
first use and forwards with the current time. Every method takes the acting
`Principal` (`actor=`): a person acts on their own memories only (an id that
belongs to someone else is refused, and the refusal audited); an administrator
may act on everyone's.
"""

from __future__ import annotations

import functools
import logging
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..errors import MemoryStoreError, PermissionDenied, RagError
from ..insights.rows import purged_turn
from ..memory.asked_with import with_facts
from ..memory.content import about_the_person, bounded_content
from ..memory.created import checked_created_at
from ..storage.sqlite_access import access_problem
from ..text.inputs import MAX_QUESTION_CHARS, InputError, checked, is_blank
from ..text.instructions import addressed_to_assistant
from ..types import MemoryHit, Principal, SearchResult
from .access import allowed, require_owner
from .memory_outcomes import Forgotten, Purged
from .owner_names import KnownNames
from .purge_race import edited_in_turns, forget_in_turns
from .stores import Sweep


def _utcnow() -> datetime:
    return datetime.now(UTC)


_log = logging.getLogger(__name__)
MEMORY_FILE = "memory.sqlite3"


def memory_problem(exc: sqlite3.Error, folder: Path | None = None) -> str:
    """SQLite's failure on the memory store as one Chinese line: a full disk or another process holding the file
    is said as `sqlite_access` says it (the file is fine, nothing to restore); anything else may be damage.
    `folder`: the data dir, so an I/O error on a full volume is said as a full disk."""
    problem = access_problem(exc, folder)
    if problem:
        return f"记忆库（{MEMORY_FILE}）{problem}"
    return f"记忆库（{MEMORY_FILE}）读写出错，可能已损坏：请运行 python -m rag_core doctor 查看修复办法"


@contextmanager
def memory_writes() -> Iterator[None]:
    """A memory action's SQLite error becomes `MemoryStoreError` with `memory_problem`'s line: the pages and the
    CLI show `RagError`s as that line, where SQLite's English ("database or disk is full") reached people as a
    traceback. The SQLite error stays its cause, for the logs."""
    try:
        yield
    except sqlite3.Error as exc:
        raise MemoryStoreError(memory_problem(exc)) from exc


def _whose(owners: dict[str, str]) -> str:
    """An audit row's target for memories: whose they are, then their ids (review 376 #6: ids alone told no one)."""
    by_owner: dict[str, list[str]] = {}
    for memory_id, owner in owners.items():
        by_owner.setdefault(owner, []).append(memory_id)
    return "；".join(f"{owner} 的记忆 {'、'.join(ids)}" for owner, ids in sorted(by_owner.items()))[:300]  # 379 #4


def memory_unreadable(failure: Exception) -> str:
    """The trace's line when the memory store cannot be read or written: what failed and what the answer lacks,
    in Chinese (an SQLite error is said by `memory_problem`, never in its own English)."""
    said = memory_problem(failure) if isinstance(failure, sqlite3.Error) else str(failure)
    return f"记忆库出错，这一轮不参考记住的个人信息，也不记住新的信息：{said}"


def keeps_memory_search(own: SearchResult, found: SearchResult) -> bool:
    """The search with the asker's memories (`found`) leads with another clause than the question's own search,
    one judged more likely to answer, and warns of nothing new: a memory's word the policies never name (手术)
    would hedge every clause 依据较弱, or a foreign benefit refuse them all."""
    first = own.hits[0] if own.hits else None
    better = bool(found.hits) and (first is None or (
        found.hits[0].chunk.chunk_id != first.chunk.chunk_id and found.hits[0].scores.probability > first.scores.probability))
    hedged = set(found.warnings) - set(own.warnings) or set(found.foreign_subjects) - set(own.foreign_subjects)
    return better and not hedged


def _evidence(result: SearchResult) -> str:
    """The sources a search found, as recall reads them: titles, sections and text."""
    return "\n".join(f"{h.chunk.title} {h.chunk.section} {h.chunk.text}" for h in result.hits)


@dataclass
class PersonalSearch:
    """A question's search as chat runs it: the question as searched, the search kept, the memories recall
    used, and the searched text when those memories picked the clauses ("" when the question's own search stands)."""

    question: str
    result: SearchResult
    memories: list[MemoryHit] = field(default_factory=list)
    memory_search: str = ""
    timings_ms: dict[str, float] = field(default_factory=dict)  # recall and the memory search, beside the search's own
    told_only: bool = False  # the text only told something about the asker: chat remembers it and searches nothing
    chatter: bool = False  # only words about the conversation (好的 / 谢谢): chat replies briefly, searches nothing
    standard_answer: dict = field(default_factory=dict)  # HR's standard answer chat would give instead (its to_dict)


class MemoryActions(KnownNames):
    """Mixin of `Assistant`: everything the memories page and `memory` commands do."""

    conversations: Any  # `ConversationActions`: a purge takes the memories out of the turns that used them

    @property
    def memory(self):
        """The per-user memory store, opened on first use; its housekeeping (stale chatter expires, old
        soft-deletes are purged) runs then and again on use at most hourly, as the server may run for weeks."""
        if self._memory is None:
            from ..memory import MemoryStore

            s = self._settings
            try:
                self._memory = MemoryStore(
                    s.path(MEMORY_FILE), self.embedder, half_life_days=s.memory_half_life_days,
                    threshold=s.memory_threshold, top_k=s.memory_top_k, retention_days=s.memory_retention_days,
                )
            except MemoryStoreError as failure:  # a full disk or a busy file is no damage: never "move it away"
                cause = failure.__cause__
                if isinstance(cause, sqlite3.Error) and access_problem(cause, Path(s.data_dir)):
                    raise MemoryStoreError(memory_problem(cause, Path(s.data_dir))) from cause
                raise
        if self._memory_sweep.due():
            now = _utcnow()
            try:
                self._memory.expire(now)
                self._memory.purge_deleted(now)
            except sqlite3.Error as exc:  # housekeeping: a full disk or a busy file waits for the next sweep
                folder = Path(self._settings.data_dir)
                if access_problem(exc, folder) is None:  # damage: said, as when the store opens
                    raise MemoryStoreError(memory_problem(exc, folder)) from exc
                _log.warning("memory sweep skipped: %s", memory_problem(exc, folder))
        return self._memory

    @functools.cached_property
    def _memory_sweep(self) -> Sweep:
        return Sweep()

    def checked_memory_owner(self, name: str) -> str:
        """The owner name as typed (the memories page's 查看谁的记忆), or `InputError` when it carries personal data
        and nobody is kept under it: the page stops there instead of showing or keeping it."""
        return self._typed_person(name)

    def _for_owner(self, actor: Principal | None, owner: str, action: str, *, audited: bool = False) -> Principal:
        """Resolve the actor and refuse unless `owner`'s memories are theirs to touch, with one audit row either
        way: a refusal, or an administrator reading or changing someone else's (as with conversations). `audited`:
        the caller writes its own row (forget, purge). An owner name carrying personal data is refused
        (`owner_names`), unless it is the actor's own or already kept (an account, or memories stored before that rule)."""
        actor = self._acting(actor, "memories.own")
        self._typed_person(owner, actor)
        try:
            require_owner(actor, owner)
        except PermissionDenied as exc:
            self._audit(actor, "refused", f"{action} {owner}", "refused", str(exc))
            raise
        if owner and owner != actor.user and not audited:
            self._audit(actor, action, f"{owner} 的记忆")
        return actor

    def _owners(self, memory_ids: Sequence[str]) -> dict[str, str]:
        """memory id -> the user it belongs to (unknown ids left out)."""
        found = {}
        for memory_id in memory_ids:
            record = self.memory.get(memory_id)
            if record is not None:
                found[memory_id] = record.user_id
        return found

    def _check_ids(self, actor: Principal | None, memory_ids: Sequence[str], action: str) -> Principal:
        actor = self._acting(actor, "memories.own")
        foreign = [m for m, owner in self._owners(memory_ids).items() if owner != actor.user]
        if foreign and not allowed(actor, "memories.all"):
            self._audit(actor, "refused", f"{action} {'、'.join(foreign)}", "refused", "记忆属于其他用户")
            raise PermissionDenied("没有权限：这条记录属于其他用户")
        return actor

    def remember(self, user: str, content: str, kind: str = "profile", importance: float | None = None,
                 created_at: datetime | None = None, *, actor: Principal | None = None) -> tuple[str, str]:
        """Store a memory for `user`; returns (memory id, what happened: added/reinforced/replaced).

        `created_at` with no zone is a time on the office clock (the settings' time zone, as the pages show
        times), for every caller; one in the future is refused (`memory.created.checked_created_at`).
        An administrator's row for someone else's memory is written after the store answered, with its real
        outcome: a refused text (empty, too long, not UTF-8) is 'failed', never 'ok'."""
        actor = self._for_owner(actor, user, "memory.add", audited=True)
        try:
            # the store keeps its own length limit; a pasted book is refused before anything reads it whole
            # and about the person: a colleague's diagnosis is theirs (`about_the_person`), as chat write-back reads it
            content = about_the_person(checked(bounded_content(content), what="记忆内容", max_chars=None),
                                       name=user if isinstance(user, str) else "")
            created_at = checked_created_at(created_at, getattr(self._settings, "timezone", None), _utcnow())
            with memory_writes():  # a full disk: 磁盘空间已满, audited and shown in Chinese
                added = self.memory.add(user, content, kind=kind, importance=importance, created_at=created_at,
                                        now=_utcnow())
        except Exception as exc:  # a damaged store too: the row says it failed
            if user and user != actor.user:
                self._audit(actor, "memory.add", f"{user} 的记忆", "failed", str(exc))
            raise
        if user and user != actor.user:
            self._audit(actor, "memory.add", f"{user} 的记忆")
        return added

    def recall(self, user: str, query: str, now: datetime | None = None, *, actor: Principal | None = None,
               evidence: str = "", touch: bool = False) -> list[MemoryHit]:
        """The memories of `user` that pass the threshold for `query` (`evidence`: the sources' titles and text). A
        look is no use: only `touch` (chat counts a prompt's memories itself, `_count_used`) records their use."""
        self._for_owner(actor, user, "memory.recall")
        if isinstance(query, str) and len(query) > MAX_QUESTION_CHARS * 10:  # ranked against every memory: refused
            checked(query, max_chars=MAX_QUESTION_CHARS)  # the question's error (`ask` recalls with its own, bounded)
        return self.memory.search(user, query, now=now or _utcnow(), evidence=evidence, touch=touch)

    def _personal_search(self, asked: str, result: SearchResult, user: str, *, role: str | None, actor: Principal,
                         timings: dict[str, float]) -> PersonalSearch:
        """Recall `user`'s memories for the question and what its search found, then search again with them
        (`_search_with_memories`); chat's `ask` and the retrieval test page (`search_as_chat`) both go through
        here. Nothing is counted as used here: `ask` counts what its prompt holds (`_count_used`)."""
        started = time.perf_counter()
        try:
            memories = self.recall(user, asked, actor=actor, evidence=_evidence(result), touch=False) if user else []
            # what the prompt leaves out (a memory giving the assistant orders) is neither searched with nor counted as used
            memories = [m for m in memories if not addressed_to_assistant(m.content)]
        except (MemoryStoreError, sqlite3.Error) as failure:  # a damaged memory store costs the memories, not the answer
            memories = []
            note = memory_unreadable(failure)
            if note not in result.warnings:
                result.warnings.append(note)
        timings["memory_ms"] = round((time.perf_counter() - started) * 1000, 2)
        result, searched = self._search_with_memories(asked, memories, result, role=role, actor=actor, timings=timings)
        return PersonalSearch(asked, result, memories, searched, timings)

    def _count_used(self, user: str, memories: Sequence[MemoryHit]) -> None:
        """Count the memories a prompt holds as used (one a token budget left out is not)."""
        if not (user and memories):
            return
        try:
            self.memory.touch(user, [m.id for m in memories], now=_utcnow())
        except (MemoryStoreError, sqlite3.Error) as failure:  # the answer stands; the use goes uncounted
            _log.warning("memory use not recorded: %s", memory_unreadable(failure))

    def _search_with_memories(self, question: str, memories: Sequence[MemoryHit], result: SearchResult, *,
                              role: str | None, actor: Principal, timings: dict[str, float]) -> tuple[SearchResult, str]:
        """The question searched again with the memories recall found relevant to it (销售部, 怀孕7个月), so the
        clause written for the asker is found, not only the general rule; returns the search to use and, when it is
        that second one, its text ("" otherwise; docs/retrieval.md, "Stop 45"). Any question, not only one that says
        我: a follow-up (回来以后多久内要报完) leans on the asker's situation as much (open and fresh parts both gained).

        Kept when it leads with another clause, judged more likely to answer than the question's own first one, and
        brings no new warning (a memory's 手术, a word no policy uses, must not make a good answer 依据较弱). A second search
        that fails leaves the first: the answer never depends on it."""
        text = with_facts(question, [m.content for m in memories]) if memories else ""
        if not text or len(text) > MAX_QUESTION_CHARS:
            return result, ""
        started = time.perf_counter()
        try:
            found = self.search(text, role=role, actor=actor)
        except (RagError, sqlite3.Error, OSError, ValueError) as failure:
            result.warnings.append(f"结合记住的个人信息再检索一次时出错，只按问题本身检索：{failure}")
            return result, ""
        timings["memory_search_ms"] = round((time.perf_counter() - started) * 1000, 2)
        return (found, text) if keeps_memory_search(result, found) else (result, "")

    def list_memories(self, user: str, query: str | None = None, kind: str | None = None, *,
                      actor: Principal | None = None) -> list[MemoryHit]:
        """All memories of `user`, optionally filtered by text (checked and bounded as a question is) or kind."""
        self._for_owner(actor, user, "memory.list")
        if query is not None and not (isinstance(query, str) and is_blank(query)):  # blank: every memory
            query = checked(query, what="搜索内容", max_chars=MAX_QUESTION_CHARS)
        return self.memory.list(user, now=_utcnow(), query=query or None, kind=kind)

    def export_memories(self, user: str, *, actor: Principal | None = None) -> dict[str, Any]:
        """Everything the assistant remembers about `user`, JSON-ready (text as stored: masked): what a person may
        take with them, as they may their conversations (`export_history`)."""
        self._for_owner(actor, user, "memory.export")
        rows = self.memory.list(user, now=_utcnow())
        keep = ("content", "kind", "importance", "freshness", "created_at", "last_accessed", "access_count")
        return {"user": user, "memories": [{k: getattr(m, k) for k in keep} for m in rows]}

    def memory_users(self, *, actor: Principal | None = None) -> list[str]:
        """Everyone who has memories (for an administrator's picker)."""
        self._acting(actor, "memories.all")
        return self.memory.users()

    def update_memory_importance(self, memory_id: str, importance: float, *, actor: Principal | None = None) -> None:
        """Set a memory's importance (0–1). A number typed as text ("0.3") is converted before anything is written:
        the audit row is written after the store, and must never fail on the value the store accepted."""
        try:
            value = float(importance)
        except (TypeError, ValueError):
            raise InputError(f"重要度须是 0 到 1 之间的数字（例如 0.3），收到：{importance!r}。请改后重试") from None
        actor = self._check_ids(actor, [memory_id], "memory.importance")
        if memory_id not in (owners := self._owners([memory_id])):
            raise MemoryStoreError(f"找不到记忆：{memory_id}")
        with memory_writes():
            self.memory.update_importance(memory_id, value)  # the store refuses a value outside 0–1 (or NaN)
        self._audit(actor, "memory.importance", _whose(owners), "ok", f"{value:.2f}")

    def update_memory_text(self, memory_id: str, text: str, *, shown: str | None = None,
                           actor: Principal | None = None) -> str:
        """Correct a memory's text; personal data is masked before it is stored. Returns the stored text, with
        `.replaced`: the other memories it replaced (a copy, a contradicted fact), and `.contradicted`: those it
        contradicts that say more than it, kept (the page asks the person to correct them too). `shown`: the text the edit
        started from; refused when the memory was changed since (another tab), instead of overwriting that."""
        actor = self._check_ids(actor, [memory_id], "memory.edit")
        if memory_id not in (owners := self._owners([memory_id])):
            raise MemoryStoreError(f"找不到记忆：{memory_id}")
        text = about_the_person(checked(bounded_content(text), what="记忆内容", max_chars=None),  # the store: its limit
                                name=owners[memory_id])
        owner = None if allowed(actor, "memories.all") else actor.user
        with memory_writes():
            stored = self.memory.update_text(memory_id, text, now=_utcnow(), user_id=owner, shown=shown)
        gone = f"，替换 {len(stored.replaced)} 条重复或冲突的记忆" if stored.replaced else ""
        gone += f"，{len(stored.contradicted)} 条冲突的记忆说得更多而保留" if stored.contradicted else ""
        gone += edited_in_turns(self, memory_id, owners[memory_id]) if shown != stored else ""
        self._audit(actor, "memory.edit", _whose(owners), "ok", f"{len(stored)} 字{gone}")
        return stored

    def delete_memories(self, memory_ids: Sequence[str], *, actor: Principal | None = None) -> int:
        """Delete memories by id; returns how many were deleted (one audit row)."""
        ids = list(memory_ids)
        actor = self._check_ids(actor, ids, "memory.delete")
        owner, owners = None if allowed(actor, "memories.all") else actor.user, self._owners(ids)
        with memory_writes():
            count = self.memory.delete(ids, now=_utcnow(), user_id=owner)
        self._audit(actor, "memory.delete", _whose(owners) if owners else "、".join(ids)[:300], "ok" if count else "failed",
                    f"{count} 条{forget_in_turns(self, ids)}")
        return count

    def _forget_scope(self, actor: Principal | None, user: str | None, action: str, *, audited: bool) -> Principal:
        if user is None:
            return self._acting(actor, "memories.all")
        return self._for_owner(actor, user, action, audited=audited)

    def preview_forget(self, keep: int, user: str | None = None, *, actor: Principal | None = None) -> list[MemoryHit]:
        """The memories `forget_memories(keep)` would remove, without removing them."""
        self._forget_scope(actor, user, "memory.forget_preview", audited=False)
        return self.memory.preview_forget(keep, user_id=user, now=_utcnow())

    def forget_memories(self, keep: int, user: str | None = None, *, actor: Principal | None = None) -> int:
        """Keep the `keep` best memories by importance × freshness; returns how many were forgotten."""
        actor = self._forget_scope(actor, user, "memory.forget", audited=True)
        with memory_writes():
            planned = [m.id for m in self.memory.preview_forget(keep, user_id=user, now=_utcnow())]
            count = self.memory.forget(keep, user_id=user, now=_utcnow())
        turns = forget_in_turns(self, planned) if count else ""
        self._audit(actor, "memory.forget", user or "所有用户", "ok", f"保留 {keep} 条，遗忘 {count} 条{turns}")
        return count

    def forget_previewed(self, previewed: Sequence[MemoryHit | str], keep: int, user: str | None = None, *,
                         actor: Principal | None = None) -> Forgotten:
        """确认遗忘: forget exactly the memories `preview_forget(keep)` listed, and only while each is still what it
        showed (pass its hits: text, importance and age are compared; a bare id only checks the plan still drops
        it), never a memory added or changed since, which nobody was shown; says how many went and what changed."""
        actor = self._forget_scope(actor, user, "memory.forget", audited=True)
        listed = len({m if isinstance(m, str) else m.id for m in previewed} - {""})
        with memory_writes():
            count, kept, changed = self.memory.forget_listed(previewed, keep, user_id=user, now=_utcnow())
        note = f"，{kept} 条预览后有改动而保留" if kept else ""
        note += forget_in_turns(self, [m if isinstance(m, str) else m.id for m in previewed]) if count else ""
        self._audit(actor, "memory.forget", user or "所有用户", "ok",
                    f"保留 {keep} 条，遗忘 {count} 条（预览列出 {listed} 条{note}）")
        return Forgotten(count, listed, changed, kept)

    def purge_memories(self, user: str, *, actor: Principal | None = None) -> Purged:
        """Delete every memory of `user` for good, and take them out of the turns that quoted them."""
        actor = self._for_owner(actor, user, "memory.purge", audited=True)
        with memory_writes():
            count = self.memory.purge_user(user)
        try:  # their turns' traces quoted them too; a damaged conversation store does not undo the purge
            done = Purged(count, self.conversations.rewrite_turns(user, purged_turn))
            turns = f"；{done.turns} 轮对话里的记忆一并删除" if done.turns else ""
        except (RagError, sqlite3.Error):
            done, turns = Purged(count, turns_failed=True), "；对话记录读写出错，其中用到的记忆未能删除"
        self._audit(actor, "memory.purge", user, "ok", f"{count} 条{turns}")
        return done
