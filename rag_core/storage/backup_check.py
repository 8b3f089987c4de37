"""What `restore` checks in a backup before it copies anything, and what both sides count (see `backup`).

Restore trusts nothing in a backup it did not check: the manifest's shape and size, paths that stay inside the
backup, no symbolic links, every store listed, readable and not cut short, the counts the manifest records.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path, PurePosixPath

from ..errors import StoreDamaged, os_reason
from .empty_stores import cut_state, truncated
from .health import CATALOG, MEMORY, sqlite_problem
from .sqlite_access import access_reason, connect_ro, problem_of

MANIFEST = "backup.json"
COUNTS = ("documents", "chunks", "memories")
MAX_MANIFEST = 1_000_000  # bytes: `backup` writes a few kilobytes (one line per file copied)
_SKIP_SUFFIXES = ("-wal", "-shm", "-journal", ".lock", ".tmp")
_FROM_BACKUP = "请选 python -m rag_core backup 生成的目录"


def _skipped(relative: PurePosixPath | Path) -> bool:
    """SQLite side files (the online backup includes them), caches set aside, hidden files."""
    return relative.name.endswith(_SKIP_SUFFIXES) or any(".damaged-" in p or p.startswith(".") for p in relative.parts)


def _count(db: Path, sql: str) -> int:
    if not db.exists():
        return 0
    try:
        con = connect_ro(db)
    except sqlite3.Error:
        return 0
    try:
        return int(con.execute(sql).fetchone()[0])
    except sqlite3.Error:
        return 0
    finally:
        con.close()


def _counts(root: Path) -> dict[str, int]:
    return {
        "documents": _count(root / CATALOG, "SELECT count(DISTINCT doc_id) FROM documents WHERE status = 'current'"),
        "chunks": _count(root / CATALOG, "SELECT count(*) FROM chunks"),
        "memories": _count(root / MEMORY, "SELECT count(*) FROM memories WHERE deleted_at IS NULL"),
    }


def os_said(exc: OSError | sqlite3.Error) -> str:
    """Why a file of a backup or restore could not be read or written, in Chinese (the OS's and SQLite's own
    words are English)."""
    if isinstance(exc, sqlite3.Error):
        return problem_of(exc)
    if isinstance(exc, FileExistsError | NotADirectoryError):  # `backup /etc/passwd/x`, `backup /dev/null`
        where = f"{exc.filename} " if exc.filename else "路径上有一段"
        return f"{where}是一个文件，而这里需要一个文件夹"
    if isinstance(exc, FileNotFoundError):
        return "找不到路径中的文件或文件夹"
    return os_reason(exc)


_NOT_A_MANIFEST = "不是有效的备份清单（已损坏或被改动）"


def _manifest_text(source: Path) -> str:
    """The manifest's text, refused when it is far larger than any `backup` writes (read whole, it could fill memory)."""
    manifest_path = source / MANIFEST
    if not manifest_path.is_file() or manifest_path.is_symlink():
        raise StoreDamaged(f"{source} 不是完整的备份（没有 {MANIFEST}）：{_FROM_BACKUP}")
    try:
        if (size := manifest_path.stat().st_size) > MAX_MANIFEST:
            raise StoreDamaged(f"{source}/{MANIFEST} 有 {size} 字节，不是本程序写的备份清单：{_FROM_BACKUP}")
        return manifest_path.read_text(encoding="utf-8")
    except OSError as exc:
        raise StoreDamaged(f"{source}/{MANIFEST} 无法读取（{os_said(exc)}）：备份不完整") from None
    except ValueError:  # not UTF-8: no manifest `backup` wrote
        raise StoreDamaged(f"{source}/{MANIFEST} {_NOT_A_MANIFEST}：{_FROM_BACKUP}") from None


