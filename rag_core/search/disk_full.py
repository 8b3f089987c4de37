"""Is a failed write a full disk? Said as one Chinese line instead of Chroma's or SQLite's English.

A full disk reaches the write path in three shapes: SQLite's SQLITE_FULL ("database or disk is full"),
an OSError ENOSPC (or EDQUOT, a quota that is full) from a file written directly, and Chroma's
InternalError wrapping SQLite's code as "(code: 13) database or disk is full". The page and the CLI
printed the last one raw, and nothing in it said that the previous version still answers.
"""

from __future__ import annotations

import errno
import re

from ..errors import exception_chain

SQLITE_FULL = 13  # primary result code; extended codes keep it in the low byte
DISK_FULL = "磁盘空间已满，这次导入没有写入（之前的版本继续使用）；请腾出磁盘空间后重试"
_NO_SPACE = (errno.ENOSPC, errno.EDQUOT)
_SAID = re.compile(r"\(code: 13\)|database or disk is full|no space left on device", re.I)


def disk_full(exc: BaseException) -> bool:
    """Whether `exc` (or an exception it was raised from) says the disk is full."""
    for current in exception_chain(exc):
        code = getattr(current, "sqlite_errorcode", None)
        if isinstance(code, int) and code & 0xFF == SQLITE_FULL:
            return True
        if isinstance(current, OSError) and current.errno in _NO_SPACE:
            return True
        if _SAID.search(str(current)):
            return True
    return False
