"""生效日期 is stored as YYYY-MM-DD whatever ISO form was typed: dates are compared as text."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core.documents.prepare import effective_day
from rag_core.errors import IngestError
from rag_core.types import Principal

ADMIN = Principal("root", "admin")
POLICY = "# 年假制度\n\n员工每年享有五天带薪年假。".encode()


def test_compact_and_week_dates_are_stored_as_iso_dates(tmp_path):
    a = fake_assistant(tmp_path / "store")
    report = a.ingest_bytes(POLICY, "年假制度.md", effective_date="20991204", actor=ADMIN)
    assert report.status == "indexed"
    assert [v.effective_date for v in a.document_versions("年假制度", actor=ADMIN)] == ["2099-12-04"]
    assert [d.status for d in a.list_documents(actor=ADMIN)] == ["scheduled"]
    assert a.estimate_ingest(POLICY, "年假制度.md", effective_date="2099-12-04", actor=ADMIN).unchanged
    again = a.ingest_bytes(POLICY, "年假制度.md", effective_date=" 20991204 ", actor=ADMIN)
    assert again.status == "unchanged"  # the same day, typed another way


def test_effective_day_forms():
    assert effective_day("2026-W49-5", "x.md") == "2026-12-04"
    assert effective_day("", "x.md") is None and effective_day(None, "x.md") is None
    with pytest.raises(IngestError, match="YYYY-MM-DD"):
        effective_day("2026/12/04", "x.md")


def test_an_unreadable_date_is_refused_in_chinese(tmp_path):
    a = fake_assistant(tmp_path / "store")
    report = a.ingest_bytes(POLICY, "年假制度.md", effective_date="明年", actor=ADMIN)
    assert report.status == "refused" and "请按 YYYY-MM-DD 填写" in report.error
    assert a.estimate_ingest(POLICY, "年假制度.md", effective_date="明年", actor=ADMIN).error
