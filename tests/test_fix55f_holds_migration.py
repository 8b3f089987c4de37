"""The holds table's move to one row per reason survives an interruption (review 55f, defect 3): a process killed
while the old rows were being copied had left them stranded beside an empty new table, and every held answer was
served again.

Each test failed before its fix (checked by running it on the unfixed code).
"""

from __future__ import annotations

import sqlite3
import threading

import pytest

from rag_core.insights.standard_holds import HoldTable

OLD = ("CREATE TABLE standard_holds (answer_id TEXT PRIMARY KEY, doc_title TEXT NOT NULL,"
       " doc_audience TEXT NOT NULL, held_at TEXT NOT NULL, reason TEXT NOT NULL DEFAULT 'deleted');")
ROW = ("a1", "年假制度", "all", "2026-01-05T02:00:00+00:00", "changed")


def _old_file(path) -> None:
    db = sqlite3.connect(str(path))
    db.executescript(OLD)
    db.execute("INSERT INTO standard_holds VALUES (?,?,?,?,?)", ROW)
    db.commit()
    db.close()


def _holds(path) -> dict:
    db = sqlite3.connect(str(path))
    try:
        table = HoldTable(db, threading.RLock())
        db.commit()
        return table.all()
    finally:
        db.close()


def test_a_copy_interrupted_midway_loses_no_hold(tmp_path):
    path = tmp_path / "standard.sqlite3"
    _old_file(path)
    db = sqlite3.connect(str(path))
    copying = []
    db.set_trace_callback(lambda sql: copying.append(sql) if "INSERT" in sql.upper() else None)
    db.set_progress_handler(lambda: 1 if copying else 0, 1)  # the process dies while the rows are copied
    with pytest.raises(sqlite3.OperationalError, match="interrupt"):
        HoldTable(db, threading.RLock())
    db.close()
    holds = _holds(path)
    assert [h.reason for h in holds["a1"]] == ["changed"]


def test_rows_stranded_by_an_earlier_interruption_are_taken_in(tmp_path):
    """The state the earlier code left: the new table made, the old rows still under the renamed one."""
    path = tmp_path / "standard.sqlite3"
    db = sqlite3.connect(str(path))
    db.executescript(OLD.replace("standard_holds", "standard_holds_one_per_answer"))
    db.execute("INSERT INTO standard_holds_one_per_answer VALUES (?,?,?,?,?)", ROW)
    db.execute("CREATE TABLE standard_holds (answer_id TEXT NOT NULL, doc_title TEXT NOT NULL, doc_audience TEXT"
               " NOT NULL, held_at TEXT NOT NULL, reason TEXT NOT NULL DEFAULT 'deleted',"
               " PRIMARY KEY (answer_id, doc_title, reason))")
    db.commit()
    db.close()
    assert [h.reason for h in _holds(path)["a1"]] == ["changed"]
    db = sqlite3.connect(str(path))
    left = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'standard_holds_one_per_answer'").fetchall()
    db.close()
    assert left == []
