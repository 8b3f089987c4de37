"""A write error with room left on the volume is a disk I/O error, not a full disk, and never damage (review 54i #1).

SQLite says ENOSPC as SQLITE_FULL; SQLITE_IOERR_WRITE is any other failed write(), EIO from a failing disk
included. It was said as 磁盘空间已满 on a volume with plenty of room. The stores here are real SQLite files;
only the error code (a failing disk cannot be made in a test) and the volume's free space are stood in.
"""

from __future__ import annotations

import errno
import shutil
import sqlite3
from collections import namedtuple

import pytest
from fakes import fake_assistant

from rag_core.errors import StoreDamaged
from rag_core.facade.memories import memory_problem
from rag_core.facade.stores import INSIGHTS_FILE, damaged_line
from rag_core.storage import health
from rag_core.storage.disk_space import out_of_space
from rag_core.storage.health import doctor, open_checks
from rag_core.storage.sqlite_access import access_problem, access_reason, problem_of

DOC = "# 年假制度\n\n第一条 员工每年享有五天带薪年假。\n".encode()
Usage = namedtuple("Usage", "total used free")
ROOMY = Usage(1 << 40, 1 << 30, (1 << 40) - (1 << 30))


def io_error(code: int) -> sqlite3.OperationalError:
    exc = sqlite3.OperationalError("disk I/O error")
    exc.sqlite_errorcode = code
    return exc


def _no_advice_to_remove(line: str) -> None:
    assert "磁盘空间已满" not in line and "损坏" not in line, line
    assert "删除" not in line and "移走" not in line and "移到" not in line, line


@pytest.fixture()
def roomy(monkeypatch):
    monkeypatch.setattr(shutil, "disk_usage", lambda folder: ROOMY)


def test_fix54i_write_error_with_room_left_is_an_io_error(tmp_path, roomy):
    exc = io_error(sqlite3.SQLITE_IOERR_WRITE)
    assert not out_of_space(exc, tmp_path)
    problem = problem_of(exc, tmp_path)
    assert problem.startswith("读写出错（磁盘 I/O 错误）") and "请检查磁盘" in problem
    _no_advice_to_remove(problem)
    assert access_problem(exc, tmp_path) == problem and access_reason(problem)
    assert problem_of(exc) == problem  # no folder to look at: the same line, not a full disk


def test_fix54i_write_error_is_full_only_on_a_full_volume_or_with_enospc(tmp_path, monkeypatch, roomy):
    quota = io_error(sqlite3.SQLITE_IOERR_WRITE)
    quota.__cause__ = OSError(errno.EDQUOT, "Disk quota exceeded")
    assert problem_of(quota, tmp_path).startswith("无法写入：磁盘空间已满")
    shm = io_error(sqlite3.SQLITE_IOERR_SHMSIZE)  # the -shm could not grow: no space, with or without a folder
    assert problem_of(shm).startswith("无法写入：磁盘空间已满")
    assert problem_of(shm, tmp_path).startswith("无法写入：磁盘空间已满")
    monkeypatch.setattr(shutil, "disk_usage", lambda folder: Usage(100, 100, 0))
    assert problem_of(io_error(sqlite3.SQLITE_IOERR_WRITE), tmp_path).startswith("无法写入：磁盘空间已满")


def test_fix54i_feature_and_memory_lines_say_io_error(tmp_path, roomy):
    exc = io_error(sqlite3.SQLITE_IOERR_WRITE)
    line = damaged_line(INSIGHTS_FILE, exc)
    assert "读写出错（磁盘 I/O 错误）" in line
    _no_advice_to_remove(line)
    said = memory_problem(exc, tmp_path)
    assert "读写出错（磁盘 I/O 错误）" in said and "可能已损坏" not in said
    _no_advice_to_remove(said)


@pytest.fixture()
def data_dir(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.ingest_bytes(DOC, "年假制度.md")
    a.release_data_dir()
    return tmp_path / "store"


def _write_error_at_open(monkeypatch) -> None:
    def refuse(path, **kwargs):
        raise io_error(sqlite3.SQLITE_IOERR_WRITE)

    monkeypatch.setattr(health, "connect_ro", refuse)


def test_fix54i_doctor_and_start_on_a_write_error_move_nothing(data_dir, monkeypatch, roomy):
    _write_error_at_open(monkeypatch)
    rows = [c for c in doctor(data_dir) if c.file.endswith("sqlite3") and c.status != "missing"]
    assert rows
    for row in rows:
        assert row.status != "damaged", row.line()
        assert "读写出错" in row.line()
        _no_advice_to_remove(row.line())
    before = sorted(p.name for p in data_dir.iterdir() if p.name != ".open_checks.json")
    with pytest.raises(StoreDamaged) as refused:
        open_checks(data_dir)
    assert "读写出错" in str(refused.value)
    _no_advice_to_remove(str(refused.value))
    assert sorted(p.name for p in data_dir.iterdir() if p.name != ".open_checks.json") == before
