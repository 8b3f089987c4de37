"""Effective dates an older release stored as typed (20261204, 2026-W49-5) are read as ISO days (review 61, rev-time d4).

Compared as text with the office's ISO day, "20261204" > "2026-12-20": that version waited until 1 January. The
catalog rewrites them as YYYY-MM-DD when it opens; an unparseable one is left as it is, and opening again changes
nothing.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

from fakes import fake_assistant

from rag_core.documents import catalog as catalog_module
from rag_core.documents.catalog import Catalog
from rag_core.types import Principal

ADMIN = Principal("root", "admin")
FIVE = "# 年假制度\n\n员工每年享有五天带薪年假。".encode()
TEN = "# 年假制度\n\n员工每年享有十天带薪年假。".encode()


def _stored(path, day):
    db = sqlite3.connect(str(path))
    db.execute("UPDATE documents SET effective_date=? WHERE version=2", (day,))
    db.commit()
    db.close()


def _dates(path):
    db = sqlite3.connect(str(path))
    try:
        return [row[0] for row in db.execute("SELECT effective_date FROM documents ORDER BY version")]
    finally:
        db.close()


def test_a_compact_effective_date_takes_effect_on_its_day(tmp_path, monkeypatch):
    monkeypatch.setattr(catalog_module, "_utc_now", lambda: datetime(2026, 12, 1, 4, 0, tzinfo=UTC))
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=ADMIN).ok
    assert a.ingest_bytes(TEN, "年假制度.md", effective_date="2026-12-04", actor=ADMIN).version == 2
    path = tmp_path / "s" / "catalog.sqlite3"
    _stored(path, "20261204")  # as a release before c0800d5 stored it
    monkeypatch.setattr(catalog_module, "_utc_now", lambda: datetime(2026, 12, 20, 4, 0, tzinfo=UTC))
    b = fake_assistant(tmp_path / "s")
    assert [(d.version, d.effective_date) for d in b.list_documents(actor=ADMIN)] == [(2, "2026-12-04")]
    assert {h.chunk.version for h in b.search("年假 天", actor=ADMIN).hits} == {2}


def test_week_dates_are_rewritten_unparseable_ones_kept_and_a_second_open_writes_nothing(tmp_path):
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=ADMIN).ok
    assert a.ingest_bytes(TEN, "年假制度.md", effective_date="2026-12-04", actor=ADMIN).ok
    assert a.ingest_bytes(FIVE, "其他制度.md", actor=ADMIN).ok
    path = tmp_path / "s" / "catalog.sqlite3"
    db = sqlite3.connect(str(path))
    db.execute("UPDATE documents SET effective_date='2026-W49-5' WHERE version=2")
    db.execute("UPDATE documents SET effective_date='下个月' WHERE doc_id='其他制度'")
    db.commit()
    db.close()
    first = Catalog(path)
    generation = first.generation()
    first.close()
    assert sorted(map(str, _dates(path))) == sorted(["None", "下个月", "2026-12-04"])
    again = Catalog(path)
    assert again.generation() == generation  # nothing left to rewrite: no write at all
    again.close()
