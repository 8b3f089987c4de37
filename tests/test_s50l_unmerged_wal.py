"""A copy of a live store on a read-only folder is never read without its `-wal` (storage.sqlite_access).

`connect_ro` falls back to SQLite's `immutable=1` when a read-only folder stops `mode=ro` (no `-shm`
can be made). `immutable` ignores the `-wal`, so a copy of a running store (its documents still in
catalog.sqlite3-wal) backed up as 0 份文档、0 块 and doctor advised deleting chroma/. Now such a file is
refused in Chinese (copy the folder somewhere writable, or start the app on it once), never read in part.
The real case runs under a read-only bind mount in a private mount namespace (skipped where `unshare`
is not allowed); the same path is also taken without one, by making `mode=ro` fail as it does there.
"""

from __future__ import annotations

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
from rag_core.errors import StoreDamaged
from rag_core.storage import health
from rag_core.storage.backup import backup_data_dir
from rag_core.storage.sqlite_access import PendingWrites, access_problem, access_reason, connect_ro

ROOT = Path(__file__).resolve().parent.parent
POLICIES = {
    "leave.md": "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n",
    "travel.md": "# 报销制度\n\n第一条 差旅费用凭发票在 30 天内报销。\n",
}
DESTRUCTIVE = ("移走", "删除", "损坏", "是空的")


@pytest.fixture()
def live_copy(tmp_path: Path) -> Path:
    """A copy of a store taken while the app had it open: the catalog's rows still in its `-wal`, no `-shm`."""
    live = tmp_path / "live"
    a = fake_assistant(live)
    for name, text in POLICIES.items():
        assert a.ingest_bytes(text.encode(), name).ok
    copy = tmp_path / "copy"
    shutil.copytree(live, copy, ignore=lambda _, names: [n for n in names if n.endswith("-shm")])
    assert (copy / "catalog.sqlite3-wal").stat().st_size > 0
    return copy


class _NoShm:
    """A `mode=ro` connection in a read-only folder: opened, but its first read fails (no `-shm` can be made)."""

    def __init__(self, connect) -> None:
        self.connect = connect

    def execute(self, *_: object) -> None:
        self.connect("file:/nonexistent-s50l/x.sqlite3?mode=ro", uri=True)  # the real SQLITE_CANTOPEN, with its code

    def close(self) -> None:
        pass


@pytest.fixture()
def read_only_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a read-only folder does to `connect_ro`: `mode=ro` cannot read, the folder is not writable."""
    real = sqlite3.connect

    def connect(database, *args, **kwargs):
        if isinstance(database, str) and "mode=ro" in database and "immutable=1" not in database:
            return _NoShm(real)
        return real(database, *args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", connect)
    monkeypatch.setattr(sqlite_access, "_writable", lambda folder: False)


def test_a_file_with_a_wal_is_refused_not_read_in_part(live_copy: Path, read_only_folder: None) -> None:
    with pytest.raises(PendingWrites) as refused:
        connect_ro(live_copy / "catalog.sqlite3")
    problem = access_problem(refused.value)
    assert problem and access_reason(problem) and "只读目录" in problem and "复制" in problem
    assert not any(word in problem for word in DESTRUCTIVE)


def test_a_file_without_a_wal_is_still_read_immutable(live_copy: Path, read_only_folder: None) -> None:
    con = sqlite3.connect(live_copy / "catalog.sqlite3")  # the real connect: merges the WAL, as the app's close does
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    con.close()
    (live_copy / "catalog.sqlite3-wal").unlink(missing_ok=True)
    (live_copy / "catalog.sqlite3-shm").unlink(missing_ok=True)
    con = connect_ro(live_copy / "catalog.sqlite3")
    try:
        assert con.execute("SELECT count(DISTINCT doc_id) FROM documents").fetchone()[0] == 2
    finally:
        con.close()


def test_backup_and_doctor_refuse_instead_of_an_empty_library(live_copy: Path, tmp_path: Path,
                                                               read_only_folder: None) -> None:
    with pytest.raises(StoreDamaged) as refused:
        backup_data_dir(live_copy, tmp_path / "backup")
    assert "catalog.sqlite3" in str(refused.value) and "只读目录" in str(refused.value)
    assert not (tmp_path / "backup").exists()
    rows = {c.file: c for c in health.doctor(live_copy)}
    assert rows["catalog.sqlite3"].status == "unreadable", rows["catalog.sqlite3"]
    assert not any(word in rows["catalog.sqlite3"].line() for word in DESTRUCTIVE)


# --- the real thing: a read-only bind mount --------------------------------------------------------


def _can_unshare() -> bool:
    if shutil.which("unshare") is None or shutil.which("mount") is None:
        return False
    probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount --bind / /tmp 2>/dev/null || exit 1"],
                           capture_output=True)
    return probe.returncode == 0


def _read_only(folder: Path, *argv: str) -> subprocess.CompletedProcess:
    """Run `python argv…` with `folder` mounted read-only for that process alone."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False",
           "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
    command = " ".join(["exec", sys.executable, *(f"'{a}'" for a in argv)])
    script = f"mount --bind '{folder}' '{folder}' && mount -o remount,ro,bind '{folder}' && {command}"
    return subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=600)


needs_unshare = pytest.mark.skipif(not _can_unshare(), reason="no private mount namespace (unshare -m) here")


@needs_unshare
def test_backup_of_a_live_copy_on_a_read_only_mount_is_refused(live_copy: Path, tmp_path: Path) -> None:
    done = _read_only(live_copy, "-m", "rag_core", "--data-dir", str(live_copy), "backup", str(tmp_path / "b"))
    assert done.returncode != 0, done.stdout + done.stderr
    assert "0 份文档" not in done.stdout and "只读目录" in done.stderr, done.stdout + done.stderr
    assert not (tmp_path / "b").exists()


@needs_unshare
def test_doctor_on_a_live_copy_on_a_read_only_mount_advises_no_deletion(live_copy: Path) -> None:
    done = _read_only(live_copy, "-m", "rag_core", "--data-dir", str(live_copy), "doctor", "--json")
    checks = {c["file"]: c for c in json.loads(done.stdout)["checks"]}
    catalog = checks["catalog.sqlite3"]
    assert catalog["status"] == "unreadable", catalog
    assert "只读目录" in catalog["detail"]
    assert not any(word in catalog["detail"] + catalog["fix"] for word in DESTRUCTIVE), catalog
    assert not any(c["status"] == "lost" for c in checks.values()), checks
