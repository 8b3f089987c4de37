"""Review 61 (own1b R5): a re-cut whose scheduled version keeps its old cut leaves the scheduled version numbered
below the in-effect version's re-cut copy. That is no "second version in effect": doctor must not say so, and
re-importing the file in effect must not retire the scheduled change (before, doctor advised exactly that and the
unchanged re-import's self-heal deleted it). The rule (`Catalog.superseded`, doctor's `version_problems`): an older
version scheduled after the day the newer immediate one was written was kept on purpose, also once its day came.
Fake assistant: no model loads."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta
from itertools import product

import pytest
from fakes import fake_assistant

from rag_core.documents import catalog as catalog_module
from rag_core.documents.catalog import Catalog, versions_in_effect
from rag_core.errors import RagError
from rag_core.storage.health import doctor
from rag_core.storage.version_check import version_problems
from rag_core.types import Principal

HR = Principal("hr_li", "hr")
ADMIN = Principal("root", "admin")
NAME = "年假制度.md"
NOW = datetime(2026, 12, 7, 4, 0, tzinfo=UTC)  # noon in Beijing


def _policy(days: str) -> bytes:
    rules = "\n\n".join(f"第{i}条 员工年假规则{i}，按工龄计算，具体以人事部门核定为准。" for i in range(1, 8))
    return f"# 年假制度\n\n{rules}\n\n第九条 年假{days}。\n".encode()


def _current(a) -> list[tuple[int, str | None]]:
    return [(v.version, v.effective_date) for v in a.catalog.versions("年假制度") if v.status == "current"]


def _inconsistent(a) -> list:
    return [c for c in doctor(a._settings.data_dir, embedded_chroma=False) if c.status == "inconsistent"]


@pytest.fixture
def kept_cut(tmp_path, monkeypatch):
    """v1 in effect, v2 scheduled in 30 days whose re-cut fails: v3 (v1's copy) in effect, v2 still scheduled."""
    monkeypatch.setattr(catalog_module, "_utc_now", lambda: NOW)
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(_policy("五天"), NAME, actor=HR).version == 1
    assert a.ingest_bytes(_policy("十天（新制度）"), NAME, effective_date="2027-01-06", actor=HR).version == 2
    write = a.indexer.write

    def scheduled_fails(prepared, *args, **kw):
        if any("新制度" in c.text for c in prepared.chunks):
            raise RagError("模拟：写入失败")
        return write(prepared, *args, **kw)

    a.indexer.write = scheduled_fails
    a._settings = dataclasses.replace(a._settings, chunk_size=max(60, a._settings.chunk_size // 4), chunk_overlap=0)
    report = a.reindex(actor=ADMIN)
    a.indexer.write = write
    assert len(report.failed) == 1 and "v2" in report.failed[0]
    assert _current(a) == [(2, "2027-01-06"), (3, None)]
    return a


def test_doctor_does_not_call_a_kept_scheduled_version_a_second_version_in_effect(kept_cut):
    assert kept_cut.catalog.superseded("年假制度") == []
    assert _inconsistent(kept_cut) == []


def test_reimporting_the_file_in_effect_keeps_the_scheduled_change(kept_cut):
    again = kept_cut.ingest_bytes(_policy("五天"), NAME, actor=HR)
    assert again.status == "unchanged" and not any("停用" in w for w in again.warnings)
    live = [v for v in kept_cut.catalog.versions("年假制度") if v.status == "current"]
    assert versions_in_effect(live, "2027-01-06")["年假制度"].version == 2


def test_once_its_day_came_the_kept_version_in_effect_is_not_retired_either(kept_cut, monkeypatch):
    monkeypatch.setattr(catalog_module, "_utc_now", lambda: NOW + timedelta(days=31))
    assert kept_cut.catalog.superseded("年假制度") == []
    assert _inconsistent(kept_cut) == []
    kept_cut.ingest_bytes(_policy("十天（新制度）"), NAME, effective_date="2027-01-06", actor=HR)
    live = [v for v in kept_cut.catalog.versions("年假制度") if v.status == "current"]
    assert "新制度" in kept_cut.catalog.chunks_of("年假制度", versions_in_effect(live, "2027-01-07")["年假制度"].version)[-1].text


STAMPS = ["2026-12-01T04:00:00+00:00", "2026-12-06T17:00:00+00:00", "2026-12-07T02:00:00+00:00", "not a time"]
DATES = [None, "2026-12-01", "2026-12-07", "2026-12-20"]


@pytest.mark.parametrize("zone", ["Asia/Shanghai", "America/New_York"])
def test_doctor_and_the_catalog_judge_three_versions_alike(tmp_path, zone):
    """Three versions (a kept scheduled one between two immediate ones, and every other mix): one verdict."""
    catalog = Catalog(tmp_path / "catalog.sqlite3")
    triples = list(product(product(STAMPS[:3], DATES), repeat=3))[::7]
    with catalog.transaction() as db:
        for n, rows in enumerate(triples):
            for version, (at, eff) in enumerate(rows, start=1):
                db.execute("INSERT INTO documents VALUES (?, ?, 't', 's', 'all', 'h', 3, ?, ?, 'current')",
                           (f"d{n}", version, at, eff))
    named = {f"d{n}": [v.version for v in catalog.superseded(f"d{n}", zone)] for n in range(len(triples))}
    found = {c.detail.split()[1]: c.detail for c in version_problems(tmp_path / "catalog.sqlite3", zone)}
    assert set(found) == {d for d, extra in named.items() if extra}
    for doc, extra in named.items():
        if extra:
            assert "、".join(f"v{v}" for v in extra) in found[doc]
