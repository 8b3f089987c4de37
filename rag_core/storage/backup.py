"""Backup and restore of a whole data dir, safe while the app runs.

Every SQLite file (catalog, memories, caches, and whatever store another part of
the app adds) is copied with SQLite's online backup API: a consistent snapshot
even while a writer is active, WAL included. The Chroma directory is copied with
its own database backed up the same way; it is a cache of the catalog (on a Chroma
server it is not in the backup at all), so a restore marks the store and its first
start rebuilds the vectors from the catalog and the embedding cache (no model calls
for known text): a count check missed an edit of the same size. A manifest records what was
copied and the counts `restore` checks.

The data dir holds password hashes and the session secret (`accounts.sqlite3`,
0600): a backup directory and a directory being restored are created 0700 and
every file keeps its mode. A backup ends with the checks `restore` runs, so it
never reports success for a copy restore would refuse; a damaged cache the app
rebuilds anyway (see `health.CACHES`, Chroma) is left out with a notice instead. A store
cut shorter than SQLite's header is damage too (SQLite reads it as a new empty store), and a
store that is a symbolic link is copied as the file it points at (a link to anything else is
left out with a notice). The copy is made in a staging directory of its own beside the
destination, renamed to it at the end. Restore trusts nothing in a backup it did not check
(`backup_check`): the manifest's shape and size, paths that stay inside the backup, no links.
A restore ends every session the restored account file holds: everyone logs in again.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import sqlite3
import stat
import tempfile
from collections.abc import Callable, Collection
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from ..errors import RagError, StoreBusy, StoreDamaged
from .account_files import ACCOUNTS, AUDIT, lost_accounts, no_accounts
from .backup_check import (
    _SKIP_SUFFIXES,
    MANIFEST,
    SUMS,
    _counts,
    _skipped,
    check_sums,
    file_sums,
    no_sums_notice,
    os_said,
    verify_backup,
)
from .backup_wait import no_import
from .disk_space import low_space, out_of_space
from .empty_stores import cut_state, truncated
from .health import CACHES, CATALOG, CHROMA_DB, CHROMA_DIR, sqlite_problem
from .restore_place import aside_path, mount_point, not_a_data_dir
from .sqlite_access import access_reason, is_busy, problem_of, snapshot

PRIVATE = 0o700  # a backup or a directory being restored: only the owner may look in
LINK_LEFT_OUT = "不是普通文件，没有放进备份"  # a backup's notice for a symbolic link to a directory or to nothing


@dataclass
class BackupReport:
    """What a backup or restore copied."""

    path: str
    files: list[str] = field(default_factory=list)
    documents: int = 0
    chunks: int = 0
    memories: int = 0
    previous: str = ""  # restore: where the replaced data dir was moved
    sessions_ended: int = 0  # restore: the logins the restored account file held, all ended (everyone logs in again)
    notices: list[str] = field(default_factory=list)  # backup: damaged caches left out (rebuilt on start); restore:
    # an older backup whose other files could not be checked (`backup_check.no_sums_notice`)
    left_out: list[str] = field(default_factory=list)  # damaged stores a backup left out (restore: only in `previous`)

    def to_dict(self) -> dict:
        return asdict(self)


def _copy_file(path: Path, out: Path, *, follow: bool = False) -> None:
    """One file, its mode kept (the account file stays 0600); directories on the way are private.

    `follow`: a symbolic link's target is copied (a backup of a data dir whose store was moved to another disk)."""
    out.parent.mkdir(mode=PRIVATE, parents=True, exist_ok=True)
    if path.suffix == ".sqlite3":
        snapshot(path, out)  # consistent while the app writes (see `sqlite_access.snapshot`)
    else:
        shutil.copy2(path, out, follow_symlinks=follow)
    out.chmod(stat.S_IMODE(path.stat().st_mode))


def _cache_of(name: str) -> str | None:
    """The cache a file belongs to, which the app rebuilds when it is damaged (left out whole), or None."""
    if name in CACHES:
        return name
    return CHROMA_DIR if name == CHROMA_DB else None


