"""One writer per data dir, across processes: the app, a CLI `ingest`, a second app.

Two processes ingesting the same file once both read "v1 is current", both wrote a new
version and both made theirs current: v2 and v3 live at once, every chunk twice. The
indexer now writes only while holding this lock: an exclusive `flock` on a side file next
to the catalog, released by the kernel when the process dies (kill -9 included), so a
crash never leaves it stuck. A second writer waits (the page says so) and then sees the
first one's version, so the same file twice becomes one version and "unchanged".

Start-up recovery takes it without waiting: a pending version while another process
holds the lock is that writer's work in progress, not a crash's leftovers.

Where `fcntl` is missing (Windows) only the thread lock applies; the catalog's
BEGIN IMMEDIATE version switch still keeps one current version per document.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

POLL_SECONDS = 0.2


class WriterLock:
    """Re-entrant within this object (one thread at a time), exclusive across processes and objects."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self._thread_lock = threading.RLock()
        self._depth = 0
        self._fd: int | None = None

    def _try_file_lock(self) -> bool:
        if fcntl is None:
            return True
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        self._fd = fd
        return True

    def _release_file_lock(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    @contextmanager
    def hold(
        self, *, waiting: Callable[[], None] | None = None, cancel: Callable[[], None] | None = None
    ) -> Iterator[None]:
        """Wait for the lock. `waiting()` is called once when another writer holds it; `cancel()`
        is called every poll while waiting and may raise to give up."""
        told = False
        while not self._thread_lock.acquire(timeout=POLL_SECONDS):
            told = _tell(waiting, told)
            if cancel:
                cancel()
        try:
            if self._depth == 0:
                while not self._try_file_lock():
                    told = _tell(waiting, told)
                    if cancel:
                        cancel()
                    time.sleep(POLL_SECONDS)
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
                if self._depth == 0:
                    self._release_file_lock()
        finally:
            self._thread_lock.release()

    @property
    def depth(self) -> int:
        """How many holds are open (read by the thread holding the lock: 1 is its own `try_hold` alone)."""
        return self._depth

    @contextmanager
    def try_hold(self) -> Iterator[bool]:
        """Take the lock only if nobody holds it; yields whether it was taken."""
        if not self._thread_lock.acquire(blocking=False):
            yield False
            return
        try:
            if self._depth == 0 and not self._try_file_lock():
                yield False
                return
            self._depth += 1
            try:
                yield True
            finally:
                self._depth -= 1
                if self._depth == 0:
                    self._release_file_lock()
        finally:
            self._thread_lock.release()


def _tell(waiting: Callable[[], None] | None, told: bool) -> bool:
    if waiting is not None and not told:
        waiting()
    return True


@contextmanager
def held_if_writable(path: Path) -> Iterator[None]:
    """`WriterLock(path)` held for the block: one read-merge-write at a time across replicas; no lock when its file
    cannot be made (a read-only data dir: the write itself then refuses in Chinese)."""
    with ExitStack() as stack:
        try:
            stack.enter_context(WriterLock(path).hold())
        except OSError:
            pass
        yield
