"""A data dir on a file system without flock (some network mounts) still opens, and restore still works.

The open lock (`storage/open_lock.py`) read any flock error as "a restore holds it": on such a mount the app
refused to start, saying a restore was running. Only "someone holds it" (EWOULDBLOCK/EAGAIN/EACCES) counts.
"""

from __future__ import annotations

import errno
import fcntl

import pytest
from fakes import fake_assistant

from rag_core.errors import StoreBusy
from rag_core.storage import open_lock


class _Flock:
    """The open lock's view of fcntl, failing as `fail` says (the other locks of the app keep the real one)."""

    LOCK_SH, LOCK_EX, LOCK_NB, LOCK_UN = fcntl.LOCK_SH, fcntl.LOCK_EX, fcntl.LOCK_NB, fcntl.LOCK_UN

    def __init__(self, fail: int) -> None:
        self.fail = fail

    def flock(self, fd: int, operation: int) -> None:
        if operation != fcntl.LOCK_UN:
            raise OSError(self.fail, "flock")


def test_an_app_on_a_file_system_without_flock_starts_and_answers(tmp_path, monkeypatch):
    monkeypatch.setattr(open_lock, "fcntl", _Flock(errno.ENOLCK))
    assistant = fake_assistant(tmp_path / "store")
    assert assistant.ingest_bytes("# 年假\n\n第一条 年假5天。\n".encode(), "leave.md").ok
    with open_lock.no_app(tmp_path / "store"):  # restore's check: nothing was locked, nothing refuses
        pass


def test_a_held_lock_still_refuses(tmp_path, monkeypatch):
    (tmp_path / "store").mkdir()
    monkeypatch.setattr(open_lock, "fcntl", _Flock(errno.EWOULDBLOCK))
    with pytest.raises(StoreBusy, match="应用正在运行"), open_lock.no_app(tmp_path / "store"):
        pass
    with pytest.raises(StoreBusy, match="正在从备份恢复"):
        fake_assistant(tmp_path / "store")
