"""Review 51i: refusals that left no audit row, an eval that opened any server path, an administrator's rating for
someone else, an unchecked public read of a conversation's audiences (fake embedder, real stores, team mode)."""

from __future__ import annotations

from pathlib import Path

import pytest
from perm_support import ADMIN, BOSS, EMP, refused, team_store

from rag_core import Assistant, PermissionDenied


@pytest.fixture()
def a(tmp_path: Path) -> Assistant:
    return team_store(tmp_path)


# -- 2. and 4. ratings for someone else ---------------------------------------------------------------
def test_a_refused_rating_for_another_person_is_audited(a) -> None:
    t = a.ask("年假几天", actor=BOSS, conversation="b1")
    before = len(refused(a))
    with pytest.raises(PermissionDenied):
        a.record_feedback(t, -1, user="boss", actor=EMP)
    rows = refused(a)
    assert len(rows) == before + 1 and rows[0].actor == "zhang"


def test_an_administrators_rating_for_someone_else_is_audited(a) -> None:
    t = a.ask("年假几天", actor=EMP, conversation="e1")
    a.record_feedback(t, -1, user="zhang", actor=ADMIN, reason="答非所问", comment="管理员代评")
    rows = [e for e in a.audit_entries(actor=ADMIN) if e.actor == "wang" and e.action == "feedback.give"]
    assert len(rows) == 1 and "zhang" in rows[0].target and rows[0].outcome == "ok"
    a.record_feedback(t, 1, actor=EMP)  # one's own rating: no row
    assert not [e for e in a.audit_entries(actor=ADMIN) if e.actor == "zhang" and e.action == "feedback.give"]


def test_an_administrator_withdraws_the_owners_rating(a) -> None:
    t = a.ask("年假几天", actor=EMP, conversation="e1")
    a.rate_turn("e1", t.turn, -1, actor=EMP)
    a.record_feedback(t, -1, actor=EMP, reason="答非所问", comment="mine")
    a.withdraw_feedback(t, user="zhang", actor=ADMIN)  # named, as `record_feedback` would write it (review 52j #1)
    assert a.get_conversation("e1", actor=EMP).turns[0].rating in (None, 0)
    assert a.feedback_reviews(actor=ADMIN) == []
