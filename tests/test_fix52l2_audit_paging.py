"""The audit page shows one page of a long trail and says how many rows match (review 52l, defect 2).

The page loaded, framed and CSV-encoded every row of the window on every rerun (100,000 rows a month:
3-4 s per click). Now one page of 1,000 rows, 共 N 条 from a COUNT, 上一页/下一页, and the CSV built only
when asked, capped. Failed before the fix.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fakes import fake_assistant
from test_pages_forms import open_page

EXTRA = 2_345


def _trail(tmp_path: Path, extra: int):
    """A desktop install whose trail holds `extra` uploads from the last hours (every fifth one failed)."""
    a = fake_assistant(tmp_path / "store")
    now = datetime.now(UTC)
    rows = [((now - timedelta(seconds=2 * i)).isoformat(timespec="seconds"), "li", "hr", "document.upload",
             f"制度{i}.docx", "ok" if i % 5 else "failed", "") for i in reversed(range(extra))]  # oldest first
    db = sqlite3.connect(a.audit_log.path)
    db.executemany("INSERT INTO audit (at, actor, role, action, target, outcome, detail) VALUES (?,?,?,?,?,?,?)", rows)
    db.commit()
    db.close()
    return a


@pytest.fixture()
def long_trail(tmp_path: Path):
    return _trail(tmp_path, EXTRA)


def test_the_trail_reads_one_page_and_counts_the_rest(long_trail) -> None:
    log = long_trail.audit_log
    everything = log.entries()
    first, second = log.entries(limit=1000), log.entries(limit=1000, offset=1000)
    assert first == everything[:1000] and second == everything[1000:2000]
    assert first.total == second.total == len(everything) == log.count()
    assert log.entries(offset=len(everything) - 3) == everything[-3:]
    failed = log.entries(outcome="failed", limit=10, offset=5)
    assert failed.total == log.count(outcome="failed") == len([e for e in everything if e.outcome == "failed"])
    assert failed == [e for e in everything if e.outcome == "failed"][5:15]
    assert log.entries(limit=0).total == len(everything) and log.entries(limit=0) == []


def _shown(at) -> list[str]:
    return list(at.dataframe[0].value["对象"])


def _button(at, label: str):
    return next(b for b in at.button if b.label == label)


def test_a_long_trail_shows_one_page_the_count_and_pages_on(long_trail, tmp_path, monkeypatch) -> None:
    total = long_trail.audit_log.count()
    assert total > 2 * 1000
    at = open_page(long_trail, tmp_path, monkeypatch, "pages/audit.py")
    assert not at.exception, [e.value for e in at.exception]
    assert any(f"共 **{total}** 条" in m.value for m in at.markdown), [m.value for m in at.markdown]
    assert len(_shown(at)) == 1000 and _shown(at)[0] == "制度0.docx"
    assert not at.get("download_button")  # no CSV built until asked for
    assert _button(at, "上一页").disabled and not _button(at, "下一页").disabled

    _button(at, "下一页").click().run()
    assert _shown(at)[0] == "制度1000.docx" and len(_shown(at)) == 1000
    _button(at, "下一页").click().run()
    assert len(_shown(at)) == total - 2000 and _button(at, "下一页").disabled
    assert any("第 3 / 3 页" in c.value for c in at.caption)

    next(s for s in at.selectbox if s.label == "结果").set_value("failed").run()  # a filter: back to page 1
    failed = long_trail.audit_log.count(outcome="failed")
    assert any(f"共 **{failed}** 条" in m.value for m in at.markdown)
    assert _shown(at)[0] == "制度0.docx" and len(_shown(at)) == failed < 1000
    assert not [b for b in at.button if b.label in ("上一页", "下一页")]  # one page: no pager


def test_the_csv_is_built_when_asked_for_and_capped(tmp_path, monkeypatch) -> None:
    a = _trail(tmp_path, 10_500)
    total = a.audit_log.count()
    at = open_page(a, tmp_path, monkeypatch, "pages/audit.py")
    assert not at.exception and not at.get("download_button")
    assert any(f"全部 {total:,} 条" in c.value and "10,000" in c.value for c in at.caption)  # the cap, said
    _button(at, "生成 CSV（最多 10,000 条）").click().run()
    (download,) = at.get("download_button")
    assert download.proto.label == "下载 CSV（10,000 条）"
