"""A healthy store on a directory this process cannot write is never called damaged (storage.sqlite_access).

A WAL database opened `mode=ro` needs a `-shm` file beside it; in a read-only directory SQLite
answers "unable to open database file", which was reported as 数据库文件已损坏 with the advice to
move the catalog away and delete chroma/. The real cases run under a read-only bind mount in a
private mount namespace (skipped where `unshare` is not allowed); the classification itself is
also checked without one.
"""

from __future__ import annotations

import gc
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from fakes import fake_assistant

import rag_core.storage.health as health
from rag_core.errors import StoreDamaged
from rag_core.storage.backup import backup_data_dir
from rag_core.storage.sqlite_access import access_problem, access_reason

ROOT = Path(__file__).resolve().parent.parent
POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n"
DESTRUCTIVE = ("移走", "删除", "损坏")


def _error(code: int, text: str = "unable to open database file") -> sqlite3.OperationalError:
    exc = sqlite3.OperationalError(text)
    exc.sqlite_errorcode = code
    return exc


def _can_unshare() -> bool:
    if shutil.which("unshare") is None or shutil.which("mount") is None:
        return False
    probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount --bind / /tmp 2>/dev/null || exit 1"],
                           capture_output=True)
    return probe.returncode == 0


needs_unshare = pytest.mark.skipif(not _can_unshare(), reason="no private mount namespace (unshare -m) here")


def _read_only(folder: Path, *argv: str) -> subprocess.CompletedProcess:
    """Run `python argv…` with `folder` mounted read-only for that process alone."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False",
           "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
    command = " ".join(["exec", sys.executable, *(f"'{a}'" for a in argv)])
    script = f"mount --bind '{folder}' '{folder}' && mount -o remount,ro,bind '{folder}' && {command}"
    return subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=600)


@pytest.fixture()
def wal_store(tmp_path: Path) -> Path:
    """A closed store: WAL-mode SQLite files with no `-shm` beside them."""
    data = tmp_path / "store"
    a = fake_assistant(data)
    assert a.ingest_bytes(POLICY.encode(), "leave.md").ok
    a.remember("u1", "用户在研发部工作")
    a.memory.close()
    for part in (a.catalog, a.embedder, a.sentences):
        part.close()
    del a
    gc.collect()
    con = sqlite3.connect(data / "catalog.sqlite3")
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()
    assert not (data / "catalog.sqlite3-shm").exists()
    return data


# --- the classification, without a mount ---------------------------------------------------------


@pytest.mark.parametrize("code", [sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_READONLY_CANTINIT,
                                  sqlite3.SQLITE_READONLY_RECOVERY, sqlite3.SQLITE_PERM])
def test_unreachable_files_are_unreadable_not_damaged(code: int) -> None:
    assert access_problem(_error(code)) == "无法读取（只读或没有权限）：请检查目录权限"


def test_damage_stays_damage() -> None:
    assert access_problem(_error(sqlite3.SQLITE_CORRUPT, "database disk image is malformed")) is None
    assert access_problem(_error(sqlite3.SQLITE_NOTADB, "file is not a database")) is None
    assert access_problem(sqlite3.DatabaseError("no code")) is None


def test_sqlite_problem_and_doctor_on_an_unreachable_catalog(wal_store: Path, monkeypatch) -> None:
    def refuse(path, **_):
        raise _error(sqlite3.SQLITE_CANTOPEN)

    monkeypatch.setattr(health, "connect_ro", refuse)
    problem = health.sqlite_problem(wal_store / "catalog.sqlite3")
    assert access_reason(problem) and not any(word in problem for word in DESTRUCTIVE)
    rows = {c.file: c for c in health.doctor(wal_store)}
    assert rows["catalog.sqlite3"].status == "unreadable"
    assert not any(word in rows["catalog.sqlite3"].line() for word in DESTRUCTIVE)
    with pytest.raises(StoreDamaged) as refused:
        health.open_checks(wal_store)
    assert "只读或没有权限" in str(refused.value)
    assert not any(word in str(refused.value) for word in DESTRUCTIVE)
    assert (wal_store / "catalog.sqlite3").exists() and (wal_store / "chroma").is_dir()


def test_an_unreachable_cache_is_not_set_aside(wal_store: Path, monkeypatch) -> None:
    real = health.sqlite_problem

    def cache_unreachable(path, *, thorough=True):
        if Path(path).name == "embedding_cache.sqlite3":
            return "无法读取（只读或没有权限）：请检查目录权限"
        return real(path, thorough=thorough)

    monkeypatch.setattr(health, "sqlite_problem", cache_unreachable)
    notices = health.open_checks(wal_store)
    assert any("只读或没有权限" in line for line in notices)
    assert (wal_store / "embedding_cache.sqlite3").exists()
    assert not list(wal_store.glob("*.damaged-*"))


def test_backup_copies_are_not_in_wal_mode(wal_store: Path, tmp_path: Path) -> None:
    """A WAL copy cannot be read on read-only media without a -shm: every copy uses a rollback journal."""
    report = backup_data_dir(wal_store, tmp_path / "backup")
    for name in report.files:
        if name.endswith(".sqlite3"):
            header = (tmp_path / "backup" / name).read_bytes()[:20]
            assert header[18:20] == b"\x01\x01", name  # 2 = WAL


# --- the real thing: a read-only bind mount --------------------------------------------------------


@needs_unshare
def test_doctor_on_a_read_only_data_dir_finds_nothing_damaged(wal_store: Path) -> None:
    done = _read_only(wal_store, "-m", "rag_core", "--data-dir", str(wal_store), "doctor", "--json")
    assert done.returncode == 1, done.stdout + done.stderr  # something to fix: the app cannot start there
    checks = json.loads(done.stdout)["checks"]
    # every file is healthy; the data dir itself is said as unwritable, as the start says it (review 54e #5)
    assert [c["status"] for c in checks if not c["ok"]] == ["unreadable"], checks
    assert all(c["ok"] for c in checks if c["file"] != str(wal_store)), checks
    assert not (wal_store / "catalog.sqlite3-shm").exists()


@needs_unshare
def test_backup_from_a_read_only_data_dir(wal_store: Path, tmp_path: Path) -> None:
    done = _read_only(wal_store, "-m", "rag_core", "--data-dir", str(wal_store), "backup", str(tmp_path / "b"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads((tmp_path / "b" / "backup.json").read_text(encoding="utf-8"))["chunks"] == 1


@needs_unshare
def test_restore_from_a_backup_on_read_only_media(wal_store: Path, tmp_path: Path) -> None:
    backup_data_dir(wal_store, tmp_path / "media" / "b")
    target = tmp_path / "restored"
    done = _read_only(tmp_path / "media", "-m", "rag_core", "--data-dir", str(target), "restore",
                      str(tmp_path / "media" / "b"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert (target / "catalog.sqlite3").is_file()


@needs_unshare
def test_the_app_on_a_read_only_data_dir_advises_no_deletion(wal_store: Path, tmp_path: Path) -> None:
    script = tmp_path / "start.py"
    script.write_text(
        "import sys\nfrom fakes import fake_assistant\nfrom rag_core.errors import RagError\n"
        "try:\n    fake_assistant(sys.argv[1])\nexcept RagError as exc:\n    print('REFUSED', exc)\n",
        encoding="utf-8")
    done = _read_only(wal_store, str(script), str(wal_store))
    assert done.stdout.startswith("REFUSED"), done.stdout + done.stderr
    assert "只读或没有权限" in done.stdout
    assert not any(word in done.stdout for word in DESTRUCTIVE), done.stdout
