"""A person's correction of one memory's text (`MemoryStore.update_text`).

Mixed into MemoryStore; relies on its ``_tx``, ``_vectors``, ``_match``, ``_centres_for_model`` and ``embedder``.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import numpy as np

from ..errors import MemoryStoreError
from ..text.pii import redact_text
from ..text.tokenizer import tagged
from . import db
from .content import checked_content
from .scoring import as_utc
from .text import (
    CLAUSE,
    about_someone_else,
    agreeing_slots,
    as_the_person,
    conflicting_slots,
    content_terms,
    denies,
    key_terms,
    negated,
    says_all,
    slots,
)


class Edited(str):
    """What `MemoryStore.update_text` returns: the text as stored, as it always has, with `replaced`: the (masked)
    texts of the person's other memories the edit replaced, a copy of it or a fact it contradicts (the page says so)."""

    replaced: tuple[str, ...]
    contradicted: tuple[str, ...]  # other memories the edit contradicts that say more than it: kept, for the person to fix

    def __new__(cls, text: str, replaced: tuple[str, ...] = (), contradicted: tuple[str, ...] = ()) -> Edited:
        edited = super().__new__(cls, text)
        edited.replaced, edited.contradicted = tuple(replaced), tuple(contradicted)
        return edited


def changed_since(now_text: str) -> MemoryStoreError:
    """The refusal of an edit made on a text that is no longer the memory's (another tab, a chat turn saved since)."""
    return MemoryStoreError(f"这条记忆在您打开后已被修改：现在是“{now_text}”。您的修改没有保存，"
                            "请在现在的内容上重新修改后再保存")


def _without(uv, index: int | None):
    """The user's vectors without row `index` (the memory being edited)."""
    if index is None:
        return uv
    keep = [i for i in range(len(uv.ids)) if i != index]
    return replace(uv, ids=[uv.ids[i] for i in keep], contents=[uv.contents[i] for i in keep],
                   kinds=[uv.kinds[i] for i in keep], importance=uv.importance[keep], created_ts=uv.created_ts[keep],
                   raw=uv.raw[keep], centred=uv.centred[keep])


class EditingMixin:
    def update_text(self, memory_id: str, content: str, *, now: datetime | None = None, user_id: str | None = None,
                    shown: str | None = None) -> Edited:
        """Replace a memory's text (checked and masked like add(), re-embedded); returns the text as stored.

        The row keeps its id, kind, importance and age; the history keeps the new text. `shown`: the text the
        person edited (as shown: masked); when the memory says something else now, the edit is refused
        (`changed_since`) instead of silently overwriting that change. The person's other memories are matched as
        add() matches a new fact: one the edit repeats, or one about the same slot with another value (我常驻杭州
        when the edit says 我常驻上海), is replaced by the edited row, so two contradicting facts are never both active;
        their texts come back in `Edited.replaced`."""
        content = checked_content(content)
        vec = np.asarray(self.embedder.embed_passages([content])[0], dtype=np.float32)
        now = as_utc(now) if now else db.utc_now()
        self._centres_for_model()  # may write once; keep it out of the transaction below
        with self._tx() as conn:
            row = conn.execute("SELECT user_id, content, kind FROM memories WHERE id = ? AND deleted_at IS NULL",
                               (memory_id,)).fetchone()
            if not row or (user_id is not None and row[0] != user_id):
                raise MemoryStoreError(f"找不到记忆：{memory_id}")
            owner, before, kind = row
            if shown is not None and redact_text(before) != shown:
                raise changed_since(redact_text(before))
            uv = self._vectors(owner)
            others = _without(uv, uv.ids.index(memory_id) if memory_id in uv.ids else None)
            is_fact = kind != "interaction"
            new_slots = slots(content) if is_fact else {}
            conflicts, dup = self._match(others, content, vec, is_fact, new_slots, profile=kind == "profile")
            gone, kept = superseded(others.contents, content, new_slots, conflicts, dup)
            conn.execute("UPDATE memories SET content = ?, embedding = ?, model_id = ? WHERE id = ?",
                         (content, db.to_blob(vec), self.embedder.model_id, memory_id))
            db.add_history(conn, memory_id, owner, "edited", now, content)
            for i in gone:
                conn.execute("UPDATE memories SET deleted_at = ?, delete_reason = 'replaced', replaced_by = ? "
                             "WHERE id = ? AND user_id = ? AND deleted_at IS NULL",
                             (db.iso(now), memory_id, others.ids[i], owner))
                db.add_history(conn, others.ids[i], owner, "replaced", now, others.contents[i], f"replaced_by={memory_id}")
        return Edited(content, tuple(redact_text(others.contents[i]) for i in gone),
                      tuple(redact_text(others.contents[i]) for i in kept))