def backup_data_dir(data_dir: Path, dest: Path, *, wait_seconds: float | None = None,
                    waiting: Callable[[str], None] | None = None) -> BackupReport:
    """Copy the data dir into `dest` (new or empty directory); returns what was copied. An upload at work is waited
    for (`backup_wait.no_import`: up to `wait_seconds`, `waiting` told once), then StoreBusy.

    A destination that cannot be written (no such parent, read-only, a system directory) is refused in one
    line; it used to surface as an OSError traceback, and `.` as a ValueError (an empty name). A store that
    cannot be copied or would not restore is refused naming the file; nothing is left behind either way."""
    data_dir, dest = Path(data_dir), Path(dest).resolve()  # `.` or `..` name the directory they stand for
    try:
        return _backup(data_dir, dest, wait_seconds, waiting)
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):  # the backup's disk, not a store: said as that, named
            raise StoreDamaged(f"备份目录 {dest} 所在的磁盘空间不足，没有生成备份：请腾出空间，或换一个空间足够的磁盘上的"
                               "新目录再备份（数据目录没有改动）") from exc
        raise StoreDamaged(f"无法写入备份目录 {dest}（{os_said(exc)}）：请换一个可以写入的新目录") from exc


def _backup(data_dir: Path, dest: Path, wait_seconds: float | None = None,
            waiting: Callable[[str], None] | None = None) -> BackupReport:
    if not (data_dir / CATALOG).exists():
        raise StoreDamaged(f"{data_dir} 里没有 {CATALOG}：没有可以备份的文档库")
    if dest.exists() and any(dest.iterdir()):
        raise StoreDamaged(f"备份目录 {dest} 不是空的：请换一个新目录，免得覆盖已有的备份")
    if dest.resolve().is_relative_to(data_dir.resolve()):
        raise StoreDamaged(f"备份目录 {dest} 在数据目录里面：请放到数据目录之外")
    dest.parent.mkdir(parents=True, exist_ok=True)
    # a staging directory of this backup's own (0700), beside dest: a user's `<dest>.partial` was deleted before
    staging = Path(tempfile.mkdtemp(prefix=f".{dest.name}.partial-", dir=dest.parent))
    try:
        staging.chmod(PRIVATE)  # whatever the umask
        with no_import(data_dir, wait_seconds=wait_seconds, waiting=waiting):  # the catalog and its stores agree
            copied, notices, left_out = _copy_stores(data_dir, staging)
        notices += _vectors_elsewhere(staging / CATALOG)
        counts = _counts(staging)
        manifest = {"created_at": datetime.now(UTC).isoformat(timespec="seconds"), "files": copied,
                    SUMS: file_sums(staging, copied), **counts}  # restore finds a file cut on the way (backup_check)
        if notices:
            manifest["notices"] = notices
        if left_out:
            manifest["left_out"] = left_out  # a restore says so, and where the only copy of each stays (375 #4)
        (staging / MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False, indent=2), encoding="utf-8")
        verify_backup(staging)  # the checks restore runs: never "backed up" for a copy restore would refuse
        if lost := lost_accounts(staging):  # restore's account check too (`_check_accounts`)
            raise StoreDamaged(f"备份里的 {lost[0]}：这样的备份恢复时会被拒绝，没有生成备份。"
                               "请再备份一次；仍然这样，请先运行 python -m rag_core doctor 查看修复办法")
        _tidy(staging)
        if dest.exists():
            dest.rmdir()
        staging.rename(dest)  # a backup interrupted half-way never looks complete
    except BaseException:  # a damaged store, a full disk, an interrupt: no half-written directory left behind
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return BackupReport(str(dest), copied, notices=notices, **counts)


VECTOR_SERVER = "vector_server"  # catalog meta: the Chroma server the vectors live on ("" embedded), set at start
VECTORS_ELSEWHERE = "向量在 Chroma 服务器上，未包含在备份中；恢复后会从嵌入缓存重建"


