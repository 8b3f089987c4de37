"""A store file shorter than SQLite's header was cut off, not new: it is said, kept aside, and a new one is made.

SQLite opens a 0-byte (or 1-byte) file as an empty database, so a truncated memory store (or conversations, insights,
standard answers, audit trail …) read as new and empty: everyone's memories gone, no word on any page, and
doctor said 正常. The app never leaves such a file: each store writes SQLite's header when it is created
(checked for every store), and readers open with mode=ro, which creates nothing. The catalog is checked
by `health`: a cut one stops the start in either mode (never an empty library), caches are rebuilt anyway.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import StoreDamaged
from .open_lock import alone
from .set_aside import set_aside
from .store_check import StoreCheck

RESTORE_HINT = "用 python -m rag_core restore <备份目录> 从备份恢复"
IN_USE = ("另一个进程（运行中的应用或命令行）正打开着数据目录，所以没有移开它，文件没有改动，这次启动也没有打开它。"
          "请先停止应用和其他命令再启动：启动时会把它移开并新建一个空的")
TRUNCATED = "是空的（0 字节），可能被截断"
HEADER = 100  # bytes of SQLite's file header: a store the app wrote is never shorter (a new one is 0 bytes
# only between its creation and the header write the same step makes; a WAL store's main file holds a page)
# what each store held, said in the notice (a store not named here is said as 以前的记录)
HELD = {"memory.sqlite3": "所有人的记忆", "conversations.sqlite3": "对话记录", "insights.sqlite3": "知识缺口与使用统计",
        "standard_answers.sqlite3": "标准答复", "audit.sqlite3": "审计日志", "accounts.sqlite3": "账户",
        "document_history.sqlite3": "文档的版本历史"}


def truncated(path: Path) -> bool:
    """Whether `path` is an existing regular file shorter than SQLite's header (a store the app would have written
    a header to). A longer file without the header is not read as new: SQLite refuses it as damaged."""
    try:
        return Path(path).is_file() and Path(path).stat().st_size < HEADER
    except OSError:
        return False


def cut_state(size: int) -> str:
    """How a truncated file of `size` bytes is said."""
    return TRUNCATED if not size else f"只有 {size} 字节（SQLite 数据库光文件头就有 {HEADER} 字节），可能被截断"


def empty_stores(data_dir: Path, skip: tuple[str, ...]) -> list[Path]:
    """The data dir's truncated store files, but those named in `skip` (checked elsewhere, or caches)."""
    return [p for p in sorted(Path(data_dir).glob("*.sqlite3")) if p.name not in skip and truncated(p)]


def kept_aside(data_dir: Path, name: str) -> list[Path]:
    """The copies of store `name` a start set aside (`set_aside`'s `<name>.damaged-<stamp>`), side files left out.

    Outlives the notice: the account mode reads it, as a truncated account or audit file leaves nothing else
    to say that accounts existed here."""
    sides = ("-wal", "-shm", "-journal")
    return [p for p in sorted(Path(data_dir).glob(f"{name}.damaged-*")) if not p.name.endswith(sides)]


def set_aside_empty(data_dir: Path, skip: tuple[str, ...]) -> list[str]:
    """Move each truncated store aside before it is opened as new; one notice line each for the pages.

    Only while this start holds the data dir alone (`open_lock.alone`): another process may have just created
    the file and be about to write its header. Otherwise the start is refused (`StoreDamaged`), the file left
    as it is: opened here it was written a new schema, the evidence gone and no later start saying a word."""
    found = empty_stores(data_dir, skip)
    if not found:
        return []
    with alone(Path(data_dir)) as held:
        if held:
            return [_moved_line(p.name, _size(p), set_aside(p)) for p in found]
    still = [p for p in found if truncated(p)]  # another process may have written its header meanwhile
    if still:
        names = "、".join(f"{p.name} {cut_state(_size(p))}" for p in still)
        raise StoreDamaged(f"{names}：{IN_USE}；要找回以前的记录，请{RESTORE_HINT}")
    return []


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _moved_line(name: str, size: int, moved: Path) -> str:
    held = HELD.get(name, "以前的记录")
    return (f"{name} {cut_state(size)}：{held}没有了。已把它移到 {moved.name} 并新建了一个空的；"
            f"要找回{held}，请{RESTORE_HINT}")


def empty_check(name: str, size: int = 0) -> StoreCheck:
    """`doctor`'s row for a truncated store file of `size` bytes."""
    return StoreCheck(name, "damaged", f"{cut_state(size)}，{HELD.get(name, '以前的记录')}都读不到了",
                      f"请{RESTORE_HINT}；没有备份时，启动应用会把它移开并新建一个空的")
