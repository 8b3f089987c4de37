"""A crash's hot journal is an unfinished write, not a permission problem (storage.sqlite_access).

A process killed mid-transaction leaves `<file>-journal`. A `mode=ro` reader cannot roll it back and
SQLite says SQLITE_READONLY_ROLLBACK (776), which was read as 无法读取（只读或没有权限）even in a writable
folder: backup was refused, doctor and the start said 请检查目录权限, and for audit.sqlite3 the accounts
check said 已损坏. Now it is 上次异常退出留下了未完成的写入, the start rolls it back in place (as any
read-write open does), and backup and the accounts check read a copy rolled back, changing nothing.
In a read-only folder the file cannot be rolled back: said as such (a bind mount where `unshare` works).
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from fakes import fake_assistant

import rag_core.storage.sqlite_access as sqlite_access
from rag_core.accounts.audit import AuditLog
from rag_core.storage import health
from rag_core.storage.account_files import lost_accounts, no_accounts
from rag_core.storage.backup import backup_data_dir
from rag_core.storage.sqlite_access import PendingWrites, access_problem, connect_ro

ROOT = Path(__file__).resolve().parent.parent
POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n"
INTERRUPTED = "上次异常退出留下了未完成的写入"
NOT_PERMISSIONS = ("权限", "已损坏", "移走", "删除")
CHROMA_DB = "chroma/chroma.sqlite3"
CRASH = """
import os, sqlite3, sys
con = sqlite3.connect(sys.argv[1], isolation_level=None)
con.execute("PRAGMA cache_size=1")  # spill pages into the file: the journal holds what they were
con.execute("BEGIN")
con.execute("CREATE TABLE zz_crash(x)")
con.execute("INSERT INTO zz_crash SELECT randomblob(2000) FROM (WITH RECURSIVE c(i) AS "
            "(SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 200) SELECT i FROM c)")