def _vectors_elsewhere(catalog: Path) -> list[str]:
    """The notice that the vectors are not in this backup (a store on a Chroma server), or none."""
    try:
        con = sqlite3.connect(str(catalog))
        try:
            row = con.execute("SELECT value FROM meta WHERE key = ?", (VECTOR_SERVER,)).fetchone()
        finally:
            con.close()
    except sqlite3.Error:
        return []
    return [f"{VECTORS_ELSEWHERE}（{row[0]}）"] if row and row[0] else []


def _mark_for_rebuild(catalog: Path, known_layouts: Collection[str] | None = None) -> None:
    """The restored vectors are rebuilt at the next start: a server's (or a snapshot's) vectors may hold another
    version with the same chunk count, which the start's count check alone took for the restored one.

    A layout not in `known_layouts` (None: any) was written by a newer version: refused, never deleted (deleted, the
    start took the newer store for one of its own and rebuilt it over the newer one's files)."""
    con = sqlite3.connect(str(catalog))
    try:
        row = con.execute("SELECT value FROM meta WHERE key = 'vector_layout'").fetchone()
        if row and row[0] and known_layouts is not None and row[0] not in known_layouts:
            raise StoreDamaged(f"备份由较新版本的程序写入（向量布局 {row[0]}），请升级程序后再恢复；数据目录没有改动")
        con.execute("DELETE FROM meta WHERE key = 'vector_layout'")  # rebuilt from the embedding cache
        con.commit()
    finally:
        con.close()


def _tidy(staging: Path) -> None:
    """Drop the empty WAL and shared-memory files the read-only checks leave beside each copied database."""
    for wal in staging.rglob("*.sqlite3-wal"):
        if wal.stat().st_size == 0:
            wal.unlink()
            wal.with_name(wal.name.removesuffix("-wal") + "-shm").unlink(missing_ok=True)


# Stores a backup cannot do without: the documents, who may log in, and the trail that vouches for the accounts. Any
# other damaged store (questions log, conversations, memories ...) is left out with a notice, the rest backed up.
NEEDED_WHOLE = frozenset({CATALOG, ACCOUNTS, AUDIT})


def _copy_stores(data_dir: Path, staging: Path) -> tuple[list[str], list[str], list[str]]:
    """Copy the data dir; a damaged cache or feature store is left out (one notice each), a damaged catalog, account
    file or audit trail refuses the backup. Returns the files copied, the notices and the feature stores left out."""
    copied: list[str] = []
    damaged: dict[str, str] = {}  # cache file -> problem
    notices: list[str] = []
    # the audit trail before the accounts it vouches for: an account made meanwhile is then in the copy whenever
    # its audit row is (the other order made a backup that restore refused as one whose accounts were lost)
    for path in sorted(data_dir.rglob("*"), key=lambda p: (p.relative_to(data_dir) != Path(AUDIT), p)):
        relative = path.relative_to(data_dir)
        if _skipped(relative) or not (path.is_file() or path.is_symlink()):
            continue
        name = relative.as_posix()
        if not path.is_file():  # a link to a directory (not followed) or to nothing: said, never skipped silently
            notices.append(f"{name} 是指向 {_target(path)} 的符号链接，{LINK_LEFT_OUT}")
            continue
        try:
            if path.suffix == ".sqlite3" and truncated(path):  # SQLite would copy it as a healthy empty store
                problem = cut_state(path.stat().st_size)
            else:  # a symbolic link to a store moved to another disk: what it points at is copied
                _copy_file(path, staging / relative, follow=True)
                problem = sqlite_problem(staging / relative) if path.suffix == ".sqlite3" else None
        except sqlite3.Error as exc:  # a truncated or garbled file: "database disk image is malformed"
            if is_busy(exc):
                raise StoreBusy(f"{name} 正被另一个进程长时间占用，没有生成备份：请稍后再试") from exc
            if out_of_space(exc, staging) and (low_space(staging) or not low_space(data_dir)):  # the copy's disk
                raise OSError(errno.ENOSPC, "no space left for the copy", name) from exc
            problem = problem_of(exc)
        problem = " ".join(problem.split()) if problem else None  # quick_check's report spans lines: one line
        if problem is not None and access_reason(problem):  # a file this process may not read: not damage
            raise StoreDamaged(f"{name} {problem}，没有生成备份")
        if problem is None:
            copied.append(name)
        elif _cache_of(name) is not None or (path.suffix == ".sqlite3" and name not in NEEDED_WHOLE):
            damaged[name] = problem  # a cache, or a feature store the app runs without (review 371 #5)
        else:
            raise StoreDamaged(
                f"{name} {problem}：这样的备份无法恢复，没有生成备份。"
                "请先运行 python -m rag_core doctor 查看修复办法，修好后再备份"
            )
    for name, problem in damaged.items():
        cache = _cache_of(name) or name
        left_out = staging / cache
        if left_out.is_dir():
            shutil.rmtree(left_out)
        for path in (left_out, *(left_out.with_name(left_out.name + side) for side in _SKIP_SUFFIXES)):
            path.unlink(missing_ok=True)
        copied = [f for f in copied if f != cache and not f.startswith(cache + "/")]
        if _cache_of(name) is None:
            notices.append(f"{name} {problem}：无法复制，没有放进备份，其余文件都已备份。数据目录里的它原样保留，请运行 "
                           "python -m rag_core doctor 查看修复办法；用这份备份恢复时，这一部分是空的")
            continue
        what = "它只是缓存，没有放进备份" if cache == name else f"向量索引只是缓存，{cache}/ 没有放进备份"
        notices.append(f"{name} {problem}：{what}；恢复后启动时会从文档目录自动重建")
    return sorted(copied, key=Path), notices, sorted(name for name in damaged if _cache_of(name) is None)