def _read_manifest(source: Path) -> dict:
    """The manifest when it is one `backup` writes and names only files inside the backup."""
    text = _manifest_text(source)
    try:
        manifest = json.loads(text)
    except ValueError:  # cut short or edited: the parser's English position means nothing to HR
        raise StoreDamaged(f"{source}/{MANIFEST} {_NOT_A_MANIFEST}：{_FROM_BACKUP}") from None
    except RecursionError:  # nested deeper than the parser goes: no manifest `backup` writes
        raise StoreDamaged(f"{source}/{MANIFEST} 嵌套过深，不是本程序写的备份清单：{_FROM_BACKUP}") from None
    files = manifest.get("files") if isinstance(manifest, dict) else None
    if (
        not isinstance(files, list)
        or not all(isinstance(name, str) and name.strip() and "\0" not in name for name in files)
        or not all(type(manifest.get(key)) is int for key in COUNTS)
    ):
        raise StoreDamaged(f"{source}/{MANIFEST} 不是本程序写的备份清单：{_FROM_BACKUP}")
    for name in files:
        relative = PurePosixPath(name)
        if relative.is_absolute() or ".." in relative.parts:  # inside, once verify_backup finds no symlink
            raise StoreDamaged(f"{MANIFEST} 里的 {name[:80]} 指向备份之外：这份备份不可信，请换一份备份")
    # names `backup` never writes (hidden files, SQLite side files, caches set aside): a foreign backup
    # could plant `.open_checks.json` or a `-wal` beside the catalog; they are not restored
    manifest["files"] = [name for name in files if not _skipped(PurePosixPath(name))]
    if CATALOG not in manifest["files"]:
        raise StoreDamaged(f"{MANIFEST} 里没有 {CATALOG}：备份不完整，请换一份备份")
    return manifest


def _symlink_in(source: Path) -> str | None:
    """The first symbolic link inside the backup (a restore would copy what it points at), or None."""
    for folder, dirs, files in os.walk(source):
        for entry in (*dirs, *files):
            path = Path(folder) / entry
            if path.is_symlink():
                return path.relative_to(source).as_posix()
    return None


def _unlisted_store(source: Path, files: list[str]) -> str | None:
    """A database in the backup its manifest leaves out, or None: restore copies only what the manifest names,
    so a manifest without accounts.sqlite3 would restore a team install as the no-login desktop mode."""
    listed = {PurePosixPath(name).as_posix() for name in files}
    for path in sorted(source.rglob("*.sqlite3")):
        relative = path.relative_to(source)
        if path.is_file() and not _skipped(relative) and relative.as_posix() not in listed:
            return relative.as_posix()
    return None


def _store_problem(path: Path) -> str | None:
    """Why a store file in the backup would not restore, or None. A file shorter than SQLite's header was cut off
    (on its way to the backup disk): SQLite opens it as a healthy empty database, and restored it read as new —
    accounts and audit trail cut, a team install opened without a login."""
    if truncated(path):
        return cut_state(path.stat().st_size)
    return sqlite_problem(path)


def verify_backup(source: Path) -> dict:
    """The manifest of a complete, readable backup; StoreDamaged with the reason otherwise."""
    source = Path(source)
    manifest = _read_manifest(source)
    if link := _symlink_in(source):
        raise StoreDamaged(f"备份里的 {link} 是符号链接：备份里只应有真实的文件，请换一份备份")
    if unlisted := _unlisted_store(source, manifest["files"]):
        raise StoreDamaged(
            f"备份里的 {unlisted} 没有列在 {MANIFEST} 里，恢复时会漏掉它（例如账户文件）："
            "清单可能被改动过，请换一份备份"
        )
    for name in manifest["files"]:
        path = source / name
        if not path.is_file():
            raise StoreDamaged(f"备份缺少文件 {name}：备份不完整，请换一份备份")
        if path.suffix == ".sqlite3" and (problem := _store_problem(path)):
            raise StoreDamaged(f"备份里的 {name} {problem}" + ("" if access_reason(problem) else "：请换一份备份"))
    if _counts(source) != {k: manifest[k] for k in COUNTS}:
        raise StoreDamaged(f"{source} 的内容与它的清单不符：备份可能被改动过，请换一份备份")
    return manifest