def superseded(contents: list[str], content: str, new_slots: dict[str, str], conflicts: list[int],
               dup: int | None) -> tuple[list[int], list[int]]:
    """(rows an edited text takes the place of, rows it contradicts but that say more): as add() keeps a restated row's
    text unless the new one names all it names (`text.says_all`), an edit replaces the row it repeats only then (我常驻杭州
    does not replace 我常驻杭州，老婆在北京工作，对花生过敏); and a row it contradicts only when all the row says but the
    contradicted value is in the edit (我常驻上海 replaces 我常驻杭州, not 我常驻杭州，对花生过敏: that one is kept and named)."""
    gone, kept = [], []
    for i in conflicts:
        changed = tuple(slots(contents[i]).get(slot, "") for slot in new_slots)
        (gone if says_all(content, contents[i], but=tuple(v for v in changed if v)) else kept).append(i)
    if dup is not None and says_all(content, contents[dup]):
        gone.append(dup)
    return sorted(gone), kept


def numbered(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """(the content words but numbers, the numbers) of a fact."""
    numbers = {w.strip().lower() for w, tag in tagged(text) if tag == "m" or w.strip()[:1].isdigit()}
    words = content_terms(text)
    return frozenset(words - numbers), frozenset(words & numbers)


def changed_number(new: str, old: str) -> bool:
    """Whether `new` tells `old` again with another number (用户工龄10年 after 用户工龄8年, 用户有两个孩子 after 用户有一个
    孩子): both stayed active and both were recalled, the older first (review 341 #3). The person's own facts only."""
    if about_someone_else(as_the_person(new)) or about_someone_else(as_the_person(old)) or negated(new) != negated(old):
        return False
    (new_words, new_numbers), (old_words, old_numbers) = numbered(new), numbered(old)
    return bool(new_words) and new_words == old_words and bool(new_numbers) and bool(old_numbers) \
        and new_numbers != old_numbers


def own_clauses(text: str) -> list[str]:
    """The clauses of `text` about the person: one naming someone else (老婆在研发部工作) is theirs, and so is one with
    no subject of its own after it (今年30岁); one naming the person (我…, 用户…) is theirs again (review 346)."""
    own, kept = True, []
    for clause in (c.strip() for c in CLAUSE.findall(text)):
        if about_someone_else(as_the_person(clause)):  # (read in the third person: 我老婆… is someone else's)
            own = False
        elif clause.startswith(("用户", "我")):
            own = True
        if own and clause:
            kept.append(clause)
    return kept


def number_told_again(new: str, old: str) -> bool:
    """Whether one of `old`'s own clauses is `new` with another number (`changed_number`); a cheap look for the words
    first: every profile fact is compared (2,000 of them took 2.3 s inside the write lock, review 346)."""
    words = numbered(new)[0]
    if not words or not all(w in old for w in words):
        return False
    return any(changed_number(new, clause) for clause in own_clauses(old))


def without_changed(content: str, new_slots: dict[str, str], new: str = "") -> str:
    """`content` without the clauses that state what `new` changes — a slot `new_slots` gives another value, a number
    told again, a value `new` denies (用户对花生过敏 of 用户常驻杭州，对花生过敏 when 用户搬到上海了 or 用户已经不在杭州了 is
    told) — in the person's voice; "" when no clause goes or nothing else is said (then the row is replaced whole).
    A clause's slots are read in the whole text, its subject carried from the clause before (老婆在研发部工作，常驻北京:
    北京 is the wife's, never cut for the person's move). add() took such a memory away whole (review 341, 344)."""
    spans = [(m.start(), m.end()) for m in CLAUSE.finditer(content)]
    own = own_clauses(content)
    kept: list[str] = []
    for start, end in spans:
        before, after = slots(content[:start]), slots(content[:end])
        said = {slot: value for slot, value in after.items() if before.get(slot) != value}
        clause = content[start:end].strip()
        if not (conflicting_slots(new_slots, said) or (new and clause in own and changed_number(new, clause))
                or (new and said and denies(new, as_the_person(clause), near=False))):
            kept.append(clause)
    if len(kept) == len(spans) or not kept:
        return ""
    rest = "，".join(c for c in kept if c)
    if not content_terms(rest):
        return ""
    subject = next((s for s in ("用户", "我") if content.startswith(s)), "")
    return rest if not subject or rest.startswith(subject) else f"{subject}{rest}"


def restates(new: str, old: str) -> bool:
    """Whether `new` adds nothing `old` does not say, clause by clause (a clause agreeing with one of its slots, or
    naming only its terms), or says all it says and more (`says_all`: the row takes the new wording). 我常驻杭州，
    下个月结婚 beside 我常驻杭州，对花生过敏 does neither: one agreeing city made it a restatement, and the wedding was
    kept nowhere while the page said 已有相同内容 (review 341 #4)."""
    own = own_clauses(new)
    if says_all(new, old) and says_all("，".join(own), "，".join(own_clauses(old))):
        return True  # (the person's own terms by its own clauses: 孩子对花生过敏 says nothing of the person's allergy)
    old_slots, old_keys, old_words = slots(old), key_terms(old), content_terms(old)
    for clause in CLAUSE.findall(new):
        keys = key_terms(clause)
        # a clause of the person's naming only its nouns (吃花生会过敏 for 对花生过敏); someone else's needs its verbs too
        # (我常驻杭州，老婆辞职了 beside 我常驻杭州，老婆在上海工作 is news, review 346)
        if not (agreeing_slots(slots(clause), old_slots) or (clause.strip() in own and keys and keys <= old_keys)
                or content_terms(clause) <= old_words):
            return False
    return True
