"""Review 51i: refusals that left no audit row, an eval that opened any server path, an administrator's rating for
someone else, an unchecked public read of a conversation's audiences (fake embedder, real stores, team mode)."""

from __future__ import annotations

from pathlib import Path

import pytest
from perm_support import BOSS, EMP, refused, team_store

from rag_core import Assistant, PermissionDenied
from rag_core.conversations.store import ConversationError, ForeignConversation


@pytest.fixture()
def a(tmp_path: Path) -> Assistant:
    return team_store(tmp_path)


# -- 3. and 7. asking where one may not ----------------------------------------------------------------
def test_asking_as_nobody_in_a_conversation_is_audited(a) -> None:
    before = len(refused(a))
    with pytest.raises(PermissionDenied):
        a.ask("年假几天", user="", conversation="c1", actor=EMP)
    rows = refused(a)
    assert len(rows) == before + 1 and "c1" in rows[0].target


def test_asking_in_another_persons_conversation_is_a_permission_refusal(a) -> None:
    a.ask("年假几天", actor=BOSS, conversation="b1")
    assert issubclass(ForeignConversation, PermissionDenied) and issubclass(ForeignConversation, ConversationError)
    before = len(refused(a))
    with pytest.raises(PermissionDenied, match="属于其他用户"):
        a.ask("年假几天", actor=EMP, conversation="b1")
    assert len(refused(a)) == before + 1
