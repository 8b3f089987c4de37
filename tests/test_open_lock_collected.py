"""An assistant collected while this process is inside the open lock's guard lets go later, without a hang.

The garbage collector runs finalizers wherever it happens to run: a fast tier hung for good when an
assistant's finalizer (`open_lock._let_go`) ran inside `hold_open` for another data dir, on the thread that
held the guard, and waited for it.
"""

from __future__ import annotations

import gc
import threading

from rag_core.storage import open_lock


class Owner:
    """Stands for an assistant: something `hold_open` ties the lock to."""

    def __init__(self) -> None:
        self.me = self  # a cycle: only the garbage collector frees it, as it did an assistant


def test_a_finalizer_inside_the_guard_neither_hangs_nor_keeps_the_lock(tmp_path, monkeypatch):
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    present = open_lock._present

    def collect_then_present(data_dir):  # called under the guard, as the garbage collector may be
        gc.collect()
        return present(data_dir)

    gc.disable()
    try:
        owner = Owner()
        open_lock.hold_open(owner, first)
        assert open_lock.in_use(first)
        del owner
        monkeypatch.setattr(open_lock, "_present", collect_then_present)
        done = threading.Event()
        kept = Owner()

        def open_second():
            open_lock.hold_open(kept, second)
            done.set()

        threading.Thread(target=open_second, daemon=True).start()
        assert done.wait(60), "hold_open hung: a finalizer waited for the guard its own thread held"
    finally:
        gc.enable()
    monkeypatch.setattr(open_lock, "_present", present)
    assert not open_lock.in_use(first)  # the collected owner's lock was let go at the next guarded step
    assert open_lock.in_use(second)


def _taken_by_another_descriptor(data_dir) -> bool:
    """Whether a fresh descriptor (another open file, as another process has) finds the open lock taken."""
    import fcntl
    import os

    fd = os.open(data_dir / open_lock.OPEN_LOCK, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def test_a_restore_keeps_its_lock_when_the_last_assistant_is_collected_during_it(tmp_path):
    gc.disable()
    try:
        owner = Owner()
        open_lock.hold_open(owner, tmp_path)
        with open_lock.no_app(tmp_path):
            del owner
            gc.collect()  # the process's last assistant goes while the restore holds the lock alone
            assert _taken_by_another_descriptor(tmp_path), "an app could open the data dir in the middle of a restore"
        assert not _taken_by_another_descriptor(tmp_path)  # the restore and the assistant have both let go
        assert not open_lock.in_use(tmp_path)
    finally:
        gc.enable()
