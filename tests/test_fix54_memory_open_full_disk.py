"""The memory store opened on a full disk (or beside a process holding it) is no damage: the facade says the disk
is full and never advises moving memory.sqlite3 away, which would clear everyone's memories (review 54f, left
alone). A store that is really damaged is still said so, in Chinese."""

from __future__ import annotations

import sqlite3

import pytest
from fakes import fake_assistant

from rag_core.errors import MemoryStoreError
from rag_core.memory import store as memory_store


def _failing(code: int, message: str, kind: type[sqlite3.Error] = sqlite3.OperationalError):
    """A stand-in for a store call that fails as SQLite does, with its error code."""
    def fail(*_args, **_kwargs):
        error = kind(message)
        error.sqlite_errorcode = code
        raise error
    return fail


def _failing_open(code: int, message: str):
    return _failing(code, message)


@pytest.mark.parametrize(("code", "message", "said"), [
    (sqlite3.SQLITE_IOERR_SHMSIZE, "disk I/O error", "磁盘空间已满"),
    (sqlite3.SQLITE_FULL, "database or disk is full", "磁盘空间已满"),
    (sqlite3.SQLITE_BUSY, "database is locked", "占用"),
])
def test_fix54_a_full_or_busy_memory_store_is_not_called_damaged(tmp_path, monkeypatch, code, message, said) -> None:
    a = fake_assistant(tmp_path / "s")
    monkeypatch.setattr(memory_store.db, "connect", _failing_open(code, message))
    with pytest.raises(MemoryStoreError) as caught:
        a.memory  # noqa: B018 - opening is the act
    text = str(caught.value)
    assert said in text and "移走" not in text and "已损坏" not in text
    assert not any(word in text for word in ("disk", "database", "locked"))


def test_fix54_a_damaged_memory_store_is_said_in_chinese(tmp_path) -> None:
    a = fake_assistant(tmp_path / "s")
    (tmp_path / "s").mkdir(parents=True, exist_ok=True)
    (tmp_path / "s" / "memory.sqlite3").write_bytes(b"this is not a database" * 100)
    with pytest.raises(MemoryStoreError) as caught:
        a.memory  # noqa: B018
    text = str(caught.value)
    assert "已损坏" in text and "file is not a database" not in text


def test_fix54_a_memory_sweep_on_a_full_disk_does_not_stop_the_memories(tmp_path, monkeypatch) -> None:
    """The hourly sweep (expire, purge) is housekeeping: a full disk while it runs is logged and the memories are
    still read, instead of SQLite's English reaching the page."""
    a = fake_assistant(tmp_path / "s")
    a.remember("zhangsan", "我常驻杭州")
    monkeypatch.setattr(a.memory, "expire", _failing(sqlite3.SQLITE_FULL, "database or disk is full"))
    monkeypatch.setattr(a._memory_sweep, "due", lambda: True)
    assert [m.content for m in a.list_memories("zhangsan")]


def test_fix54_damage_the_memory_sweep_meets_is_said(tmp_path, monkeypatch) -> None:
    """Only a full disk or a busy file lets the sweep wait: damage it meets is said in Chinese, as when the store
    opens, not logged while forgotten memories past retention stay on disk (review 54j #1)."""
    a = fake_assistant(tmp_path / "s")
    a.remember("zhangsan", "我常驻杭州")
    garbled = _failing(sqlite3.SQLITE_CORRUPT, "database disk image is malformed", sqlite3.DatabaseError)
    monkeypatch.setattr(a.memory, "purge_deleted", garbled)
    monkeypatch.setattr(a._memory_sweep, "due", lambda: True)
    with pytest.raises(MemoryStoreError) as caught:
        a.list_memories("zhangsan")
    assert "已损坏" in str(caught.value) and "malformed" not in str(caught.value)
