"""Writing a file the command line was asked to produce (`insights-export --out`) without harming another file.

`--out` is typed by hand: a path into the data dir (the live catalog) or an existing report was overwritten
outright. Here the data dir is refused as `backup` refuses it, an existing file is kept unless `--force`, and the
bytes go to a temp file in the same folder first, renamed over the destination only once complete, so a failed
write (full disk) leaves the old file whole.
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from pathlib import Path

from ..errors import RagError


class OutFileRefused(RagError):
    """The destination was refused; nothing was written."""


def checked_destination(out: str | Path, data_dir: str | Path, *, force: bool) -> Path:
    """The resolved path to write `out` to, or a Chinese refusal (checked before the export is built)."""
    typed = Path(out)
    target = typed.resolve()  # a link into the data dir is judged by where it points
    if target.is_relative_to(Path(data_dir).resolve()):
        raise OutFileRefused(f"{typed} 在数据目录 {data_dir} 里面：导出会覆盖或混入应用的数据，未写入。"
                             "请写到数据目录之外")
    if target.is_dir():
        raise OutFileRefused(f"{typed} 是一个文件夹：请给出文件的路径（例如 {typed / '导出.xlsx'}）")
    if target.exists() and not target.is_file():  # renamed over, /dev/null became a plain file (as root)
        raise OutFileRefused(f"{typed} 不是普通文件（设备、管道或套接字），未写入：请给出一个文件的路径")
    if not target.parent.is_dir():
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(typed))
    if target.exists() and not force:
        raise OutFileRefused(f"{typed} 已经存在，为免覆盖未写入：要替换它请加 --force，或换一个文件名")
    return target


def write_replacing(target: Path, data: bytes) -> None:
    """`data` into a temp file beside `target` (private to the owner), then renamed over it; no temp is left."""
    handle, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".partial")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
