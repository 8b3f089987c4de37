"""Re-uploading a scheduled version west of UTC keeps the version in effect (review of s49, defect 3).

`Catalog.superseded` judged "written without a future date" by the UTC day of `ingested_at`; at
06:00 UTC it is still yesterday in Etc/GMT+12, so a version scheduled for the office's tomorrow
counted as immediate on its re-upload, retired v1, and search found nothing until midnight.
The clock is pinned (`catalog._utc_now`, which also stamps `ingested_at`), whatever hour the test runs.
"""

from __future__ import annotations

from datetime import UTC, datetime

from fakes import fake_assistant

from rag_core.documents import catalog as catalog_module
from rag_core.documents.catalog import Catalog
from rag_core.types import Principal

ADMIN = Principal("root", "admin")
FIVE = "# 年假制度\n\n员工每年享有五天带薪年假。".encode()
TEN = "# 年假制度\n\n员工每年享有十天带薪年假。".encode()
ZONE = "Etc/GMT+12"  # UTC-12
MOMENT = datetime(2026, 3, 2, 6, 0, tzinfo=UTC)  # 18:00 on 1 March at the office
OFFICE_TOMORROW = "2026-03-02"  # the UTC day already


def test_re_uploading_a_scheduled_version_keeps_the_one_in_effect(tmp_path, monkeypatch):
    monkeypatch.setattr(catalog_module, "_utc_now", lambda: MOMENT)
    a = fake_assistant(tmp_path / "store", timezone=ZONE)
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=ADMIN).status == "indexed"
    assert a.ingest_bytes(TEN, "年假制度.md", effective_date=OFFICE_TOMORROW, actor=ADMIN).status == "indexed"
    again = a.ingest_bytes(TEN, "年假制度.md", effective_date=OFFICE_TOMORROW, actor=ADMIN)
    assert again.status == "unchanged"
    assert not any("已停用" in w for w in again.warnings), again.warnings
    statuses = {v.version: v.status for v in a.document_versions("年假制度", actor=ADMIN)}
    assert statuses == {1: "current", 2: "current"}, statuses
    hits = a.search("年假 天", actor=ADMIN).hits
    assert hits and {h.chunk.version for h in hits} == {1}


def test_superseded_reads_the_office_day_of_ingested_at(tmp_path, monkeypatch):
    """Catalog level: a version written on the office's 1 March, dated 2 March, was scheduled, not immediate."""
    monkeypatch.setattr(catalog_module, "_utc_now", lambda: MOMENT)
    a = fake_assistant(tmp_path / "store", timezone=ZONE)
    a.ingest_bytes(FIVE, "年假制度.md", actor=ADMIN)
    a.ingest_bytes(TEN, "年假制度.md", effective_date=OFFICE_TOMORROW, actor=ADMIN)
    catalog: Catalog = a.catalog
    assert catalog.superseded("年假制度", ZONE) == []
    assert [v.version for v in catalog.superseded("年假制度", "Asia/Shanghai")] == [1]  # 14:00 on 2 March there
