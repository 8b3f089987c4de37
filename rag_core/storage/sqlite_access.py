"""A store file that cannot be *reached* (or written: a full disk) is not a damaged one: the two are told apart here.

SQLite reports a read-only or foreign-owned directory as "unable to open database file"
(SQLITE_CANTOPEN) or SQLITE_READONLY*: a WAL database opened `mode=ro` needs its `-shm`
file, and cannot make one in a directory it cannot write (a read-only mount, a snapshot,
a backup on read-only media). Reported as damage, the advice was to move the file away
and delete chroma/ — destroying a healthy library. A file whose directory was renamed
under an open connection (a restore swapped the data dir) says SQLITE_READONLY_DBMOVED:
the fix is a restart, not a restore either.

`connect_ro` reads such a file anyway: when `mode=ro` cannot open it and its directory
cannot be written (so nobody here writes it), `immutable=1` reads it without the `-shm`.
Not when a non-empty `-wal` or `-journal` lies beside it: `immutable` ignores both, so a
copy of a live store read as an empty library (its documents still in the `-wal`), and
doctor advised deleting chroma/. Such a file is `PendingWrites`, never a partial read.

A process killed mid-transaction leaves a hot `-journal`: `mode=ro` cannot roll it back and
says SQLITE_READONLY_ROLLBACK, which read as a permission problem in a writable folder (backup
refused, doctor and the start said 请检查目录权限). It is `INTERRUPTED`: the start rolls it back
in place (`roll_back_interrupted`), as any read-write open would; readers that change nothing
read a copy rolled back instead (`copy_rolled_back`).

SQLITE_BUSY / SQLITE_LOCKED ("database is locked") means another process holds a healthy file for a moment:
it is `BUSY` (try again), never damage. Said as damage, people were told to restore or move the file away.
"""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
from pathlib import Path

from .disk_space import DISK_FULL, DISK_FULL_FIX, out_of_space

_log = logging.getLogger(__name__)
UNREADABLE = "无法读取（只读或没有权限）"
UNREADABLE_FIX = "请检查目录权限"
REPLACED = "数据目录已被替换"
REPLACED_FIX = "请重启应用"
READ_ONLY_PENDING = "有尚未写回的改动（-wal 或 -journal 文件），在只读目录里无法完整读取"
READ_ONLY_PENDING_FIX = "请把整个数据目录复制到可以写入的位置再操作，或先在可以写入时启动一次应用，让这些改动写回"

_ACCESS_CODES = {sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM, sqlite3.SQLITE_AUTH}
INTERRUPTED = "上次异常退出留下了未完成的写入"
INTERRUPTED_FIX = "启动应用时会自动恢复"
# SQLITE_FULL, or an I/O error a full volume causes (`disk_space`): the file is healthy, the disk under it is not;
# moving or restoring the file would lose records
# SQLITE_BUSY / SQLITE_LOCKED: another process is writing (or holds) a healthy file; nothing to repair
BUSY = "正被另一个进程占用"
BUSY_FIX = "请稍后再试"
# SQLITE_IOERR_WRITE with room left (EIO from a failing disk, a full quota): neither a full disk nor damage
WRITE_FAILED = "读写出错（磁盘 I/O 错误）"
WRITE_FAILED_FIX = "请检查磁盘（空间、配额或硬件故障）后重试，再运行 python -m rag_core doctor 确认"
_BUSY_CODES = {sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED}
_BUSY_WORDS = ("database is locked", "database table is locked")  # an error built without a code
# A folder where the file should be (review 335: said as permissions by the pages and as damage by doctor)
NOT_A_FILE = "是一个文件夹，不是文件"
NOT_A_FILE_FIX = "请把这个文件夹移走或改名（应用会新建这个文件），或从备份恢复"
_REASONS = {UNREADABLE: UNREADABLE_FIX, REPLACED: REPLACED_FIX, READ_ONLY_PENDING: READ_ONLY_PENDING_FIX,
            INTERRUPTED: INTERRUPTED_FIX, DISK_FULL: DISK_FULL_FIX, BUSY: BUSY_FIX, WRITE_FAILED: WRITE_FAILED_FIX,
            NOT_A_FILE: NOT_A_FILE_FIX}
_SIDE_FILES = ("-wal", "-journal")  # writes SQLite replays or rolls back before a read; `immutable` ignores them


class PendingWrites(sqlite3.OperationalError):
    """The file has writes SQLite must first replay or roll back, and this connection cannot: reading
    around them would show an older or half-written store, so the read is refused with `problem`."""

    def __init__(self, what: str, fix: str, code: int) -> None:
        super().__init__(f"{what}：{fix}")
        self.problem = f"{what}：{fix}"
        self.sqlite_errorcode = code


