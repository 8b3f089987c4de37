"""The account, audit, catalog and history stores come into being whole or not at all, as the other stores do
(`storage.new_store`): a full disk at their first write left a 0-byte file that the start read as lost accounts
(every page paused on a desktop install that never had any) or a lost catalog (review 301)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from rag_core.accounts.audit import AuditLog
from rag_core.accounts.store import AccountStore
from rag_core.documents.catalog import Catalog
from rag_core.facade.history import VersionTexts


def _disk_full(monkeypatch) -> None:
    """Every new SQLite file fails at its first write, as on a full disk; an existing one opens."""
    real = sqlite3.connect

    def connect(path, *args, **kwargs):
        existed = Path(str(path)).exists()
        con = real(path, *args, **kwargs)
        if not existed:
            con.close()
            raise sqlite3.OperationalError("database or disk is full")
        return con

    monkeypatch.setattr(sqlite3, "connect", connect)


@pytest.mark.parametrize("opener", [AccountStore, AuditLog, Catalog, VersionTexts])
def test_a_store_that_could_not_be_written_leaves_no_file(tmp_path: Path, monkeypatch, opener) -> None:
    path = tmp_path / "store.sqlite3"
    _disk_full(monkeypatch)
    with pytest.raises(sqlite3.OperationalError):
        opener(path)
    assert not path.exists()
    monkeypatch.undo()
    opener(path)  # space freed: it opens as a new, whole store
    assert path.stat().st_size > 0


def test_without_hard_links_the_store_is_left_to_sqlite_and_never_replaced(tmp_path: Path, monkeypatch) -> None:
    """No rename over a name another process may have just taken (review 312: on a file system without hard links a
    second starter replaced a store the first had written its first account to)."""
    import os

    from rag_core.storage import new_store

    def no_links(src, dst):
        raise OSError(22, "Invalid argument")  # EINVAL, as FAT gives; EPERM/ENOSYS/EACCES alike

    monkeypatch.setattr(os, "link", no_links)
    path = tmp_path / "memory.sqlite3"
    assert new_store.create_store(path, "CREATE TABLE t (x);") is False and not path.exists()
    path.write_bytes(b"in use")
    assert new_store.create_store(path, "CREATE TABLE t (x);") is False and path.read_bytes() == b"in use"
    assert not list(tmp_path.glob(".*.tmp"))


def test_scratch_files_a_killed_process_left_are_swept(tmp_path: Path) -> None:
    import os
    import time

    from rag_core.storage import new_store

    old = tmp_path / ".memory.sqlite3.creating-abc.tmp"
    fresh = tmp_path / ".memory.sqlite3.creating-def.tmp"
    old.write_bytes(b"x")
    fresh.write_bytes(b"x")
    os.utime(old, (time.time() - 3600, time.time() - 3600))
    new_store.create_store(tmp_path / "memory.sqlite3", "CREATE TABLE t (x);")
    assert not old.exists() and fresh.exists()  # a minute old: another process may be creating it now
