"""A full disk at start is said as a full disk, never as damage to move or delete (review 54e #1).

On a full volume, opening a WAL store whose -shm is not there yet fails with SQLITE_IOERR_SHMSIZE
("disk I/O error", extended code 4874): checked by hand on a full tmpfs. Here the open raises that real
error code (a full disk needs root to mount); the stores themselves are real SQLite files.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections import namedtuple

import pytest
from fakes import fake_assistant

from rag_core.errors import StoreDamaged
from rag_core.facade.stores import INSIGHTS_FILE, damaged_line
from rag_core.storage import health
from rag_core.storage.health import doctor, open_checks, sqlite_problem
from rag_core.storage.sqlite_access import access_problem, problem_of

DOC = "# 年假制度\n\n第一条 员工每年享有五天带薪年假。\n".encode()
Usage = namedtuple("Usage", "total used free")


def io_error(code: int) -> sqlite3.OperationalError:
    exc = sqlite3.OperationalError("disk I/O error")
    exc.sqlite_errorcode = code
    return exc


@pytest.fixture()
def data_dir(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.ingest_bytes(DOC, "年假制度.md")
    a.release_data_dir()
    return tmp_path / "store"


def _full_at_open(monkeypatch, code: int = sqlite3.SQLITE_IOERR_SHMSIZE) -> None:
    def refuse(path, **kwargs):
        raise io_error(code)

    monkeypatch.setattr(health, "connect_ro", refuse)


def test_fix54e_space_io_errors_are_a_full_disk(tmp_path, monkeypatch):
    problem = problem_of(io_error(sqlite3.SQLITE_IOERR_SHMSIZE))
    assert problem.startswith("无法写入：磁盘空间已满") and "损坏" not in problem
    # a failed write() is full only on a full volume (review 54i #1: EIO with room left is a disk I/O error)
    monkeypatch.setattr(shutil, "disk_usage", lambda folder: Usage(100, 100, 0))
    problem = problem_of(io_error(sqlite3.SQLITE_IOERR_WRITE), tmp_path)
    assert problem.startswith("无法写入：磁盘空间已满") and "损坏" not in problem


def test_fix54e_any_io_error_on_a_full_volume_is_a_full_disk(tmp_path, monkeypatch):
    plain = io_error(sqlite3.SQLITE_IOERR_FSYNC)
    assert "损坏" in problem_of(plain, tmp_path)  # room left: an I/O error is not explained by space
    monkeypatch.setattr(shutil, "disk_usage", lambda folder: Usage(100, 100, 0))
    assert problem_of(plain, tmp_path).startswith("无法写入：磁盘空间已满")
    assert problem_of(io_error(sqlite3.SQLITE_IOERR), tmp_path).startswith("无法写入：磁盘空间已满")


def test_fix54e_doctor_on_a_full_disk_calls_no_file_damaged(data_dir, monkeypatch):
    _full_at_open(monkeypatch)
    assert sqlite_problem(data_dir / "catalog.sqlite3").startswith("无法写入：磁盘空间已满")
    rows = [c for c in doctor(data_dir) if c.file.endswith("sqlite3") and c.status != "missing"]
    assert rows
    for row in rows:
        assert row.status != "damaged", row.line()
        assert "磁盘空间已满" in row.line() and "删除" not in row.line() and "移走" not in row.line()


def test_fix54e_start_on_a_full_disk_says_full_and_moves_nothing(data_dir, monkeypatch):
    _full_at_open(monkeypatch)
    before = sorted(p.name for p in data_dir.iterdir())
    with pytest.raises(StoreDamaged) as refused:
        open_checks(data_dir)
    assert "磁盘空间已满" in str(refused.value)
    assert "删除" not in str(refused.value) and "损坏" not in str(refused.value)
    assert sorted(p.name for p in data_dir.iterdir() if p.name != ".open_checks.json") == \
        [n for n in before if n != ".open_checks.json"]


def test_fix54e_lazily_opened_store_on_a_full_disk_is_not_damaged():
    line = damaged_line(INSIGHTS_FILE, io_error(sqlite3.SQLITE_IOERR_SHMSIZE))
    assert "磁盘空间已满" in line and "损坏" not in line
    assert access_problem(io_error(sqlite3.SQLITE_IOERR_SHMSIZE)) is not None
