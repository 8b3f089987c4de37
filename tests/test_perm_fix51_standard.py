"""Review 51i: refusals that left no audit row, an eval that opened any server path, an administrator's rating for
someone else, an unchecked public read of a conversation's audiences (fake embedder, real stores, team mode)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core import Assistant, Principal
from rag_core.insights.standard import StandardAnswerError

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


# -- 6. another audience's standard answer ------------------------------------------------------------------
@pytest.mark.parametrize("action", ["delete_standard_answer", "release_standard_answer"])
def test_refusing_another_audiences_standard_answer_is_audited(a, action) -> None:
    entry = a.add_standard_answer("企鹅计划怎么补偿", "N+3", audience=("董事会",), actor=ADMIN)
    before = len(refused(a))
    with pytest.raises(StandardAnswerError, match="没有编号"):
        getattr(a, action)(entry.id, actor=HR)
    rows = refused(a)
    assert len(rows) == before + 1 and rows[0].detail == "受众不可见" and entry.id in rows[0].target
    assert [e.id for e in a.standard_answers(actor=ADMIN)] == [entry.id]
