"""The version history shows what each version is today: in effect, waiting for its day, or replaced."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fakes import fake_assistant

from rag_core.documents import catalog as catalog_module
from rag_core.documents.catalog import office_day
from rag_core.types import Principal

ADMIN = Principal("root", "admin")
FIVE = "# 年假制度\n\n员工每年享有五天带薪年假。".encode()
TEN = "# 年假制度\n\n员工每年享有十天带薪年假。".encode()
FIFTEEN = "# 年假制度\n\n员工每年享有十五天带薪年假。".encode()


def statuses(a) -> dict[int, tuple[str, bool]]:
    return {c.version: (c.status, c.is_current) for c in a.document_changes("年假制度", actor=ADMIN)}


def test_scheduled_and_superseded_versions_are_shown_as_such(tmp_path, monkeypatch):
    now = datetime.now(UTC).replace(hour=4)  # noon in Beijing
    monkeypatch.setattr(catalog_module, "_utc_now", lambda: now)
    today = office_day()
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=ADMIN).ok
    assert a.ingest_bytes(FIFTEEN, "年假制度.md", effective_date=str(today + timedelta(days=20)), actor=ADMIN).ok
    assert a.ingest_bytes(TEN, "年假制度.md", effective_date=str(today + timedelta(days=10)), actor=ADMIN).ok
    assert statuses(a) == {1: ("current", True), 2: ("scheduled", False), 3: ("scheduled", False)}
    monkeypatch.setattr(catalog_module, "_utc_now", lambda: now + timedelta(days=15))
    assert statuses(a) == {1: ("retired", False), 2: ("scheduled", False), 3: ("current", True)}
    monkeypatch.setattr(catalog_module, "_utc_now", lambda: now + timedelta(days=25))
    assert statuses(a) == {1: ("retired", False), 2: ("current", True), 3: ("retired", False)}
