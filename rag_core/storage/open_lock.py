"""The data dir's "open" lock: every running assistant holds it shared, a restore needs it alone.

A CLI restore while the app sat idle swapped the data dir under the app's open connections: its next
upload or delete failed with Chroma's English "attempt to write a readonly database", and a fact it
remembered went into the set-aside directory, lost from the live store. Each `Assistant` now holds a
shared `flock` on `OPEN_LOCK` in its data dir for as long as it lives (the kernel drops it when the
process ends, kill -9 included), and `restore` takes it exclusively without waiting, or refuses.

One process holds one descriptor per lock file, shared by its assistants (a flock taken twice by one
process on two descriptors conflicts with itself): a restore in a process whose own assistants have
the data dir open converts that descriptor, so it never waits on its own lock.
Where `fcntl` is missing (Windows) nothing is locked.
"""

from __future__ import annotations

import errno
import os
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ..errors import StoreBusy

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

OPEN_LOCK = ".app-open.lock"  # hidden and *.lock: backups skip it
RUNNING = "应用正在运行：请先停止应用再恢复"
RESTORING = "数据目录正在从备份恢复：请等恢复完成后再启动"

_HELD_ELSEWHERE = {errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES}  # flock's "someone holds it"; others: no flock
_guard = threading.Lock()
_held: dict[tuple[int, int], list[int]] = {}  # (st_dev, st_ino) of a lock file -> [descriptor, assistants]


def _open(path: Path) -> int | None:
    """A descriptor on the lock file (made when missing); None where it can be neither made nor read."""
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        try:
            return os.open(path, os.O_RDONLY)  # a read-only data dir: flock works on a read-only descriptor
        except OSError:
            return None


def _identity(fd: int) -> tuple[int, int]:
    info = os.fstat(fd)
    return info.st_dev, info.st_ino


def hold_open(owner: object, data_dir: Path) -> Callable[[], None]:
    """Hold `data_dir`'s open lock (shared) until `owner` is collected, the returned call, or the process ends.

    StoreBusy while a restore replaces the data dir."""
    fd = _open(Path(data_dir) / OPEN_LOCK) if fcntl is not None else None
    if fd is None:
        return lambda: None
    with _guard:
        key = _identity(fd)
        if key in _held:
            os.close(fd)
            _held[key][1] += 1
        else:
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except OSError as exc:
                os.close(fd)
                if exc.errno in _HELD_ELSEWHERE:
                    raise StoreBusy(f"数据目录 {data_dir}：{RESTORING}") from None
                return lambda: None  # a file system without flock (some network mounts): the app still starts
            _held[key] = [fd, 1]
    return weakref.finalize(owner, _let_go, key)


def _let_go(key: tuple[int, int]) -> None:
    """One assistant fewer; the last one of this process unlocks and closes the descriptor."""
    with _guard:
        entry = _held.get(key)
        if entry is None:
            return
        entry[1] -= 1
        if entry[1] <= 0:
            del _held[key]
            fcntl.flock(entry[0], fcntl.LOCK_UN)
            os.close(entry[0])


@contextmanager
def no_app(data_dir: Path) -> Iterator[None]:
    """Hold `data_dir`'s open lock alone for the block, or refuse in one line while an app has it open.

    This process's own assistants do not count (the lock is converted on their descriptor)."""
    fd = _open(Path(data_dir) / OPEN_LOCK) if fcntl is not None and Path(data_dir).is_dir() else None
    if fd is None:
        yield
        return
    with _guard:
        entry = _held.get(_identity(fd))
        if entry is not None:
            os.close(fd)
            fd = entry[0]
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            locked = True
        except OSError as exc:
            if exc.errno in _HELD_ELSEWHERE:
                _back(fd, entry)
                raise StoreBusy(f"数据目录 {data_dir}：{RUNNING}。数据目录没有改动") from None
            locked = False  # no flock on this file system: nothing was ever locked, as before this lock
            if entry is None:
                os.close(fd)
    if not locked:
        yield
        return
    try:
        yield
    finally:
        with _guard:
            _back(fd, entry)


def _back(fd: int, entry: list[int] | None) -> None:
    """Return the descriptor to its state before `no_app`: shared for this process's assistants, else closed.

    A failed conversion has already dropped the shared lock (Linux), so it is taken again."""
    if entry is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:  # another restore took it meanwhile; the assistants here are on a replaced dir anyway
            pass
        return
    fcntl.flock(fd, fcntl.LOCK_UN)
    os.close(fd)


def in_use(data_dir: Path) -> bool:
    """Some assistant, in this process or another, has `data_dir` open now (its open lock is held).

    Chroma's files are then live: another process may be writing them (a compaction) or this one has them
    loaded, so what a fresh reader finds says nothing of damage (`vector_probe`). False where nothing can tell
    (no data dir, no lock file, no flock)."""
    path = Path(data_dir) / OPEN_LOCK
    if fcntl is None or not path.exists():
        return False
    fd = _open(path)
    if fd is None:
        return False
    try:
        with _guard:
            if _identity(fd) in _held:
                return True
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                return exc.errno in _HELD_ELSEWHERE
            fcntl.flock(fd, fcntl.LOCK_UN)
            return False
    finally:
        os.close(fd)
