"""The account, audit and version-history files: one Chinese line each when damaged, and lost accounts.

`accounts.sqlite3` decides the mode: no account means desktop (the person at the
machine is the administrator, no login). So an account file that was deleted,
emptied or replaced must not be read as "no account yet": that would open a
team install to anyone, as administrator. The signal that accounts existed is
the audit trail (`audit.sqlite3`, append-only): every account created and every
successful login leaves a row there, and accounts are never deleted (only
disabled). An audit trail holding such a row while the account file holds no
account means the accounts were lost. An audit trail too damaged to read cannot
vouch for a desktop install either, so it is treated the same way (fail closed).
If both files are gone together, nothing is left to tell; docs/deploy.md says so.
A file another process holds (busy) tells nothing yet either: `lost_accounts_line` raises `StoreBusy`,
which no caller keeps, so the next action reads again.
"""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

from ..errors import StoreBusy
from .empty_stores import kept_aside
from .health import RESTORE_HINT, StoreCheck
from .sqlite_access import (
    NOT_A_FILE,
    access_problem,
    access_reason,
    busy,
    busy_line,
    connect_ro,
    copy_rolled_back,
    damage_reason,
    interrupted,
    is_busy,
    problem_of,
)

ACCOUNTS = "accounts.sqlite3"
AUDIT = "audit.sqlite3"
HISTORY = "document_history.sqlite3"
CONVERSATIONS = "conversations.sqlite3"
INSIGHTS = "insights.sqlite3"
STANDARD = "standard_answers.sqlite3"
NEW_ADMIN = "python -m rag_core users add 你的名字 --role admin"
TEAM_ROWS = "SELECT 1 FROM audit WHERE outcome = 'ok' AND action IN ('user.add', 'login') LIMIT 1"
USERS = "SELECT 1 FROM users LIMIT 1"
READ_WAIT = 30.0  # seconds a read waits for another process's lock before the file is called busy

# what a damaged file stops, and the fix (doctor and the pages say the same)
FIXES: dict[str, str] = {
    ACCOUNTS: f"请{RESTORE_HINT}；没有备份时把它移走，再用 {NEW_ADMIN} 重新建立管理员账户",
    AUDIT: f"请{RESTORE_HINT}；没有备份时把它移走（以前的审计记录会丢失）",
    HISTORY: f"请{RESTORE_HINT}；没有备份时把它移走即可（只丢失旧版本的改动对比，文档和检索不受影响）",
    # restore replaces the whole data dir (uploads and memories since the backup go too): each says what else works
    CONVERSATIONS: f"请{RESTORE_HINT}；没有备份时把它移走（所有人的对话记录会丢失，文档、记忆和账户不受影响）",
    INSIGHTS: f"请{RESTORE_HINT}；没有备份时把它移走（提问记录、知识缺口和反馈会丢失，问答不受影响）",
    STANDARD: f"请{RESTORE_HINT}；没有备份时把它移走（HR 的标准答复会丢失，需要重新添加；问答照常按制度回答）",
}
EFFECTS: dict[str, str] = {
    ACCOUNTS: "无法确认谁可以登录，为安全起见所有页面暂停使用",
    AUDIT: "各项操作照常进行，但暂时不会记入审计日志，审计日志页面也无法查看",
    HISTORY: "文档的导入、删除和检索照常进行，只是版本历史的改动对比暂时无法使用",
}


def damaged_line(file: str, problem: object) -> str:
    """The one line for a damaged account, audit or history file: which file, what stops, the fix.

    An error that says the file could not be reached (read-only, data dir replaced by a restore) is
    said as that, with its own fix: moving a healthy file away would lose its records. A busy one is only busy."""
    if (is_busy(problem) if isinstance(problem, BaseException) else busy(problem)):
        return busy_line(file)
    if isinstance(problem, BaseException) and (reached := access_reason(access_problem(problem))):
        what, fix = reached
        return f"{file} {what}：{EFFECTS[file]}。{fix}"
    text = str(problem).strip()
    # SQLite's English (database disk image is malformed) said in Chinese, as the other stores say it (review 371 #3)
    reason = damage_reason(problem) if isinstance(problem, BaseException) or text.isascii() else text[:80]
    return f"{file} 已损坏（{reason}）：{EFFECTS[file]}。{FIXES[file]}"


def _read_one(path: Path, sql: str) -> bool | str:
    """Whether `sql` finds a row in the database at `path`: False for a missing, empty or table-less file,
    the reason (as doctor words it) when the file cannot be read. Read-only: nothing is created or changed.

    A crash's hot journal is rolled back in a private copy beside the file, so the verdict is the one the
    app sees once it has opened the file (doctor calls that file 上次异常退出…, not damaged)."""
    if not path.exists() or path.stat().st_size == 0:
        return False
    found = _query(path, sql)
    if isinstance(found, str) and interrupted(found):
        try:
            with tempfile.TemporaryDirectory(prefix=".rolled-back-", dir=path.parent) as folder:
                copy_rolled_back(path, Path(folder) / path.name)
                return _query(Path(folder) / path.name, sql)
        except (OSError, sqlite3.Error):
            return found
    return found


