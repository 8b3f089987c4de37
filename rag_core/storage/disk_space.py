"""Is a failed SQLite (or Chroma) open or write a full disk? Then the file is healthy and must stay where it is.

SQLite says a full disk as SQLITE_FULL only where its own write() sees ENOSPC. Elsewhere it is an I/O error:
opening a WAL store whose `-shm` is not there yet must grow that file, and on a full volume that fails with
SQLITE_IOERR_SHMSIZE ("disk I/O error"), reproduced on a full tmpfs. Said as damage, every page told HR to move
the catalog away and delete chroma/, and a start moved a healthy Chroma index aside again and again.

Which I/O errors are a full disk:
- SQLITE_IOERR_SHMSIZE: growing the `-shm` (one byte written per page) failed: no space (or a full quota);
  always, as callers without a folder rely on it;
- any other I/O error (a write, a read, an fsync, an unnamed "disk I/O error") only when the volume under the
  file has less than `LOW_SPACE` free, or the error chain carries ENOSPC/EDQUOT. SQLITE_IOERR_WRITE is any
  write() that failed without ENOSPC (ENOSPC is SQLITE_FULL): EDQUOT, but also EIO from a failing disk, which
  was said as a full disk on a volume with plenty of room (`sqlite_access` says it as a disk I/O error).

`search.disk_full` answers the same question for the write path (it may not import storage, nor storage it).
"""

from __future__ import annotations

import errno
import re
import shutil
import sqlite3
from pathlib import Path

from ..errors import exception_chain

DISK_FULL = "无法写入：磁盘空间已满"
DISK_FULL_FIX = "请腾出磁盘空间后重试（文件本身完好，留在原处即可）"
LOW_SPACE = 1 << 20  # bytes free under which a volume counts as full: less than SQLite needs to open a WAL store
_SPACE_CODES = {sqlite3.SQLITE_IOERR_SHMSIZE}  # IOERR_WRITE is full only on a full volume
_NO_SPACE = (errno.ENOSPC, errno.EDQUOT)
_CODE = re.compile(r"\(code: (\d+)\)")  # Chroma's Rust layer: "error returned from database: (code: 4874) disk I/O error"
_FULL_WORDS = re.compile(r"database or disk is full|no space left on device|disk quota exceeded", re.I)


def low_space(folder: Path | None) -> bool:
    """Whether the volume holding `folder` has (almost) no room left; False when it cannot be told."""
    if folder is None:
        return False
    try:
        return shutil.disk_usage(folder).free < LOW_SPACE
    except OSError:
        return False


def _codes(exc: BaseException) -> list[int]:
    code = getattr(exc, "sqlite_errorcode", None)
    found = [code] if isinstance(code, int) else []
    return found + [int(number) for number in _CODE.findall(str(exc))]


def out_of_space(exc: BaseException, folder: Path | None = None) -> bool:
    """Whether `exc` (or what it was raised from) is a full disk; `folder`: where the file lies, for I/O errors
    that only the volume's free space tells apart from a failing disk."""
    for current in exception_chain(exc):
        if isinstance(current, OSError) and current.errno in _NO_SPACE:
            return True
        if _FULL_WORDS.search(str(current)):
            return True
        for code in _codes(current):
            if code & 0xFF == sqlite3.SQLITE_FULL or code in _SPACE_CODES:
                return True
            if code & 0xFF == sqlite3.SQLITE_IOERR and low_space(folder):
                return True
        if "disk I/O error" in str(current) and low_space(folder):
            return True
    return False


def full_line(file: str) -> str:
    """The one line for a store that failed on a full disk: healthy, left in place, nothing to delete."""
    return f"{file} {DISK_FULL}：{DISK_FULL_FIX}"
