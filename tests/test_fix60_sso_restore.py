"""A restore ends every session of the restored account file (review 60, rev-sso defect 4).

The backup's accounts.sqlite3 carries its sessions table: a session ended after the backup (a logout, a password
reset, a disabled account) was live again after a restore. Everyone now logs in again, and the report says so.
Failed before the fix.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from cli_support import invoke
from fakes import fake_assistant

from rag_core.assistant import Assistant
from rag_core.facade.access import LOCAL_ADMIN

DOC = "# 考勤制度\n\n第一条 员工每天工作八小时。\n".encode()


def test_sessions_ended_after_the_backup_stay_ended_after_a_restore(tmp_path: Path) -> None:
    store, backup = tmp_path / "store", tmp_path / "bk"
    a = fake_assistant(store)
    assert a.ingest_bytes(DOC, "k.md").ok
    a.add_user("boss", "admin", "password123", actor=LOCAL_ADMIN)
    admin_token = a.login("boss", "password123")
    admin = a.session_principal(admin_token)
    a.add_user("li", "employee", "password123", actor=admin)
    stolen = a.login("li", "password123")
    a.backup(backup, actor=admin)
    a.logout(stolen, actor=a.session_principal(stolen))
    a.reset_user_password("li", "another horse 9", actor=admin)
    assert a.session_principal(stolen) is None
    a.release_data_dir()
    report = Assistant.restore_data_dir(backup, store, actor=admin)
    b = fake_assistant(store)
    assert b.session_principal(stolen) is None and b.session_principal(admin_token) is None  # everyone logs in again
    assert report.sessions_ended == 2 and report.to_dict()["sessions_ended"] == 2  # the report says so
    assert b.session_principal(b.login("li", "password123")).user == "li"  # the restored password, as restored
    with sqlite3.connect(backup / "accounts.sqlite3") as db:  # the backup itself is not changed
        assert db.execute("SELECT COUNT(*) FROM sessions").fetchone()[0] == 2
    b.release_data_dir()


def test_a_desktop_restore_has_no_sessions_to_end(tmp_path: Path) -> None:
    store, backup = tmp_path / "store", tmp_path / "bk"
    a = fake_assistant(store)
    assert a.ingest_bytes(DOC, "k.md").ok
    a.backup(backup, actor=LOCAL_ADMIN)
    a.release_data_dir()
    assert Assistant.restore_data_dir(backup, store, actor=LOCAL_ADMIN).sessions_ended == 0


def test_the_cli_says_everyone_logs_in_again(tmp_path: Path, capsys) -> None:
    store, backup = tmp_path / "store", tmp_path / "bk"
    a = fake_assistant(store)
    assert a.ingest_bytes(DOC, "k.md").ok
    a.add_user("boss", "admin", "password123", actor=LOCAL_ADMIN)
    a.login("boss", "password123")
    a.backup(backup, actor=LOCAL_ADMIN)
    a.release_data_dir()
    said = invoke(capsys, "--data-dir", str(store), "restore", str(backup))
    assert said.exit_code == 0 and "1 个登录已全部结束" in said.stdout, said.stdout + said.stderr
