"""A store file another process holds locked is busy, never damaged (review 52r3).

SQLITE_BUSY / SQLITE_LOCKED ("database is locked") was read as 数据库文件已损坏: the audit trail was called
已损坏 with advice to restore or move a healthy file, a passing lock during the lost-accounts check refused
the process until it restarted, and the audit-row log and the feature stores said damage too. A second real
SQLite connection holds the lock (BEGIN EXCLUSIVE); the waits are shortened, nothing is timed.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.accounts.audit import AuditLog
from rag_core.errors import StoreBusy, StoreDamaged
from rag_core.facade import maintenance, stores
from rag_core.storage import account_files
from rag_core.storage.account_files import ACCOUNTS, AUDIT
from rag_core.storage.sqlite_access import BUSY, BUSY_FIX, access_reason, connect_ro, problem_of
from rag_core.types import Principal

AUDIT_BUSY = "audit.sqlite3 正被另一个进程占用，请稍后再试"


@contextmanager
def held(path: Path) -> Iterator[None]:
    """Another process's exclusive lock on `path` (a second connection), released on leaving."""
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def trail(data_dir: Path, action: str) -> Path:
    """An audit trail in `data_dir` holding one row (`user.add`: a team data dir; `backup`: a desktop one)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    log = AuditLog(data_dir / AUDIT)
    log.record("wang", "admin", action, "x", "ok")
    log._db.close()
    return data_dir / AUDIT


def locked_error(path: Path) -> sqlite3.Error:
    with held(path), pytest.raises(sqlite3.Error) as caught:
        connect_ro(path, timeout=0.01)
    return caught.value


@pytest.fixture()
def short_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(account_files, "READ_WAIT", 0.01)


def test_a_locked_file_is_busy_in_the_one_classification(tmp_path: Path) -> None:
    exc = locked_error(trail(tmp_path, "backup"))
    assert problem_of(exc) == f"{BUSY}，{BUSY_FIX}" and access_reason(problem_of(exc)) == (BUSY, BUSY_FIX)
    table_locked = sqlite3.OperationalError("database table is locked")
    table_locked.sqlite_errorcode = sqlite3.SQLITE_LOCKED
    uncoded = sqlite3.OperationalError("database is locked")  # built without a code, as some wrappers do
    for error in (table_locked, uncoded):
        assert "已损坏" not in problem_of(error) and access_reason(problem_of(error)) == (BUSY, BUSY_FIX)


def test_damaged_lines_say_busy_not_damaged(tmp_path: Path) -> None:
    exc = locked_error(trail(tmp_path, "backup"))
    assert account_files.damaged_line(AUDIT, exc) == AUDIT_BUSY
    line = stores.damaged_line(stores.INSIGHTS_FILE, exc)
    assert line.startswith("insights.sqlite3 正被另一个进程占用，请稍后再试") and "提问不受影响" in line
    assert "已损坏" not in line and "doctor" not in line


def test_lost_accounts_with_a_locked_audit_trail_is_busy_not_damage(tmp_path: Path, short_waits: None) -> None:
    audit = trail(tmp_path / "store", "user.add")
    with held(audit):
        with pytest.raises(StoreBusy) as caught:
            account_files.lost_accounts_line(tmp_path / "store")
        detail, fix = account_files.lost_accounts(tmp_path / "store")  # doctor still fails closed, as busy
    line = str(caught.value)
    assert f"{AUDIT} 正被另一个进程占用" in line and line.endswith("请稍后再试"), line
    assert "已损坏" not in line + detail and "移走" not in line + fix and fix == BUSY_FIX
    assert not account_files.no_accounts(tmp_path / "store")  # released: the trail shows accounts were used


def test_a_locked_account_file_gives_no_lost_verdict(tmp_path: Path, short_waits: None) -> None:
    data = tmp_path / "store"
    trail(data, "user.add")
    con = sqlite3.connect(data / ACCOUNTS)
    con.execute("CREATE TABLE users (name TEXT)")
    con.commit()
    con.close()
    with held(data / ACCOUNTS):
        with pytest.raises(StoreBusy, match="accounts.sqlite3 正被另一个进程占用，请稍后再试"):
            account_files.lost_accounts_line(data)
        assert not account_files.no_accounts(data)  # a busy account file is never the no-login mode


def test_a_passing_lock_on_the_audit_trail_is_not_kept_as_a_verdict(tmp_path: Path, short_waits: None) -> None:
    """Desktop data dir: busy while locked, then the desktop mode as soon as the lock is gone (same process)."""
    data = tmp_path / "desk"
    audit = trail(data, "backup")
    assistant = fake_assistant(data)
    with held(audit), pytest.raises(StoreBusy) as caught:
        assert assistant.team_mode
    assert "已损坏" not in str(caught.value) and "正被另一个进程占用" in str(caught.value)
    assert assistant.team_mode is False  # was StoreDamaged (已损坏) until the process restarted


def test_a_team_dir_is_refused_as_lost_once_the_lock_is_gone(tmp_path: Path, short_waits: None) -> None:
    data = tmp_path / "store"
    audit = trail(data, "user.add")
    assistant = fake_assistant(data)
    with held(audit), pytest.raises(StoreBusy):
        assert assistant.team_mode
    with pytest.raises(StoreDamaged) as caught:
        assert assistant.team_mode
    assert not isinstance(caught.value, StoreBusy) and "里有建立账户和登录的记录" in str(caught.value)


def test_an_audit_row_not_written_while_locked_is_logged_as_busy(tmp_path: Path, monkeypatch, caplog) -> None:
    audit = trail(tmp_path / "store", "backup")
    with held(audit):
        real = sqlite3.connect  # every wait short, the trail's probe too (it passes a timeout of its own: 30 s)
        monkeypatch.setattr(sqlite3, "connect", lambda *args, **kwargs: real(*args, **{**kwargs, "timeout": 0.01}))
        with caplog.at_level(logging.WARNING, logger=maintenance.__name__):
            maintenance._audit_row(tmp_path / "store", Principal("wang", "admin"), "backup", "x", "ok")
    lines = [r.getMessage() for r in caplog.records if "audit row not written" in r.getMessage()]
    assert len(lines) == 1 and lines[0].endswith(AUDIT_BUSY) and "已损坏" not in lines[0], lines
