"""Review 52j #1: withdrawing a rating removes the row the same `record_feedback` call would have written — the
actor's own unless `user=` names someone else — never the conversation owner's because an administrator clicked
their own thumb again (fake embedder, real stores, team mode)."""

from __future__ import annotations

from pathlib import Path

import pytest
from perm_support import ADMIN, BOSS, EMP, refused, team_store

from rag_core import Assistant, PermissionDenied


@pytest.fixture()
def a(tmp_path: Path) -> Assistant:
    return team_store(tmp_path)


def _rows(a: Assistant) -> list[tuple[str, int, str]]:
    return sorted((f.user, f.rating, f.comment) for f in a.feedback_reviews(actor=ADMIN))


def test_an_administrators_undo_takes_back_their_own_rating(a) -> None:
    t = a.ask("年假几天", actor=EMP, conversation="e1")
    a.rate_turn("e1", t.turn, -1, actor=ADMIN)
    a.record_feedback(t, -1, actor=ADMIN)
    a.withdraw_feedback(t, actor=ADMIN)
    assert _rows(a) == []


def test_an_administrators_undo_leaves_the_employees_own_rating(a) -> None:
    t = a.ask("年假几天", actor=EMP, conversation="e1")
    a.record_feedback(t, -1, actor=EMP, reason="答非所问", comment="员工自己的意见")
    a.record_feedback(t, -1, actor=ADMIN)
    a.withdraw_feedback(t, actor=ADMIN)
    assert _rows(a) == [("zhang", -1, "员工自己的意见")]


def test_withdrawing_for_someone_else_names_them_and_is_checked(a) -> None:
    t = a.ask("年假几天", actor=EMP, conversation="e1")
    a.record_feedback(t, -1, actor=EMP, comment="mine")
    before = len(refused(a))
    with pytest.raises(PermissionDenied):
        a.withdraw_feedback(t, user="zhang", actor=BOSS)
    assert len(refused(a)) == before + 1 and _rows(a) == [("zhang", -1, "mine")]
    a.withdraw_feedback(t, user="zhang", actor=ADMIN)
    assert _rows(a) == []
    rows = [e for e in a.audit_entries(actor=ADMIN) if e.actor == "wang" and e.action == "feedback.give"]
    assert any("zhang" in e.target for e in rows)
