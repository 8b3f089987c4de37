"""The data dir's "open" lock: every running assistant holds it shared, a restore needs it alone.

A CLI restore while the app sat idle swapped the data dir under the app's open connections: its next
upload or delete failed with Chroma's English "attempt to write a readonly database", and a fact it
remembered went into the set-aside directory, lost from the live store. Each `Assistant` now holds a
shared `flock` on `OPEN_LOCK` in its data dir for as long as it lives (the kernel drops it when the
process ends, kill -9 included), and `restore` takes it exclusively without waiting, or refuses.

One process holds one descriptor per lock file, shared by its assistants (a flock taken twice by one
process on two descriptors conflicts with itself): a restore in a process whose own assistants have
the data dir open converts that descriptor, so it never waits on its own lock.
A start that probes Chroma's index holds it exclusively for the probe (`alone`); an app opening meanwhile waits.
`others_open` tells a CLI command whether an app in another process has the data dir open (its in-memory index
would not see what the command writes).
Where `fcntl` is missing (Windows) nothing is locked.
"""

from __future__ import annotations

import errno
import os
import threading
import weakref
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ..errors import StoreBusy

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

OPEN_LOCK = ".app-open.lock"  # hidden and *.lock: backups skip it
PROBE_LOCK = ".app-probe.lock"  # held with the open lock by a start that probes: an app opening meanwhile waits
PRESENT_LOCK = ".app-present.lock"  # held shared beside the open lock; tried alone to tell if another process is here
RUNNING = "应用正在运行：请先停止应用再恢复"
RESTORING = "数据目录正在从备份恢复：请等恢复完成后再启动"

_HELD_ELSEWHERE = {errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES}  # flock's "someone holds it"; others: no flock
_guard = threading.Lock()
# (st_dev, st_ino) of a lock file -> [descriptor, assistants, PRESENT_LOCK descriptor or -1 (cannot tell)]
_held: dict[tuple[int, int], list[int]] = {}
# Assistants collected while the guard was taken: a finalizer runs wherever the garbage collector does, also
# inside `with _guarded()` on the same thread, where waiting for the guard would wait forever (a full test
# tier hung there). Their keys wait here and are let go at the next guarded step.
_collected: deque[tuple[int, int]] = deque()


