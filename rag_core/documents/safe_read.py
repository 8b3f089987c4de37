"""Read a file from disk only when it is a regular file, and never more than the size limit.

`Path.read_bytes` after a `stat` is not enough: a FIFO blocks the read forever, a
symlink to /dev/zero reads until memory runs out, a symlink to /etc/passwd would be
indexed for everyone, and the file can be swapped between the check and the read.
Here a symlink is refused whatever it points to (O_NOFOLLOW: the link itself is
never followed), the file is opened non-blocking and judged by the descriptor that
was actually opened, and the read stops at the limit.
"""

from __future__ import annotations

import errno
import os
import stat

from ..errors import IngestError, os_reason

MB = 1024 * 1024


def _too_big(name: str, size: int, limit: int) -> IngestError:
    """Both sizes in MB, with just enough decimals that they do not look equal (as `parsing` says it)."""
    shown = (f"{size} 字节", f"{limit} 字节")
    for digits in range(1, 7):
        a, b = f"{size / MB:.{digits}f}", f"{limit / MB:.{digits}f}"
        if a != b and float(b) > 0:
            shown = (f"{a} MB", f"{b} MB")
            break
    return IngestError(name, f"文件大小 {shown[0]} 超过上限 {shown[1]}，请拆分或压缩后再上传")


def _symlink(name: str) -> IngestError:
    return IngestError(name, "不是普通文件：这是一个符号链接，只能导入普通文件（请直接导入它指向的那个文件）")


def read_regular_file(path: str | os.PathLike[str], *, max_bytes: int, name: str) -> bytes:
    """The bytes of a regular file of at most `max_bytes`; IngestError (Chinese reason) otherwise.

    Only the last path component is judged: a directory on the way may be a link (macOS /tmp).
    """
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    if not nofollow and os.path.islink(path):  # no O_NOFOLLOW (Windows): check, then open
        raise _symlink(name)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | nofollow | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise IngestError(name, "文件不存在") from None
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EMLINK) and os.path.islink(path):
            raise _symlink(name) from None
        if isinstance(exc, IsADirectoryError):
            raise IngestError(name, "不是普通文件：这是一个目录，只能导入普通文件") from None
        raise IngestError(name, f"无法读取文件：{os_reason(exc, advice=True)}") from None  # not the OS's English
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        kind = "目录" if stat.S_ISDIR(info.st_mode) else "管道" if stat.S_ISFIFO(info.st_mode) else "设备或特殊文件"
        raise IngestError(name, f"不是普通文件：这是一个{kind}，只能导入普通文件")
    with os.fdopen(fd, "rb", buffering=0) as f:
        if info.st_size > max_bytes:
            raise _too_big(name, info.st_size, max_bytes)
        chunks: list[bytes] = []
        left = max_bytes + 1  # the file may have grown since fstat
        try:
            while left > 0 and (block := f.read(min(left, MB))):
                chunks.append(block)
                left -= len(block)
        except OSError as exc:
            raise IngestError(name, f"无法读取文件：{os_reason(exc, advice=True)}") from None  # not the OS's English
    data = b"".join(chunks)
    if len(data) > max_bytes:
        raise _too_big(name, len(data), max_bytes)
    if not data:
        raise IngestError(name, "文件为空（0 字节）")
    return data
