"""A backup to another disk works while the data dir's disk is full (review 63, defect 6).

A WAL store cannot be opened even read-only on a full disk: its reader must make the `-shm` file beside it
(SQLITE_IOERR_SHMSIZE). The backup, the one thing that helps then, refused with 磁盘空间已满. With no writes waiting
beside it (no `-wal` with content) the file is whole as it lies: the backup copies it byte for byte, set to
rollback-journal mode in the copy. With writes waiting in a `-wal` it still refuses (a copy without them would be
an older library). The fast tests raise what SQLite raises on the full disk; the slow one fills a real tmpfs (needs
root to mount, skips without). Failed before the fix (the backup refused).
"""

from __future__ import annotations

import gc
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.assistant import Assistant
from rag_core.errors import StoreDamaged
from rag_core.facade.access import LOCAL_ADMIN
from rag_core.storage import sqlite_access

DOC = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n".encode()


class _FullDisk:
    """`sqlite3` as `sqlite_access` sees it, where a read-only open under `folder` fails as on a full disk."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder.resolve()

    def __getattr__(self, name: str):
        return getattr(sqlite3, name)

    def connect(self, database, *args, **kwargs):
        where = str(database).removeprefix("file:").split("?")[0]
        if "mode=ro" in str(database) and Path(where).resolve().is_relative_to(self.folder):
            exc = sqlite3.OperationalError("disk I/O error")  # growing the -shm failed
            exc.sqlite_errorcode = sqlite3.SQLITE_IOERR_SHMSIZE
            raise exc
        return sqlite3.connect(database, *args, **kwargs)


def _shm_fails_in(folder: Path, monkeypatch) -> None:
    """Reads of stores under `folder` fail as on a full disk (the `-shm` cannot be grown)."""
    monkeypatch.setattr(sqlite_access, "sqlite3", _FullDisk(folder))


def _library(data: Path) -> None:
    a = fake_assistant(data)
    assert a.ingest_bytes(DOC, "leave.md").ok
    a.release_data_dir()
    a.catalog.close()
    del a
    gc.collect()


def test_a_backup_to_another_disk_while_the_data_disk_is_full(tmp_path: Path, monkeypatch) -> None:
    data = tmp_path / "data"
    _library(data)
    _shm_fails_in(data, monkeypatch)
    report = Assistant.backup_data_dir(data, tmp_path / "bk", actor=LOCAL_ADMIN)
    assert report.documents == 1 and "catalog.sqlite3" in report.files
    monkeypatch.undo()
    con = sqlite3.connect(tmp_path / "bk" / "catalog.sqlite3")
    try:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # readable on read-only media too
    finally:
        con.close()
    restored = Assistant.restore_data_dir(tmp_path / "bk", tmp_path / "restored", actor=LOCAL_ADMIN)
    assert restored.documents == 1


def test_writes_waiting_in_a_wal_are_never_left_out(tmp_path: Path, monkeypatch) -> None:
    live, store = tmp_path / "live.sqlite3", tmp_path / "store" / "x.sqlite3"
    store.parent.mkdir()
    con = sqlite3.connect(live)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA wal_autocheckpoint=0")
    con.execute("CREATE TABLE t (x)")
    con.execute("INSERT INTO t VALUES (1)")
    con.commit()
    shutil.copyfile(live, store)  # the file with its writes still in the -wal, as a crash leaves them
    shutil.copyfile(live.with_name(live.name + "-wal"), store.with_name(store.name + "-wal"))
    con.close()
    _shm_fails_in(store.parent, monkeypatch)
    with pytest.raises(sqlite3.OperationalError):
        sqlite_access.snapshot(store, tmp_path / "copy.sqlite3")
    assert not (tmp_path / "copy.sqlite3").exists()


def test_another_failure_is_not_copied_around(tmp_path: Path, monkeypatch) -> None:
    store = tmp_path / "x.sqlite3"
    store.write_bytes(b"SQLite format 3\0" + b"\xff" * 4080)  # damaged: still said as damage
    with pytest.raises(sqlite3.DatabaseError):
        sqlite_access.snapshot(store, tmp_path / "copy.sqlite3")


@pytest.mark.slow
def test_a_real_full_volume(tmp_path: Path) -> None:
    volume = tmp_path / "volume"
    volume.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(volume)],
                                           capture_output=True).returncode:
        pytest.skip("mounting a small tmpfs needs root")
    try:
        _library(volume / "data")
        with (volume / "fill").open("wb") as fill:
            with pytest.raises(OSError):
                while True:
                    fill.write(b"\0" * 65536)
                    fill.flush()
        report = Assistant.backup_data_dir(volume / "data", tmp_path / "bk", actor=LOCAL_ADMIN)
        assert report.documents == 1
        (volume / "fill").unlink()
        assert Assistant.restore_data_dir(tmp_path / "bk", tmp_path / "restored", actor=LOCAL_ADMIN).documents == 1
    finally:
        subprocess.run(["umount", "-l", str(volume)], capture_output=True)  # lazy: a cached Chroma client may hold it
        shutil.rmtree(volume, ignore_errors=True)


def test_the_refusal_for_a_full_backup_disk_is_unchanged(tmp_path: Path, monkeypatch) -> None:
    data = tmp_path / "data"
    _library(data)
    monkeypatch.setattr(sqlite_access, "_copy_whole", lambda *a: (_ for _ in ()).throw(OSError(28, "full")))
    _shm_fails_in(data, monkeypatch)
    with pytest.raises(StoreDamaged, match="备份目录"):
        Assistant.backup_data_dir(data, tmp_path / "bk", actor=LOCAL_ADMIN)
    assert not (tmp_path / "bk").exists()
