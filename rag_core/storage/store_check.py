"""One store file's state for `doctor` (`StoreCheck`), and the checks of the data dir itself.

Here, not in `health`, so that module stays small: the data dir is checked before any file in it.
"""

from __future__ import annotations

import os
import stat
from dataclasses import asdict, dataclass
from pathlib import Path

from .sqlite_access import UNREADABLE_FIX

PRIVATE_DIR = 0o700  # the data dir: HR-only text and everyone's memories, for the owner alone
UNWRITABLE = "无法写入（只读或没有权限），应用需要写入它"
UNWRITABLE_FIX = f"{UNREADABLE_FIX}，或用 --data-dir（RAG_DATA_DIR）换一个可以写入的目录"


@dataclass
class StoreCheck:
    """One file's state: ok, missing, damaged, rebuilt or lost, and what to do."""

    file: str
    # ok | missing | damaged | unreadable | interrupted (rolled back on start) | rebuilt | lost | inconsistent
    # | exposed (other local users may read it)
    status: str
    detail: str = ""
    fix: str = ""

    @property
    def ok(self) -> bool:
        return self.status in ("ok", "missing", "rebuilt", "interrupted")

    def line(self) -> str:
        """The one Chinese line the CLI and the pages show."""
        text = f"{self.file}：{self.detail}" if self.detail else self.file
        return f"{text}。{self.fix}" if self.fix else text

    def to_dict(self) -> dict:
        return asdict(self) | {"ok": self.ok}


def private_if_new(data_dir: Path) -> None:
    """A new (empty) data dir made owner-only before any store is written into it: under umask 022 it was 0755
    and its SQLite files 0644, readable by any local user. One with files is left as it is (doctor warns)."""
    try:
        if Path(data_dir).is_dir() and not any(Path(data_dir).iterdir()):
            Path(data_dir).chmod(PRIVATE_DIR)
    except OSError:  # not the owner, a read-only mount: doctor says so
        pass


def not_a_directory(data_dir: Path) -> StoreCheck | None:
    """The data dir path names a file: every store check would pass on nothing, so it is the one check."""
    if Path(data_dir).exists() and not Path(data_dir).is_dir():
        return StoreCheck(str(data_dir), "damaged", "数据目录不是目录（是一个文件）",
                          "请用 --data-dir 或 RAG_DATA_DIR 指定数据目录（一个文件夹）；这个文件不是应用的数据，确认没用后再移走它")
    return None


def exposed(data_dir: Path) -> StoreCheck | None:
    """A data dir other local users may enter: with files 0644 (SQLite's default under umask 022) they read
    HR-only text and everyone's memories and conversations. None when only the owner may."""
    try:
        mode = stat.S_IMODE(Path(data_dir).stat().st_mode)
    except OSError:
        return None
    if not mode & 0o077:
        return None
    return StoreCheck(str(data_dir), "exposed",
                      f"同组或其他本机用户可以进入数据目录（权限 {mode:04o}），能读到仅限人事的文档、每个人的记忆和对话",
                      f"请运行 chmod 700 {data_dir}（应用以数据目录的所有者身份运行，不受影响）")


def _writable(folder: Path) -> bool:
    return os.access(folder, os.W_OK)


def unwritable(data_dir: Path) -> StoreCheck | None:
    """A data dir this process cannot write (a read-only mount, a snapshot, another owner): nothing starts, though
    every file in it is healthy. The start refuses with this reason and doctor shows it as a row."""
    if Path(data_dir).is_dir() and not _writable(Path(data_dir)):
        return StoreCheck(str(data_dir), "unreadable", UNWRITABLE, UNWRITABLE_FIX)
    return None