def _target(link: Path) -> str:
    try:
        return str(link.readlink())
    except OSError:
        return "?"


class NoAccountsInBackup(RagError):
    """The backup would open without a login a data dir that has accounts now."""


def restore_data_dir(source: Path, data_dir: Path, *, allow_no_accounts: bool = False,
                     refuse_source: Callable[[Path], None] | None = None,
                     known_layouts: Collection[str] | None = None) -> BackupReport:
    """Replace the data dir with a verified backup; the old one is kept beside it, renamed.

    Stop the app first: an embedded Chroma and open SQLite connections would keep
    writing to the files being replaced. Only the files the manifest lists are copied, so
    the account checks run on the copy about to be swapped in. A backup from before the
    first account turns a team install into the no-login desktop mode (anyone acts as the
    local administrator): refused unless `allow_no_accounts`. A copy whose accounts were
    lost (audit trail says they existed) is always refused: it would stop every page.
    `refuse_source` (the facade's check for a backup a newer version wrote) raises before anything is staged;
    `known_layouts`: the vector layouts the restored catalog may hold (`_mark_for_rebuild`).
    """
    # "." or "store/..": a path without a name of its own (renaming it aside raised ValueError, ".." read as a mount
    # point) is made absolute first, lexically: a link as the last part stays a link
    source, named = Path(source), Path(os.path.abspath(data_dir))
    if named.exists() and not named.is_dir():
        raise StoreDamaged(f"数据目录 {named} 不是目录（是一个文件）：请用 --data-dir 或 RAG_DATA_DIR 指定数据目录")
    # a link (/var/lib/hr -> /mnt/disk2/hr): staged and replaced beside the real directory, so the link keeps
    # pointing at the restored data on its disk (the link itself was renamed aside and a directory put in its place)
    data_dir = named.resolve() if named.is_symlink() else named
    if os.path.ismount(data_dir):
        raise StoreDamaged(mount_point(named))
    if refused := not_a_data_dir(data_dir):
        raise StoreDamaged(f"{named} {refused}，恢复不会覆盖它，它没有改动：请用 --data-dir 或 RAG_DATA_DIR 指定原来的数据目录，"
                           "或者一个新的（空的）文件夹")
    manifest = verify_backup(source, sums=False)  # sizes and digests after the checks of the version that wrote it
    if refuse_source is not None:
        refuse_source(source)
    staging: Path | None = None
    try:
        data_dir.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{data_dir.name}.restoring-", dir=data_dir.parent))  # 0700
        copied = list(manifest["files"])
        for name in copied:
            _copy_file(source / name, staging / name)
        _mark_for_rebuild(staging / CATALOG, known_layouts)
        check_sums(source, manifest)  # a file cut on its way to the backup media (`backup_check`)
        _check_accounts(staging, source, data_dir, allow_no_accounts)  # what will be restored, not the backup dir
        ended = _end_sessions(staging / ACCOUNTS)
        aside = aside_path(data_dir)
        try:  # an error or a Ctrl-C between the two renames puts the old data dir back (review 371 #2: none was left)
            if aside is not None:
                data_dir.rename(aside)
            staging.rename(data_dir)
        except BaseException:
            if aside is not None and aside.is_dir() and not data_dir.exists():
                aside.rename(data_dir)
            raise
        previous = "" if aside is None else str(aside)
    except (OSError, sqlite3.Error) as exc:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
        if getattr(exc, "errno", None) in (errno.EBUSY, errno.EXDEV):  # a mount point ismount did not see (bind mount)
            raise StoreDamaged(mount_point(named)) from exc
        if out_of_space(exc, data_dir.parent):  # said as a backup says it (review 371 #8), not as a permission
            raise StoreDamaged(f"{named} 所在的磁盘空间不足，没有恢复，数据目录没有改动：请腾出空间，或恢复到另一个空间足够的"
                               "磁盘上的新目录") from exc
        raise StoreDamaged(f"无法恢复到 {named}（{os_said(exc)}）：数据目录没有改动，请检查它的位置和权限") from exc
    except BaseException:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
        raise
    left_out = [name for name in manifest.get("left_out", []) if isinstance(name, str)][:20]  # the backup's own word
    notices = [f"这份备份里没有 {name[:80]}（备份时它已损坏，没有放进去）：恢复后这一部分是空的" for name in left_out]
    return BackupReport(str(named), copied, previous=previous, sessions_ended=ended, left_out=left_out,
                        notices=no_sums_notice(manifest) + notices, **_counts(data_dir))


