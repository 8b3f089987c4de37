"""Review 61 D1: doctor's "two versions in effect" check reads a version's write day in the office's zone, as the
catalog's own rule (`Catalog.superseded`) does, not the UTC day. Fake assistant: no model loads."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from itertools import product
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.documents import catalog as catalog_module
from rag_core.documents.catalog import Catalog
from rag_core.storage.health import doctor
from rag_core.storage.version_check import version_problems
from rag_core.types import Principal

ADMIN = Principal("root", "admin")
FIVE = "# 年假制度\n\n员工每年享有五天带薪年假。".encode()
TEN = "# 年假制度\n\n员工每年享有十天带薪年假。".encode()


def _inconsistent(data_dir: Path, timezone: str | None) -> list:
    return [c for c in doctor(data_dir, embedded_chroma=False, timezone=timezone) if c.status == "inconsistent"]


def test_a_version_for_new_yorks_tomorrow_is_not_two_versions_in_effect(tmp_path, monkeypatch):
    # 21:00 on 6 Dec in New York is 02:00 UTC on 7 Dec: the UTC day called the 7th "today"
    monkeypatch.setattr(catalog_module, "_utc_now", lambda: datetime(2026, 12, 7, 2, 0, tzinfo=UTC))
    a = fake_assistant(tmp_path / "s", timezone="America/New_York")
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=ADMIN).ok
    a.ingest_bytes(TEN, "年假制度.md", effective_date="2026-12-07", actor=ADMIN)  # New York's tomorrow
    assert a.catalog.superseded("年假制度", "America/New_York") == []
    assert _inconsistent(tmp_path / "s", "America/New_York") == []


def test_two_versions_left_in_effect_after_midnight_in_beijing_are_found(tmp_path, monkeypatch):
    # 01:00 on 7 Dec in Beijing is 17:00 UTC on 6 Dec: the UTC day called a version dated the 7th scheduled
    monkeypatch.setattr(catalog_module, "_utc_now", lambda: datetime(2026, 12, 6, 17, 0, tzinfo=UTC))
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=ADMIN).ok
    assert a.ingest_bytes(TEN, "年假制度.md", effective_date="2026-12-07", actor=ADMIN).ok  # the office's today
    db = sqlite3.connect(str(tmp_path / "s" / "catalog.sqlite3"))
    db.execute("UPDATE documents SET status='current' WHERE version=1")  # the race the check exists for
    db.commit()
    db.close()
    [found] = _inconsistent(tmp_path / "s", "Asia/Shanghai")
    assert "v1 和 v2" in found.detail


STAMPS = ["2026-12-06T17:00:00+00:00", "2026-12-07T02:00:00+00:00", "2026-12-06T23:59:59", "2026-12-07T12:00:00+00:00",
          "not a time"]
DATES = [None, "2026-12-06", "2026-12-07", "2026-12-08"]


@pytest.mark.parametrize("zone", ["Asia/Shanghai", "America/New_York", "UTC", "Pacific/Kiritimati"])
def test_doctor_and_the_catalog_judge_every_pair_of_versions_alike(tmp_path, zone):
    """One rule: doctor (storage, which may not import the catalog) finds exactly the versions `superseded` names."""
    catalog = Catalog(tmp_path / "catalog.sqlite3")
    pairs = list(product(STAMPS, DATES))
    with catalog.transaction() as db:
        for n, ((at1, eff1), (at2, eff2)) in enumerate(product(pairs, [("2026-12-07T02:00:00+00:00", None), *pairs])):
            for version, at, eff in ((1, at1, eff1), (2, at2, eff2)):
                db.execute("INSERT INTO documents VALUES (?, ?, 't', 's', 'all', 'h', 3, ?, ?, 'current')",
                           (f"d{n}", version, at, eff))
    named = {f"d{n}" for n in range(len(pairs) * (len(pairs) + 1)) if catalog.superseded(f"d{n}", zone)}
    found = {c.detail.split()[1] for c in version_problems(tmp_path / "catalog.sqlite3", zone)}
    assert named and found == named


def test_a_time_zone_that_is_no_zone_does_not_stop_doctor(tmp_path):
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=ADMIN).ok
    assert _inconsistent(tmp_path / "s", "Asia") == []  # tzdata's folder: read as UTC (the settings check says so)
