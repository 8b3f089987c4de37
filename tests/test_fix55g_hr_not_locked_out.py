"""HR may replace and delete a 全体员工 policy it sees, though an old version for another audience stands behind it in
the catalog (review 55g #2): a scheduled version's day retires nothing, so the managers-only v1 it replaced stayed
'current', and the upload and delete checks read every version, locking HR out of the document its page lists."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from fakes import fake_assistant

import rag_core.documents.catalog as catalog
from rag_core.errors import PermissionDenied
from rag_core.types import Principal

HR, ADMIN = Principal("li", "hr"), Principal("wang", "admin")
V1 = "# 年终奖制度\n\n第三条 年终奖按个人绩效核定，于次年一月发放。\n".encode()
V2 = "# 年终奖制度\n\n第三条 年终奖按个人绩效与部门系数核定，于次年一月发放。\n".encode()
V3 = "# 年终奖制度\n\n第三条 年终奖按个人绩效与部门系数核定，于次年二月发放。\n".encode()


def scheduled_widening(tmp_path, monkeypatch):
    """v1 管理者-only; v2 for 全体员工 dated +5 days; the clock 6 days on (v2 in effect, v1 still 'current')."""
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(V1, "年终奖制度.md", audience=["managers"], actor=ADMIN).ok
    day = (catalog.office_day() + timedelta(days=5)).isoformat()
    assert a.ingest_bytes(V2, "年终奖制度.md", effective_date=day, actor=ADMIN).version == 2
    later = datetime.now(UTC) + timedelta(days=6)
    monkeypatch.setattr(catalog, "_utc_now", lambda: later)
    doc = a.list_documents(actor=HR)
    assert [(d.version, d.audience, d.status) for d in doc] == [(2, ("all",), "current")]
    return a, doc[0].doc_id


def test_fix55g_hr_uploads_a_new_version_over_the_policy_it_sees(tmp_path, monkeypatch):
    a, doc_id = scheduled_widening(tmp_path, monkeypatch)
    assert a.estimate_ingest(V3, "年终奖制度.md", actor=HR).error is None
    report = a.ingest_bytes(V3, "年终奖制度.md", actor=HR)
    assert report.status == "indexed" and report.version == 3, report.error


def test_fix55g_hr_deletes_the_policy_it_sees(tmp_path, monkeypatch):
    a, doc_id = scheduled_widening(tmp_path, monkeypatch)
    assert a.delete_document(doc_id, actor=HR) > 0
    assert a.list_documents(actor=ADMIN) == []


def test_fix55g_a_version_standing_for_another_audience_still_refuses(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(V1, "年终奖制度.md", audience=["managers"], actor=ADMIN).ok
    day = (catalog.office_day() + timedelta(days=5)).isoformat()
    assert a.ingest_bytes(V2, "年终奖制度.md", effective_date=day, actor=ADMIN).version == 2
    doc_id = a.catalog.live_versions()[0].doc_id  # v1 (管理者) is in effect until v2's day
    with pytest.raises(PermissionDenied):
        a.delete_document(doc_id, actor=HR)
    assert a.ingest_bytes(V3, "年终奖制度.md", actor=HR).status == "refused"


def test_fix55g_a_retired_version_for_another_audience_does_not_block_the_delete(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(V1, "年终奖制度.md", audience=["managers"], actor=ADMIN).ok
    assert a.ingest_bytes(V2, "年终奖制度.md", actor=ADMIN).version == 2  # v1 retired at once
    doc_id = a.list_documents(actor=HR)[0].doc_id
    assert a.delete_document(doc_id, actor=HR) > 0
    assert a.catalog.versions(doc_id) == []
