"""An older insights store gains its columns in one transaction, each only when missing.

A kill between the two ALTERs of the conversation/turn migration (each committed on its own) had left `conversation`
without `turn`; every later open failed on the duplicate column, so gaps, usage and feedback review were off for good
and `doctor` called the file healthy."""

from __future__ import annotations

import sqlite3

import pytest

from rag_core.insights import log as insight_log
from rag_core.insights.log import InsightLog

OLD_QUESTIONS = """CREATE TABLE questions (id INTEGER PRIMARY KEY AUTOINCREMENT, asked_at TEXT NOT NULL,
    user_id TEXT NOT NULL, role TEXT NOT NULL, question TEXT NOT NULL, outcome TEXT NOT NULL, hit_count INTEGER NOT NULL,
    cited_docs TEXT NOT NULL, nearest TEXT NOT NULL, standard_id TEXT, model TEXT, vector BLOB,
    traffic TEXT NOT NULL DEFAULT 'person')"""


def _columns(path) -> list[str]:
    with sqlite3.connect(path) as db:
        return [row[1] for row in db.execute("PRAGMA table_info(questions)")]


def test_a_store_left_half_migrated_by_a_kill_opens_and_is_completed(tmp_path):
    path = tmp_path / "insights.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute(OLD_QUESTIONS)
        db.execute("ALTER TABLE questions ADD COLUMN conversation TEXT")  # the kill came before `turn`
    InsightLog(path)._db.close()
    assert _columns(path)[-2:] == ["conversation", "turn"]


def test_a_migration_stopped_halfway_changes_nothing(tmp_path, monkeypatch):
    path = tmp_path / "insights.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute(OLD_QUESTIONS)
    before = _columns(path)
    added = InsightLog._add_missing

    def stopped_before_turn(self, table, column, declaration):
        if column == "turn":
            raise KeyboardInterrupt  # the process stopped between two ALTERs
        return added(self, table, column, declaration)

    monkeypatch.setattr(insight_log.InsightLog, "_add_missing", stopped_before_turn)
    with pytest.raises(KeyboardInterrupt):
        InsightLog(path)
    assert _columns(path) == before  # rolled back: no `conversation` without `turn`
