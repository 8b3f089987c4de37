"""A write that fails because the data dir was replaced under the process is said in one Chinese line.

A restore that swapped the data dir while this process had it open (before the open lock, or on a file
system without `flock`) left its connections on renamed files: the next upload or delete raised Chroma's
English "InternalError … (code: 1032) attempt to write a readonly database", and the pages printed it.
The fix is a restart, and the line says so.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from ..errors import RagError

REPLACED_DIR = "数据目录已被替换（例如刚从备份恢复），请重启应用"
_MOVED = 1032  # SQLITE_READONLY_DBMOVED: the file was renamed under an open connection


def replaced_dir(exc: BaseException) -> bool:
    """Does `exc` say the data dir was swapped under this process's open files?

    Chroma says it as "(code: 1032) attempt to write a readonly database", SQLite as SQLITE_READONLY_DBMOVED;
    a data dir that is merely read-only (another SQLite code) is not this."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code == _MOVED
    text = str(exc)
    if codes := re.findall(r"code: (\d+)\)", text):  # Chroma names the code: only 1032 is a swapped dir
        return str(_MOVED) in codes
    return "attempt to write a readonly database" in text


@contextmanager
def said_replaced() -> Iterator[None]:
    """Turn a replaced data dir's error inside the block into `RagError(REPLACED_DIR)`; anything else passes."""
    try:
        yield
    except RagError:
        raise
    except Exception as exc:
        if replaced_dir(exc):
            raise RagError(REPLACED_DIR) from exc
        raise
