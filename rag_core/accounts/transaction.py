"""One write transaction on an account file (accounts, audit trail), shared by both stores.

SQLite's write lock is taken first (BEGIN IMMEDIATE), so what a change reads cannot move before it writes, even
from another process on the same file. Any error rolls it back, a failed COMMIT included ("database is locked"
while another process reads): left open, the transaction held the lock, refused every later BEGIN, made other
processes read a healthy file as damaged, and was saved by whatever this process committed next.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress


@contextmanager
def one_write(db: sqlite3.Connection, lock: threading.Lock | threading.RLock) -> Iterator[None]:
    """Run the block's statements as one transaction on `db`, serialised in this process by `lock`."""
    with lock:
        if db.in_transaction:  # never BEGIN inside, nor commit, what an earlier failure left
            db.rollback()
        try:
            db.execute("BEGIN IMMEDIATE")
            yield
            db.commit()
        except BaseException:
            if db.in_transaction:
                with suppress(sqlite3.Error):  # the first error is the one to report
                    db.rollback()
            raise


@contextmanager
def write_or_skip(db: sqlite3.Connection, lock: threading.Lock | threading.RLock) -> Iterator[None]:
    """`one_write` that never waits for a file another process holds: busy raises `sqlite3.OperationalError` at once,
    not after the busy timeout (a tidy-up no one waits for, while this store's lock holds every other caller back)."""
    with lock:
        waits = db.execute("PRAGMA busy_timeout").fetchone()[0]
        db.execute("PRAGMA busy_timeout = 0")
        try:
            with one_write(db, threading.Lock()):  # `lock` is held already
                yield
        finally:
            db.execute(f"PRAGMA busy_timeout = {int(waits)}")