def is_busy(exc: BaseException) -> bool:
    """Whether `exc` is SQLite's busy or locked error (extended codes too): the one test of "busy", not damage."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in _BUSY_CODES
    return isinstance(exc, sqlite3.OperationalError) and str(exc).startswith(_BUSY_WORDS)


def busy(problem: object) -> bool:
    """Whether `problem` (a reason `access_problem` wrote) says the file is busy: ask again later, keep no verdict."""
    return bool(problem) and str(problem).startswith(BUSY)


def busy_line(file: str) -> str:
    """The one line for a busy store file, wherever it is said (pages, CLI, notices, logs)."""
    return f"{file} {BUSY}，{BUSY_FIX}"


def access_problem(exc: BaseException, folder: Path | None = None, path: Path | None = None) -> str | None:
    """The Chinese reason when `exc` says the file could not be reached or written, or is busy (not damage),
    else None.

    `folder`: the file's directory, so an I/O error on a full volume is said as a full disk (`disk_space`);
    `path`: the file, so a folder in its place is said as that."""
    if path is not None and Path(path).is_dir():
        return f"{NOT_A_FILE}：{NOT_A_FILE_FIX}"
    if isinstance(exc, PendingWrites):
        return exc.problem
    if is_busy(exc):
        return f"{BUSY}，{BUSY_FIX}"
    if out_of_space(exc, folder):
        return f"{DISK_FULL}：{DISK_FULL_FIX}"
    code = getattr(exc, "sqlite_errorcode", None)
    if not isinstance(code, int):
        return None
    if code == sqlite3.SQLITE_IOERR_WRITE:  # a write failed with room left: the file is not known to be damaged
        return f"{WRITE_FAILED}：{WRITE_FAILED_FIX}"
    if code == sqlite3.SQLITE_READONLY_ROLLBACK:  # a hot journal (a crash), not permissions: see connect_ro
        return f"{INTERRUPTED}：{INTERRUPTED_FIX}"
    if code == sqlite3.SQLITE_READONLY_DBMOVED:  # checked before the primary code: it is a READONLY too
        return f"{REPLACED}：{REPLACED_FIX}"
    if code & 0xFF in _ACCESS_CODES:
        return f"{UNREADABLE}：{UNREADABLE_FIX}"
    return None


def access_reason(problem: str | None) -> tuple[str, str] | None:
    """(what, fix) when `problem` is one `access_problem` wrote, else None (damage, or no problem)."""
    for what, fix in _REASONS.items():
        if problem and problem.startswith(what):
            return what, fix
    return None


def interrupted(problem: str | None) -> bool:
    """Whether `problem` is a crash's unfinished write (`INTERRUPTED`): neither damage nor permissions."""
    return bool(problem) and str(problem).startswith(INTERRUPTED)


# SQLite's English for damage, said in a few Chinese words; its own text goes to the log only
_DAMAGE_WORDS = (("file is not a database", "文件头不是数据库"), ("malformed", "内部结构损坏"),
                 ("disk I/O error", "读取时出现磁盘错误"), ("no such table", "缺少应有的数据表"))
CORRUPT_INSIDE = "内部结构损坏"  # PRAGMA quick_check found faults ("*** in database main *** On tree page 7 …")


def damage_reason(problem: object, otherwise: str = "无法读取") -> str:
    """A short Chinese reason for SQLite's damage error (or text), logged with SQLite's own words."""
    text = str(problem)
    _log.warning("store damage: %s", text)
    return next((said for words, said in _DAMAGE_WORDS if words in text), otherwise)


def problem_of(exc: sqlite3.Error, folder: Path | None = None, path: Path | None = None) -> str:
    """The one reason for a failed read: not reachable or a full disk (see `access_problem`), or damaged."""
    return access_problem(exc, folder, path) or f"数据库文件已损坏（{damage_reason(exc)}）"


def _writable(folder: Path) -> bool:
    return os.access(folder, os.W_OK)


def _pending(path: Path) -> bool:
    """A non-empty `-wal` or `-journal` beside `path`: writes an `immutable` read would silently skip."""
    for side in _SIDE_FILES:
        try:
            if path.with_name(path.name + side).stat().st_size > 0:
                return True
        except OSError:
            continue
    return False


def connect_ro(path: Path, *, timeout: float = 30) -> sqlite3.Connection:
    """A read-only connection that has opened `path` (sqlite_master read), immutable in a read-only directory.

    `PendingWrites` when only an immutable read would open it but writes wait beside it. Raises what SQLite
    raises otherwise: damage stays damage, and a file no one may read stays unreadable."""
    path = Path(path)
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=timeout)
    try:
        con.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return con
    except sqlite3.Error as exc:
        con.close()
        code = getattr(exc, "sqlite_errorcode", None)
        if code == sqlite3.SQLITE_READONLY_ROLLBACK and _writable(path.parent):
            raise PendingWrites(INTERRUPTED, INTERRUPTED_FIX, code) from exc
        if access_problem(exc) is None or is_busy(exc) or _writable(path.parent) or not os.access(path, os.R_OK):
            raise  # busy: an `immutable` read would skip the lock and may read a half-written file
        if _pending(path):
            code = getattr(exc, "sqlite_errorcode", sqlite3.SQLITE_CANTOPEN)
            raise PendingWrites(READ_ONLY_PENDING, READ_ONLY_PENDING_FIX, code) from exc
    con = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True, timeout=timeout)
    try:
        con.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except BaseException:
        con.close()
        raise
    return con