def _end_sessions(accounts: Path) -> int:
    """End every session in the account file being restored; how many there were.

    Why: the backup holds the sessions of its day. One ended since (a logout, a password reset, a disabled
    account, a stolen cookie) would be live again; after a restore everyone logs in again instead."""
    if not accounts.is_file():
        return 0
    con = sqlite3.connect(str(accounts))
    try:
        if con.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sessions'").fetchone() is None:
            return 0
        ended = con.execute("DELETE FROM sessions").rowcount
        con.commit()
        return ended
    finally:
        con.close()


def _check_accounts(staging: Path, source: Path, data_dir: Path, allow_no_accounts: bool) -> None:
    """Refuse, before the swap, a restore whose copied files would lose the accounts (every page stopped) or,
    over a data dir with accounts, open without a login (anyone acts as administrator)."""
    if lost := lost_accounts(staging):
        raise StoreDamaged(f"备份 {source} 不能恢复：{lost[0]}。请换一份账户完好的备份。数据目录没有改动。")
    if not allow_no_accounts and data_dir.is_dir() and not no_accounts(data_dir) and no_accounts(staging):
        raise NoAccountsInBackup(
            f"备份 {source} 里没有任何账户，而当前数据目录已开启账户：恢复后将不再需要登录，任何打开页面的人"
            "都会以本机管理员身份操作。请选择开启账户之后做的备份；确实要回到免登录的单机模式，"
            "请加上 --allow-no-accounts（或 allow_no_accounts=True）再恢复。数据目录没有改动。"
        )


__all__ = ["BackupReport", "LINK_LEFT_OUT", "NoAccountsInBackup", "backup_data_dir", "restore_data_dir", "verify_backup",
           "CHROMA_DIR"]
