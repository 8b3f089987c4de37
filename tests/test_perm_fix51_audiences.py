"""Review 51i: refusals that left no audit row, an eval that opened any server path, an administrator's rating for
someone else, an unchecked public read of a conversation's audiences (fake embedder, real stores, team mode)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core import Assistant, Principal
from rag_core.types import AskTrace, SearchResult

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


# -- 5. the audiences a conversation showed are read only inside the engine ---------------------------------
def test_no_public_method_returns_the_audiences_of_anyones_conversation(a) -> None:
    from rag_core.facade.conversations import context_audiences

    a.ask("企鹅计划裁撤多少岗位", actor=BOSS, conversation="b1")
    probe = AskTrace(question="", answer="", search=SearchResult(query="", hits=[]), memories=[], prompt="",
                     sources=[], prompt_tokens=0, token_budget=0, dropped_hits=0, answerer="", conversation="b1", turn=9)
    assert not hasattr(a, "context_audiences")
    assert ("董事会",) in context_audiences(a, probe)  # what the insights log still records
