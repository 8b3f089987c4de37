"""Damage is said in short Chinese reasons; SQLite's English goes to the log only (review 54e #4).

Pages and the CLI showed "(file is not a database)", "(database disk image is malformed)" and PRAGMA
quick_check's "*** in database main *** On tree page 7 cell 12: invalid page number …" inside Chinese lines.
Real SQLite files, really damaged.
"""

from __future__ import annotations

import logging
import re
import sqlite3
from pathlib import Path

from rag_core.facade.stores import INSIGHTS_FILE, damaged_line
from rag_core.storage.health import doctor, sqlite_problem

ENGLISH = re.compile(r"[A-Za-z]{3,}")


def _reason(line: str, name: str) -> str:
    return line.replace(name, "").replace("python -m rag_core doctor", "")


def _not_a_database(path: Path) -> Path:
    path.write_bytes(b"this is not SQLite at all, just text" * 200)
    return path


def _garbled_tree(path: Path) -> Path:
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)")
    con.executemany("INSERT INTO t (body) VALUES (?)", [("年假" * 50,) for _ in range(400)])
    con.execute("CREATE INDEX t_body ON t (body)")
    con.commit()
    con.close()
    data = bytearray(path.read_bytes())
    page = 4096
    for number in (2, 3, 5):  # interior pages of the table and the index: garbage over their cells
        data[number * page + 8: number * page + 200] = bytes(range(192))
    path.write_bytes(bytes(data))
    return path


def test_fix54e_not_a_database_is_said_in_chinese(tmp_path, caplog):
    with caplog.at_level(logging.WARNING):
        problem = sqlite_problem(_not_a_database(tmp_path / "memory.sqlite3"))
    assert problem == "数据库文件已损坏（文件头不是数据库）"
    assert "file is not a database" in caplog.text  # the raw text stays in the log


def test_fix54e_quick_check_rows_are_not_shown(tmp_path, caplog):
    with caplog.at_level(logging.WARNING):
        problem = sqlite_problem(_garbled_tree(tmp_path / "audit.sqlite3"))
    assert problem and problem.startswith("数据库文件已损坏（")
    assert not ENGLISH.search(problem), problem
    assert "store damage" in caplog.text


def test_fix54e_doctor_rows_hold_no_sqlite_english(tmp_path):
    store = tmp_path / "store"
    store.mkdir(mode=0o700)
    _not_a_database(store / "memory.sqlite3")
    _garbled_tree(store / "conversations.sqlite3")
    rows = {c.file: c for c in doctor(store)}
    for name in ("memory.sqlite3", "conversations.sqlite3"):
        assert rows[name].status == "damaged"
        assert not ENGLISH.search(rows[name].detail), rows[name].detail


def test_fix54e_a_feature_store_line_is_chinese():
    line = damaged_line(INSIGHTS_FILE, sqlite3.DatabaseError("database disk image is malformed"))
    assert "内部结构损坏" in line
    assert not ENGLISH.search(_reason(line, INSIGHTS_FILE)), line
