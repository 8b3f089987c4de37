"""The account file's SQLite errors as one Chinese line: busy, or not writable."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from ..errors import StoreBusy, StoreDamaged
from ..storage.account_files import ACCOUNTS
from ..storage.sqlite_access import access_problem, is_busy

ACCOUNTS_BUSY = f"{ACCOUNTS} 正被另一个进程占用，请稍后再试"


@contextmanager
def accounts_busy() -> Iterator[None]:
    """"database is locked" becomes `StoreBusy`, a file that cannot be written `StoreDamaged` (review 380 #1), each
    with one Chinese line where an `OperationalError` was an English traceback; other SQLite errors stay as they are."""
    try:
        yield
    except sqlite3.OperationalError as exc:
        if is_busy(exc):
            raise StoreBusy(ACCOUNTS_BUSY) from exc
        if problem := access_problem(exc):
            raise StoreDamaged(f"{ACCOUNTS} {problem}") from exc
        raise