def _journal(path: Path) -> Path:
    return path.with_name(path.name + "-journal")


def roll_back_interrupted(path: Path, *, timeout: float = 5) -> None:
    """Roll a crash's hot `-journal` back in place, as the app's first read-write open does anyway: run at
    start before the checks, so they read the store the app will see. Failures are left to the checks."""
    journal = _journal(Path(path))
    if not journal.is_file() or journal.stat().st_size == 0:
        return
    try:
        con = sqlite3.connect(f"file:{path}?mode=rw", uri=True, timeout=timeout)
        try:
            con.execute("SELECT count(*) FROM sqlite_master").fetchone()
        finally:
            con.close()
    except sqlite3.Error:
        pass


def _busy() -> sqlite3.OperationalError:
    busy = sqlite3.OperationalError("database is locked")
    busy.sqlite_errorcode = sqlite3.SQLITE_BUSY
    return busy


def _copy_unchanged(pairs: list[tuple[Path, Path]]) -> None:
    """Byte-copy each (source, target); SQLITE_BUSY (copies removed) when a source changed or went meanwhile."""
    def stamps() -> list[tuple[int, int]]:
        return [(p.stat().st_size, p.stat().st_mtime_ns) for p, _ in pairs]

    try:
        before = stamps()
        for source, target in pairs:
            shutil.copyfile(source, target)
        unchanged = stamps() == before
    except FileNotFoundError:  # a journal went: someone rolled it back meanwhile
        unchanged = False
    if not unchanged:
        for _, target in pairs:
            target.unlink(missing_ok=True)
        raise _busy()


def copy_rolled_back(source: Path, target: Path, *, timeout: float = 30) -> None:
    """Copy `source` with its hot `-journal` to `target` (rollback-journal mode) and roll the journal back
    there: the store as it was before the interrupted write, read without writing `source` (backup, doctor).

    A source recovered or written while it was copied may mix two states: SQLITE_BUSY, try again."""
    source, target = Path(source), Path(target)
    _copy_unchanged([(source, target), (_journal(source), _journal(target))])
    con = sqlite3.connect(f"file:{target}?mode=rw", uri=True, timeout=timeout)
    try:
        con.execute("SELECT count(*) FROM sqlite_master").fetchone()  # rolls the copied journal back
        con.execute("PRAGMA journal_mode=DELETE").fetchone()
    finally:
        con.close()


def snapshot(source: Path, target: Path) -> None:
    """A consistent copy of the store `source` at `target`, in rollback-journal mode: a WAL copy cannot even be read
    on read-only media (its reader needs a `-shm` file beside it); the app turns WAL back on when it opens the file.

    A crash's hot journal is rolled back in the copy (`copy_rolled_back`): a backup never writes the store it
    copies, and SQLite's own rollback in place would need the folder writable and the lock. On a full disk a WAL
    store cannot be opened even to read (its `-shm` cannot be made): with no writes waiting beside it (no open
    connection, nothing to replay) the file is whole as it lies, and is copied byte for byte (`_copy_whole`),
    so a backup to another disk works while the data dir's disk is full."""
    source, target = Path(source), Path(target)
    try:
        src = connect_ro(source)
    except PendingWrites as exc:
        if not interrupted(exc.problem):
            raise
        copy_rolled_back(source, target)
        return
    except sqlite3.Error as exc:
        if is_busy(exc) or not out_of_space(exc, source.parent) or _pending(source):
            raise
        _copy_whole(source, target)
        return
    try:
        dst = sqlite3.connect(str(target))
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE").fetchone()
        finally:
            dst.close()
    finally:
        src.close()


def _copy_whole(source: Path, target: Path, *, timeout: float = 30) -> None:
    """`source`'s bytes at `target`, set to rollback-journal mode there (where there is room). Consistent: nothing
    waits in a `-wal`, and a checkpoint that rewrote the file meanwhile (room freed, a writer back) is SQLITE_BUSY."""
    _copy_unchanged([(source, target)])
    try:
        con = sqlite3.connect(f"file:{target}?mode=rw", uri=True, timeout=timeout)
        try:
            con.execute("SELECT count(*) FROM sqlite_master").fetchone()
            con.execute("PRAGMA journal_mode=DELETE").fetchone()
        finally:
            con.close()
    except BaseException:
        for side in ("", "-wal", "-shm", "-journal"):
            target.with_name(target.name + side).unlink(missing_ok=True)
        raise