def _query(path: Path, sql: str) -> bool | str:
    try:
        con = connect_ro(path, timeout=READ_WAIT)  # a read-only data dir (snapshot, read-only mount) reads as it is
        try:
            return con.execute(sql).fetchone() is not None
        finally:
            con.close()
    except sqlite3.OperationalError as exc:  # a folder in its place is said as that (review 336)
        return False if "no such table" in str(exc) else problem_of(exc, path.parent, path)
    except sqlite3.DatabaseError as exc:
        return problem_of(exc, path.parent, path)


def no_accounts(data_dir: Path) -> bool:
    """True when the data dir has no account and lost none (the no-login desktop mode); unreadable is not."""
    return _read_one(Path(data_dir) / ACCOUNTS, USERS) is False and lost_accounts(data_dir) is None


def lost_accounts(data_dir: Path) -> tuple[str, str] | None:
    """(what is wrong, the fix) when the account file holds no account although the data dir was
    used with accounts (or its audit trail cannot tell, busy included); None otherwise (a damaged
    or busy account file is reported as that, not here)."""
    try:
        lost = _lost(Path(data_dir))
    except StoreBusy:  # the account file itself: doctor's row for it says busy
        return None
    return lost[:2] if lost else None


def _lost(data_dir: Path) -> tuple[str, str, bool] | None:
    """`lost_accounts`, and whether its verdict waits on a busy audit trail; `StoreBusy` for a busy account file."""
    path = data_dir / ACCOUNTS
    accounts = _read_one(path, USERS)
    if busy(accounts):
        raise StoreBusy(busy_line(ACCOUNTS))
    if accounts is not False:
        return None
    used = _read_one(data_dir / AUDIT, TEAM_ROWS)
    if used is False:
        return _kept_aside(data_dir)
    if not path.exists():
        state = "不见了"
    elif path.stat().st_size == 0:
        state = "是空的"
    else:
        state = "里没有任何账户"
    if used is True:
        detail = f"{ACCOUNTS} {state}，但 {AUDIT} 里有建立账户和登录的记录：这里开启过账户，账户文件丢了"
        fix = f"请{RESTORE_HINT}；没有备份时用 {NEW_ADMIN} 重新建立管理员账户，登录后再为同事开通账户"
    elif (reached := access_reason(used)) and reached[0] != NOT_A_FILE:  # not damage (busy too): as doctor says it
        detail = f"{ACCOUNTS} {state}，而 {AUDIT} {reached[0]}，暂时无法确认这里是否开启过账户"
        fix = reached[1]
    else:  # damaged, or a folder in its place: moving it away alone would open the pages without login (review 337)
        detail = f"{ACCOUNTS} {state}，而 {AUDIT} {reached[0] if reached else '已损坏'}，无法确认这里是否开启过账户"
        fix = (f"请{RESTORE_HINT}；没有备份时用 {NEW_ADMIN} 重新建立管理员账户；"
               f"确定这里从未开启过账户，就把 {AUDIT} 移走")
    return detail, fix, busy(used)


def _kept_aside(data_dir: Path) -> tuple[str, str, bool] | None:
    """A start set a truncated account or audit file aside: the new empty files would say "no account yet, desktop
    mode", and with the audit trail cut too nothing else is left to say that accounts existed here."""
    if not (kept := [*kept_aside(data_dir, ACCOUNTS), *kept_aside(data_dir, AUDIT)]):
        return None
    names = "、".join(p.name for p in kept)
    return (f"{names} 是启动时移开的被截断的账户或审计文件，无法确认这里是否开启过账户",
            f"请{RESTORE_HINT}；没有备份时用 {NEW_ADMIN} 重新建立管理员账户；确定这里从未开启过账户、要以免登录的"
            f"单机模式重新开始，就删除 {names} 再重新启动", False)


def lost_accounts_line(data_dir: Path) -> str | None:
    """The one line the pages show instead of opening without a login, or None.

    `StoreBusy` (with that line) while the account or audit file is held by another process: no verdict
    yet, neither lost nor not lost, so the caller keeps none and the next action reads again."""
    lost = _lost(Path(data_dir))
    if lost is None:
        return None
    detail, fix, waiting = lost
    line = f"{detail}。为安全起见，不会改成免登录的单机模式，所有页面暂停使用。{fix}"
    if waiting:
        raise StoreBusy(line)
    return line


def lost_accounts_check(data_dir: Path) -> StoreCheck | None:
    """`doctor`'s row for lost accounts, or None."""
    lost = lost_accounts(data_dir)
    return StoreCheck(ACCOUNTS, "lost", *lost) if lost else None
