"""A busy COMMIT of an audit row must not leave the trail's write lock held (review 52r #1).

Another process reading audit.sqlite3 makes this process's COMMIT fail with "database is locked". Left
open, that transaction kept its lock until the next row, and every other process on the data dir read
the healthy trail as damaged and refused every action. Short busy timeouts only; no timing asserted.
"""

from __future__ import annotations

import functools
import sqlite3

from fakes import fake_assistant

import rag_core.storage.account_files as account_files
from rag_core.accounts.audit import AuditLog

AUDIT = "audit.sqlite3"


def _reader(path):
    """Another connection inside a read transaction: it holds a SHARED lock, so a COMMIT elsewhere is busy."""
    reader = sqlite3.connect(path, isolation_level=None, timeout=0.05)
    reader.execute("BEGIN")
    reader.execute("SELECT COUNT(*) FROM audit").fetchone()
    return reader


def test_a_busy_commit_leaves_no_transaction_open(tmp_path):
    log = AuditLog(tmp_path / AUDIT)
    log._db.execute("PRAGMA busy_timeout = 20")
    log.record("wang", "admin", "login")
    reader = _reader(tmp_path / AUDIT)
    try:
        log.record("wang", "admin", "settings.change")
    except sqlite3.OperationalError as exc:
        assert "locked" in str(exc)
    assert not log._db.in_transaction  # rolled back: no write lock kept for the next row to commit
    reader.execute("COMMIT")
    reader.close()
    other = sqlite3.connect(tmp_path / AUDIT, timeout=0.05)
    other.execute("INSERT INTO audit (at, actor, role, action, target, outcome) VALUES ('t', 'li', 'hr', 'login', '', 'ok')")
    other.commit()  # the other process writes at once
    other.close()
    log.record("wang", "admin", "logout")
    assert [e.action for e in log.entries()] == ["logout", "login", "login"]  # the busy row is not saved later


def test_a_leftover_transaction_is_rolled_back_not_committed(tmp_path):
    log = AuditLog(tmp_path / AUDIT)
    log._db.execute("BEGIN")
    log._db.execute("INSERT INTO audit (at, actor, role, action, target, outcome) VALUES ('t', 'x', 'x', 'stray', '', 'ok')")
    log.record("wang", "admin", "login")
    assert [e.action for e in log.entries()] == ["login"]


def test_another_process_works_after_a_busy_audit_commit(tmp_path, monkeypatch):
    # without the fix the second app waits on the held lock: keep its read short, the verdict is the same
    monkeypatch.setattr(account_files, "connect_ro", functools.partial(account_files.connect_ro, timeout=0.05))
    store = tmp_path / "store"
    app = fake_assistant(store)
    app.update_settings(top_k=6)
    app.audit_log._db.execute("PRAGMA busy_timeout = 20")
    reader = _reader(store / AUDIT)
    app.update_settings(top_k=7)  # its audit row's COMMIT is busy: said as busy, the setting stands
    assert any("占用" in notice for notice in app.store_notices), app.store_notices
    assert not any("损坏" in notice for notice in app.store_notices), app.store_notices
    reader.execute("COMMIT")
    reader.close()
    cli = fake_assistant(store)
    cli.update_settings(top_k=8)  # raised StoreDamaged: "audit.sqlite3 已损坏"
    assert cli.settings.top_k == 8
    assert [e.action for e in cli.audit_entries()][:1] == ["settings.change"]
