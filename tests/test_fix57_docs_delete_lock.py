"""HR's delete checks the audiences holding the writer lock, as an upload does.

The check ran before `Indexer.delete_document` took the locks: an admin narrowing the document to 管理者 in between
had its managers-only version deleted by HR, who may not read it. Fake embedder, real Chroma and SQLite.
"""

from __future__ import annotations

import threading

from fakes import fake_assistant

import rag_core.facade.documents as facade_documents
from rag_core import Principal
from rag_core.errors import PermissionDenied
from rag_core.search.indexer import WAITING

ADMIN, HR = Principal("boss", "admin"), Principal("hr_li", "hr")
NAME = "绩效奖金办法.md"
BASE = "# 绩效奖金办法\n\n## 第一条\n\n绩效奖金按季度发放。\n".encode()
NARROWED = "# 绩效奖金办法\n\n## 第一条\n\n部门经理绩效奖金为年薪的百分之四十。\n".encode()


def test_a_version_written_while_hr_deletes_is_checked_before_anything_goes(tmp_path, monkeypatch):
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(BASE, NAME, audience=("all",), actor=ADMIN).ok
    real = facade_documents.refuse_unreplaceable
    settled = threading.Event()  # the admin's upload finished, or waits for HR's delete to let go of the lock
    reports = []

    def admin_narrows() -> None:
        def progress(stage: str, fraction: float) -> None:
            if stage == WAITING:
                settled.set()
        reports.append(a.ingest_bytes(NARROWED, NAME, audience=("managers",), actor=ADMIN, progress=progress))
        settled.set()

    admin = threading.Thread(target=admin_narrows)

    def checked_then_admin_writes(*args, **kwargs):
        real(*args, **kwargs)  # HR passes: only the 全体员工 version stands
        if not admin.is_alive() and not reports:
            admin.start()  # between HR's check and the delete
            assert settled.wait(30)

    monkeypatch.setattr(facade_documents, "refuse_unreplaceable", checked_then_admin_writes)
    try:
        a.delete_document("绩效奖金办法", actor=HR)
    except PermissionDenied:
        pass  # refused: the managers' version was there when HR's check ran; either order keeps it
    admin.join(30)
    assert reports and reports[0].ok, reports
    kept = [v for v in a.catalog.versions("绩效奖金办法") if v.status == "current"]
    assert [v.audience for v in kept] == [("managers",)]  # the managers' version survived HR's delete


def test_a_refused_delete_is_audited_and_removes_nothing(tmp_path):
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(NARROWED, NAME, audience=("managers",), actor=ADMIN).ok
    assert a.delete_document("绩效奖金办法", actor=HR) == 0  # as an unknown id; the audit keeps the reason
    assert [v.status for v in a.catalog.versions("绩效奖金办法")] == ["current"]
    assert a.delete_document("绩效奖金办法", actor=ADMIN) == 1