os.kill(os.getpid(), 9)
"""


def _crash_in(db: Path) -> None:
    """Kill a process in the middle of a write transaction on `db`, leaving a hot `-journal`."""
    done = subprocess.run([sys.executable, "-c", CRASH, str(db)], capture_output=True, timeout=60)
    assert done.returncode == -9, done.stderr
    assert (db.with_name(db.name + "-journal")).stat().st_size > 0


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _has_crash_table(db: Path) -> bool:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT count(*) FROM sqlite_master WHERE name = 'zz_crash'").fetchone()[0] == 1
    finally:
        con.close()


@pytest.fixture()
def store(tmp_path: Path) -> Path:
    """A closed store with one document."""
    data = tmp_path / "store"
    a = fake_assistant(data)
    assert a.ingest_bytes(POLICY.encode(), "leave.md").ok
    a.memory.close()
    for part in (a.catalog, a.embedder, a.sentences):
        part.close()
    del a
    gc.collect()
    return data


# --- the classification ---------------------------------------------------------------------------


def test_a_hot_journal_code_is_an_interrupted_write_not_permissions() -> None:
    exc = sqlite3.OperationalError("attempt to write a readonly database")
    exc.sqlite_errorcode = sqlite3.SQLITE_READONLY_ROLLBACK
    problem = access_problem(exc)
    assert problem and problem.startswith(INTERRUPTED) and "启动应用时会自动恢复" in problem
    assert not any(word in problem for word in NOT_PERMISSIONS)


# --- a writable folder ------------------------------------------------------------------------------


def test_backup_rolls_the_journal_back_in_its_copy(store: Path, tmp_path: Path) -> None:
    chroma_db = store / CHROMA_DB
    _crash_in(chroma_db)
    before = (_digest(chroma_db), _digest(chroma_db.with_name("chroma.sqlite3-journal")))
    report = backup_data_dir(store, tmp_path / "backup")
    assert CHROMA_DB in report.files and report.chunks == 1 and not report.notices
    copied = tmp_path / "backup" / CHROMA_DB
    assert not _has_crash_table(copied) and not copied.with_name("chroma.sqlite3-journal").exists()
    after = (_digest(chroma_db), _digest(chroma_db.with_name("chroma.sqlite3-journal")))
    assert after == before  # the store backed up is not written


def test_doctor_says_interrupted_and_changes_nothing(store: Path) -> None:
    _crash_in(store / CHROMA_DB)
    journal = _digest(store / (CHROMA_DB + "-journal"))
    rows = [c for c in health.doctor(store) if c.file == CHROMA_DB]
    assert [c.status for c in rows] == ["interrupted"], rows
    assert rows[0].ok and INTERRUPTED in rows[0].line() and "启动应用时会自动恢复" in rows[0].line()
    assert not any(word in rows[0].line() for word in NOT_PERMISSIONS)
    assert _digest(store / (CHROMA_DB + "-journal")) == journal


def test_the_start_rolls_it_back_in_place(store: Path) -> None:
    _crash_in(store / CHROMA_DB)
    notices = health.open_checks(store)
    assert not any("chroma" in line for line in notices), notices
    assert not (store / (CHROMA_DB + "-journal")).exists()
    assert not _has_crash_table(store / CHROMA_DB)
    assert not list(store.glob("chroma.damaged-*"))
    con = connect_ro(store / CHROMA_DB)
    con.close()


@pytest.mark.parametrize("with_login", [False, True])
def test_the_accounts_check_and_doctor_agree_on_the_audit_file(store: Path, with_login: bool) -> None:
    audit = AuditLog(store / "audit.sqlite3")
    audit.record("张三", "admin", "login" if with_login else "document.upload")
    del audit
    gc.collect()
    _crash_in(store / "audit.sqlite3")
    journal = _digest(store / "audit.sqlite3-journal")
    rows = {c.file: c for c in health.doctor(store) if c.file in ("audit.sqlite3", "accounts.sqlite3")}
    assert rows["audit.sqlite3"].status == "interrupted", rows
    lost = lost_accounts(store)
    if with_login:  # read from a rolled-back copy: the login row is there, the accounts are gone
        assert lost and "登录的记录" in lost[0] and rows["accounts.sqlite3"].status == "lost"
    else:  # a desktop install stays one, and nobody is told the audit file is damaged
        assert lost is None and no_accounts(store) and rows["accounts.sqlite3"].status == "ok"
    assert _digest(store / "audit.sqlite3-journal") == journal


# --- a read-only folder: nothing can roll it back ----------------------------------------------------


def test_in_a_read_only_folder_it_is_said_as_unreadable_there(store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _crash_in(store / CHROMA_DB)
    monkeypatch.setattr(sqlite_access, "_writable", lambda folder: False)
    with pytest.raises(PendingWrites) as refused:
        connect_ro(store / CHROMA_DB)
    assert "只读目录" in refused.value.problem and not refused.value.problem.startswith(INTERRUPTED)


def _can_unshare() -> bool:
    if shutil.which("unshare") is None or shutil.which("mount") is None:
        return False
    probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount --bind / /tmp 2>/dev/null || exit 1"],
                           capture_output=True)
    return probe.returncode == 0


@pytest.mark.skipif(not _can_unshare(), reason="no private mount namespace (unshare -m) here")
def test_doctor_on_a_read_only_mount_with_a_hot_journal(store: Path) -> None:
    _crash_in(store / CHROMA_DB)
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False",
           "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
    command = f"exec {sys.executable} -m rag_core --data-dir '{store}' doctor --json"
    script = f"mount --bind '{store}' '{store}' && mount -o remount,ro,bind '{store}' && {command}"
    done = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=600)
    rows = [c for c in json.loads(done.stdout)["checks"] if c["file"] == CHROMA_DB]
    assert [c["status"] for c in rows] == ["unreadable"], done.stdout + done.stderr
    assert "只读目录" in rows[0]["detail"] and "启动应用时会自动恢复" not in rows[0]["fix"]
    assert (store / (CHROMA_DB + "-journal")).exists()
