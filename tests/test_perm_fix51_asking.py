"""Review 51i: refusals that left no audit row, an eval that opened any server path, an administrator's rating for
someone else, an unchecked public read of a conversation's audiences (fake embedder, real stores, team mode)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core import Assistant, PermissionDenied, Principal
from rag_core.conversations.store import ConversationError, ForeignConversation

ADMIN, HR = Principal("wang", "admin"), Principal("li", "hr")
EMP, BOSS = Principal("zhang", "employee"), Principal("boss", "employee", ("董事会",))
LAYOFF = "# 裁员方案\n\n第一条 企鹅计划裁撤三成岗位，补偿 N+3。\n"


@pytest.fixture()
def a(tmp_path: Path) -> Assistant:
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes("# 休假制度\n\n第一条 年假 5 天。\n".encode(), "leave.md").ok
    assert a.ingest_bytes(LAYOFF.encode(), "layoff.md", audience=["董事会"]).ok
    for p in (ADMIN, HR, EMP, BOSS):
        a.add_user(p.user, p.role, "correct horse", p.audiences, actor=ADMIN)
    return a


def refused(a: Assistant) -> list:
    return [e for e in a.audit_entries(actor=ADMIN) if e.outcome == "refused"]


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
