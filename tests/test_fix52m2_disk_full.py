"""A full disk during an upload: one Chinese refusal, nothing pending left, never called damage (review 52m #1).

The full disk is simulated by making the lowest write raise what SQLite, Chroma or the OS raise on a
full disk; a real small tmpfs reproduces the same errors (checked by hand, not here: it needs root).
"""

from __future__ import annotations

import errno
import sqlite3

import pytest
from chromadb.errors import InternalError
from fakes import fake_assistant

import rag_core.cli as cli
from rag_core.storage.account_files import AUDIT, damaged_line
from rag_core.storage.sqlite_access import access_problem, problem_of
from rag_core.types import Principal

HR, EMP = Principal("li", "hr"), Principal("zhang", "employee")
FIVE = "# 年假制度\n\n第一条 员工每年享有五天带薪年假，需提前三天申请。\n".encode()
TEN = "# 年假制度\n\n第一条 员工每年享有十天带薪年假，需提前一周申请。\n".encode()
CHROMA_FULL = "Query error: Database error: error returned from database: (code: 13) database or disk is full"


def sqlite_full() -> sqlite3.OperationalError:
    exc = sqlite3.OperationalError("database or disk is full")
    exc.sqlite_errorcode = sqlite3.SQLITE_FULL
    return exc


def _fail(exc: BaseException):
    def raising(*args, **kwargs):
        raise exc

    return raising


def _states(a) -> list[tuple[int, str]]:
    return [(v.version, v.status) for v in a.catalog.versions("年假制度")]


@pytest.fixture()
def library(tmp_path):
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=HR).ok
    return a


@pytest.mark.parametrize("where,exc", [
    ("vectors.upsert", InternalError(CHROMA_FULL)),        # Chroma wraps SQLite's code 13 in English
    ("sentences.put", sqlite_full()),                      # SQLITE_FULL from a store of our own
    ("sentences.put", OSError(errno.ENOSPC, "No space left on device")),
])
def test_fix52m2_full_disk_is_one_chinese_refusal_and_the_old_version_answers(library, monkeypatch, where, exc):
    owner, name = where.split(".")
    monkeypatch.setattr(getattr(library.indexer, owner), name, _fail(exc))
    report = library.ingest_bytes(TEN, "年假制度.md", actor=HR)
    assert report.status == "refused"
    assert "磁盘空间已满" in report.error and "请腾出磁盘空间后重试" in report.error, report.error
    assert "code: 13" not in report.error and "disk is full" not in report.error
    assert _states(library) == [(1, "current")]
    assert {h.chunk.version for h in library.search("年假提前几天申请", actor=EMP).hits} == {1}


def test_fix52m2_a_failing_cleanup_step_does_not_skip_discarding_the_pending_version(library, monkeypatch):
    monkeypatch.setattr(library.indexer.vectors, "upsert", _fail(InternalError(CHROMA_FULL)))
    monkeypatch.setattr(library.indexer.vectors, "delete", _fail(InternalError(CHROMA_FULL)))  # cleanup fails too
    assert library.ingest_bytes(TEN, "年假制度.md", actor=HR).status == "refused"
    assert _states(library) == [(1, "current")]  # no 写入中 v2 until a restart


def test_fix52m2_a_pending_version_no_cleanup_could_remove_is_dropped_by_the_retry(library, monkeypatch):
    with monkeypatch.context() as full:  # the disk is so full that even the delete of the pending rows fails
        full.setattr(library.indexer.vectors, "upsert", _fail(InternalError(CHROMA_FULL)))
        full.setattr(library.catalog, "discard_version", _fail(sqlite_full()))
        assert library.ingest_bytes(TEN, "年假制度.md", actor=HR).status == "refused"
    assert _states(library) == [(1, "current"), (2, "pending")]
    report = library.ingest_bytes(TEN, "年假制度.md", actor=HR)  # space freed: the upload is tried again
    assert report.status == "indexed", report.error
    assert _states(library) == [(1, "retired"), (2, "current")]


def test_fix52m2_sqlite_full_is_said_as_a_full_disk_never_as_damage():
    assert "磁盘空间已满" in access_problem(sqlite_full())
    assert "已损坏" not in problem_of(sqlite_full())
    line = damaged_line(AUDIT, sqlite_full())
    assert "磁盘空间已满" in line and "已损坏" not in line and "移走" not in line and "restore" not in line, line


def test_fix52m2_an_audit_row_lost_to_a_full_disk_is_noticed_as_a_full_disk(library, monkeypatch):
    monkeypatch.setattr(library.audit_log, "record", _fail(sqlite_full()))
    assert library.ingest_bytes(TEN, "年假制度.md", actor=HR).ok  # the upload itself had room
    notices = [n for n in library.store_notices if AUDIT in n]
    assert notices and all("磁盘空间已满" in n and "已损坏" not in n and "移走" not in n for n in notices), notices


@pytest.mark.parametrize("exc,said", [
    (InternalError(CHROMA_FULL), "磁盘空间已满"),                          # whatever the engine let through
    (OSError(errno.ENOSPC, "No space left on device"), "磁盘空间已满"),
    (ValueError("boom 13812345678"), "意外错误"),
])
def test_fix52m2_cli_ingest_says_any_failure_in_chinese_and_exits_1(library, monkeypatch, capsys, tmp_path, exc, said):
    path = tmp_path / "年假制度.md"
    path.write_bytes(TEN)
    monkeypatch.setattr(library, "ingest_file", _fail(exc))
    monkeypatch.setattr(library, "index_open_elsewhere", lambda: False)
    monkeypatch.setattr(cli, "open_assistant", lambda args: library)
    assert cli.main(["--data-dir", str(tmp_path / "s"), "ingest", str(path)]) == 1  # no traceback
    err = capsys.readouterr().err
    assert said in err and "年假制度.md" in err, err
    assert "13812345678" not in err  # personal data in an unexpected message is masked
