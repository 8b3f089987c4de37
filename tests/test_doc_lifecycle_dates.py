"""Effective dates are the office's days, and the version in effect is the one with the latest date that has come.

The office's day comes from `Settings.timezone`; the server's own day once decided (a UTC host made a version
dated today take effect at 08:00 Beijing). A correction scheduled for an earlier day than a version uploaded
before it must not hide that version once its own day comes.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from fakes import fake_assistant

from rag_core.documents import catalog as catalog_module
from rag_core.documents.catalog import office_day
from rag_core.types import Principal

ADMIN = Principal("root", "admin")
FIVE = "# 年假制度\n\n员工每年享有五天带薪年假。".encode()
TEN = "# 年假制度\n\n员工每年享有十天带薪年假。".encode()
FIFTEEN = "# 年假制度\n\n员工每年享有十五天带薪年假。".encode()


def pin_clock(monkeypatch, moment: datetime) -> None:
    monkeypatch.setattr(catalog_module, "_utc_now", lambda: moment)


def test_office_day_is_the_day_in_the_offices_zone(monkeypatch):
    pin_clock(monkeypatch, datetime(2026, 3, 1, 17, 0, tzinfo=UTC))  # 01:00 on 2 March in Beijing
    assert office_day("Asia/Shanghai") == date(2026, 3, 2)
    assert office_day("UTC") == date(2026, 3, 1)
    assert office_day() == date(2026, 3, 2)  # the settings' default zone


def far_zone() -> tuple[str, date]:
    """A zone whose day differs from the server's right now (UTC+14 and UTC-12 never share the local day)."""
    for zone in ("Etc/GMT-14", "Etc/GMT+12"):
        day = datetime.now(ZoneInfo(zone)).date()
        if day != date.today():
            return zone, day
    raise AssertionError("unreachable: the two zones are 26 hours apart")


def test_a_version_dated_the_offices_today_is_in_effect_everywhere_not_the_servers(tmp_path):
    zone, office = far_zone()
    server = date.today()
    dated = max(office, server).isoformat()  # in effect at the office only when the office's day has come
    in_effect = dated <= office.isoformat()
    a = fake_assistant(tmp_path / "store", timezone=zone)
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=ADMIN).ok
    report = a.ingest_bytes(TEN, "年假制度.md", effective_date=dated, actor=ADMIN)
    assert report.status == "indexed"
    expected = 2 if in_effect else 1
    listed = a.list_documents(actor=ADMIN)
    assert [(d.version, d.status) for d in listed] == [(expected, "current")]
    assert a.retriever.visible("all", timezone=zone).keys == {f"年假制度@v{expected}"}
    hits = a.search("年假 天", actor=ADMIN).hits
    assert hits and {h.chunk.version for h in hits} == {expected}
    current = [c.version for c in a.document_changes("年假制度", actor=ADMIN) if c.is_current]
    assert current == [expected]
    live = [v.version for v in a.document_versions("年假制度", actor=ADMIN) if v.status == "current"]
    assert live == ([2] if in_effect else [1, 2])  # written on the office's day: it replaced v1 at once


@pytest.fixture
def corrected(tmp_path, monkeypatch):
    """v1 in effect; v2 (十五天) scheduled in 20 days; then v3 (十天, a correction) scheduled in 10 days."""
    now = datetime.now(UTC).replace(hour=4)  # noon in Beijing: no day boundary near
    pin_clock(monkeypatch, now)
    today = office_day()
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=ADMIN).ok
    in20, in10 = (today + timedelta(days=20)).isoformat(), (today + timedelta(days=10)).isoformat()
    assert a.ingest_bytes(FIFTEEN, "年假制度.md", effective_date=in20, actor=ADMIN).version == 2
    assert a.ingest_bytes(TEN, "年假制度.md", effective_date=in10, actor=ADMIN).version == 3
    return a, now


@pytest.mark.parametrize(("days", "expected"), [(0, 1), (15, 3), (25, 2)])
def test_the_version_in_effect_has_the_latest_date_that_has_come(corrected, monkeypatch, days, expected):
    a, now = corrected
    pin_clock(monkeypatch, now + timedelta(days=days))
    assert a.retriever.visible("all").keys == {f"年假制度@v{expected}"}
    assert [d.version for d in a.list_documents(actor=ADMIN)] == [expected]
    assert [c.version for c in a.document_changes("年假制度", actor=ADMIN) if c.is_current] == [expected]
    texts = " ".join(c.text for c in a.document_chunks("年假制度", actor=ADMIN) if c.version == expected)
    assert {1: "五天", 2: "十五天", 3: "十天"}[expected] in texts


def test_reuploading_the_version_in_effect_leaves_the_scheduled_one(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=ADMIN).ok
    later = (office_day() + timedelta(days=10)).isoformat()
    assert a.ingest_bytes(TEN, "年假制度.md", effective_date=later, actor=ADMIN).version == 2
    assert a.estimate_ingest(FIVE, "年假制度.md", actor=ADMIN).unchanged
    again = a.ingest_bytes(FIVE, "年假制度.md", actor=ADMIN)
    assert (again.status, again.version) == ("unchanged", 1)
    live = [(v.version, v.effective_date) for v in a.document_versions("年假制度", actor=ADMIN) if v.status == "current"]
    assert live == [(1, None), (2, later)]  # the scheduled version is still there
    assert a.ingest_bytes(TEN, "年假制度.md", effective_date=later, actor=ADMIN).status == "unchanged"
