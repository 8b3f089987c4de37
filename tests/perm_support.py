"""Team mode for the review-51i permission tests: an administrator, an HR user, an employee and one with the 董事会
label, a policy for all and one for 董事会 (fake embedder, real stores)."""

from __future__ import annotations

from pathlib import Path

from fakes import fake_assistant

from rag_core import Assistant, Principal

ADMIN, HR = Principal("wang", "admin"), Principal("li", "hr")
EMP, BOSS = Principal("zhang", "employee"), Principal("boss", "employee", ("董事会",))
LAYOFF = "# 裁员方案\n\n第一条 企鹅计划裁撤三成岗位，补偿 N+3。\n"


def team_store(tmp_path: Path) -> Assistant:
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes("# 休假制度\n\n第一条 年假 5 天。\n".encode(), "leave.md").ok
    assert a.ingest_bytes(LAYOFF.encode(), "layoff.md", audience=["董事会"]).ok
    for p in (ADMIN, HR, EMP, BOSS):
        a.add_user(p.user, p.role, "correct horse", p.audiences, actor=ADMIN)
    return a


def refused(a: Assistant) -> list:
    return [e for e in a.audit_entries(actor=ADMIN) if e.outcome == "refused"]