@contextmanager
def _guarded() -> Iterator[None]:
    """The guard, with what was collected meanwhile let go before and after the block."""
    with _guard:
        _let_go_collected()
        try:
            yield
        finally:
            _let_go_collected()
    _try_let_go()


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

    Waits while a start probes the data dir's index (`alone`, a second or so); StoreBusy while a restore
    replaces the data dir."""
    fd = _open(Path(data_dir) / OPEN_LOCK) if fcntl is not None else None
    if fd is None:
        return lambda: None
    with _guarded():
        key = _identity(fd)
        taken = key in _held or _try(fd, fcntl.LOCK_SH)
        if taken:
            _count(key, fd, Path(data_dir))
    if taken is None:
        os.close(fd)
        return lambda: None  # a file system without flock (some network mounts): the app still starts
    if not taken:
        if not _after_probe(fd, Path(data_dir)):
            os.close(fd)
            raise StoreBusy(f"数据目录 {data_dir}：{RESTORING}")
        with _guarded():
            _count(key, fd, Path(data_dir))
    return weakref.finalize(owner, _let_go, key)


def _try(fd: int, operation: int) -> bool | None:
    """flock without waiting: True when taken, False while held elsewhere, None where flock does not work."""
    try:
        fcntl.flock(fd, operation | fcntl.LOCK_NB)
    except OSError as exc:
        return False if exc.errno in _HELD_ELSEWHERE else None
    return True


def _count(key: tuple[int, int], fd: int, data_dir: Path) -> None:
    """One assistant more on the lock file; the process keeps one descriptor (a second one's flock conflicts)."""
    if key in _held:
        if _held[key][0] != fd:
            os.close(fd)
        _held[key][1] += 1
    else:
        _held[key] = [fd, 1, _present(data_dir)]


def _present(data_dir: Path) -> int:
    """PRESENT_LOCK held shared for this process (waiting out another's instant `others_open` check); -1 without flock."""
    fd = _open(data_dir / PRESENT_LOCK)
    if fd is None:
        return -1
    try:
        fcntl.flock(fd, fcntl.LOCK_SH)
    except OSError:
        os.close(fd)
        return -1
    return fd


def _after_probe(fd: int, data_dir: Path) -> bool:
    """Take the open lock shared once a start's probe has let go of it; False when no probe holds it (a restore).

    Refused as "restoring", an app or CLI command started during another start's probe did not open at all."""
    marker = _open(data_dir / PROBE_LOCK)
    probing = False
    if marker is not None:
        try:
            probing = _try(marker, fcntl.LOCK_SH) is False
        finally:
            os.close(marker)
    try:  # a probe ends (its child is killed after PROBE_SECONDS); otherwise once more, in case it just ended
        fcntl.flock(fd, fcntl.LOCK_SH if probing else fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def _let_go(key: tuple[int, int]) -> None:
    """One assistant fewer (a finalizer: it never waits for the guard, which its own thread may hold)."""
    _collected.append(key)
    _try_let_go()


def _try_let_go() -> None:
    while _collected and _guard.acquire(blocking=False):
        try:
            _let_go_collected()
        finally:
            _guard.release()


def _let_go_collected() -> None:
    """Under the guard: the last assistant of this process on a lock file unlocks and closes its descriptor."""
    while _collected:
        entry = _held.get(key := _collected.popleft())
        if entry is None:
            continue
        entry[1] -= 1
        if entry[1] <= 0:
            del _held[key]
            fcntl.flock(entry[0], fcntl.LOCK_UN)
            os.close(entry[0])
            if entry[2] >= 0:
                os.close(entry[2])  # its only descriptor: the shared flock goes with it


@contextmanager
def no_app(data_dir: Path) -> Iterator[None]:
    """Hold `data_dir`'s open lock alone for the block, or refuse in one line while an app has it open.

    This process's own assistants do not count (the lock is converted on their descriptor)."""
    fd = _open(Path(data_dir) / OPEN_LOCK) if fcntl is not None and Path(data_dir).is_dir() else None
    if fd is None:
        yield
        return
    with _guarded():
        key = _identity(fd)
        entry = _held.get(key)
        if entry is not None:
            os.close(fd)
            fd = entry[0]
            entry[1] += 1  # the block counts as a holder: an assistant collected meanwhile cannot close the descriptor
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            locked = True
        except OSError as exc:
            if exc.errno in _HELD_ELSEWHERE:
                _back(fd, key, entry)
                raise StoreBusy(f"数据目录 {data_dir}：{RUNNING}。数据目录没有改动") from None
            locked = False  # no flock on this file system: nothing was ever locked, as before this lock
            if entry is None:
                os.close(fd)
            else:
                _collected.append(key)  # the block's count, given back at the guard's end
    if not locked:
        yield
        return
    try:
        yield
    finally:
        with _guarded():
            _back(fd, key, entry)


def _back(fd: int, key: tuple[int, int], entry: list[int] | None) -> None:
    """Return the descriptor to its state before `no_app`: shared for this process's assistants, else closed.

    A failed conversion has already dropped the shared lock (Linux), so it is taken again. The block's own count
    is given back at the guard's end (`_guarded`), so the last assistant collected during it lets go then."""
    if entry is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:  # another restore took it meanwhile; the assistants here are on a replaced dir anyway
            pass
        _collected.append(key)
        return
    fcntl.flock(fd, fcntl.LOCK_UN)
    os.close(fd)


def _existing_open_lock(data_dir: Path) -> int | None:
    """A descriptor on `data_dir`'s open lock when one was ever made; None where nothing can tell (no lock file,
    none readable, no flock)."""
    path = Path(data_dir) / OPEN_LOCK
    return _open(path) if fcntl is not None and path.exists() else None


def in_use(data_dir: Path) -> bool:
    """Some assistant, in this process or another, has `data_dir` open now (its open lock is held).

    Chroma's files are then live: another process may be writing them (a compaction) or this one has them
    loaded, so what a fresh reader finds says nothing of damage (`vector_probe`). False where nothing can tell
    (no data dir, no lock file, no flock)."""
    fd = _existing_open_lock(data_dir)
    if fd is None:
        return False
    try:
        with _guarded():
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


def others_open(data_dir: Path) -> bool:
    """Another process has `data_dir` open now, beside this one's assistants (False where nothing can tell).

    Embedded Chroma keeps its index in memory per process: what one process writes, another running one does
    not find until it restarts. Asked on PRESENT_LOCK, not the open lock: a shared flock turned exclusive is let
    go when the conversion fails (Linux), and for that instant a restore or a start's probe could have taken the
    open lock alone. Losing PRESENT_LOCK for that instant only makes a second check at that moment answer "alone".
    Without an assistant here, `in_use` answers."""
    fd = _existing_open_lock(data_dir)
    if fd is None:
        return False
    with _guarded():
        entry = _held.get(_identity(fd))
        os.close(fd)
        if entry is not None:
            return _tried_alone(entry[2]) is False
    return in_use(data_dir)


def _tried_alone(present: int) -> bool | None:
    """PRESENT_LOCK taken exclusively and given back shared: True when nobody else held it, False when another
    process did, None where flock does not work (or no descriptor)."""
    if present < 0:
        return None
    taken = _try(present, fcntl.LOCK_EX)
    try:
        fcntl.flock(present, fcntl.LOCK_SH)  # down from exclusive, or again after the failed conversion dropped it
    except OSError:
        pass
    return taken


@contextmanager
def alone(data_dir: Path) -> Iterator[bool]:
    """Hold `data_dir`'s open lock exclusively for the block, without waiting: True inside when held (or where
    flock does not work: unlocked, as before this lock), False while an assistant here or elsewhere has it open.

    A start probes Chroma's index and sets it aside inside: checked once and let go (`in_use`), another app or
    CLI command could open the data dir and write during the probe, and chroma/ was moved away under it. An
    app opening meanwhile waits (`hold_open`); a second start at the same time does not probe too."""
    held: list[int] = []
    try:
        yield _take_alone(Path(data_dir), held)
    finally:
        for fd in reversed(held):  # the open lock first, then the marker: an opening app waits, never refused
            os.close(fd)  # closing the only descriptor of an open drops its flock


def _take_alone(data_dir: Path, held: list[int]) -> bool:
    if fcntl is None or not data_dir.is_dir():
        return True
    for name in (PROBE_LOCK, OPEN_LOCK):  # the marker first: an app finding the open lock taken sees a probe
        fd = _open(data_dir / name)
        if fd is None:
            continue  # neither made nor readable: nothing can tell, as before the lock
        held.append(fd)
        with _guarded():
            if name == OPEN_LOCK and _identity(fd) in _held:
                return False  # this process's own assistants have it open
            if _try(fd, fcntl.LOCK_EX) is False:
                return False
    return True
