"""What `restore` checks in a backup before it copies anything, and what both sides count (see `backup`).

Restore trusts nothing in a backup it did not check: the manifest's shape and size, paths that stay inside the
backup, no symbolic links, every store listed, readable and not cut short, the counts the manifest records, and
every file the size and sha256 the manifest records (`checksums`): a text file cut on its way to the backup media
(thesaurus.tsv at a line end) reads as a valid smaller one, which only its recorded size and digest tell. A manifest
from before those were recorded is accepted with a notice (`no_sums_notice`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
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
SUMS = "checksums"  # manifest: file name -> {"size": bytes, "sha256": hex digest}, as `backup` copied it
NO_SUMS = "这份备份由较早的版本生成，清单里没有各文件的大小和校验值"
_DIGEST = re.compile(r"[0-9a-f]{64}")


def is_backup(folder: Path) -> bool:
    """A backup, not a data dir: its manifest is in it. Opened or written into, it would no longer restore (371, 375)."""
    return (Path(folder) / MANIFEST).is_file()


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
    if not source.exists():  # a typo is no broken backup (review 392 #10)
        raise StoreDamaged(f"备份目录 {source} 不存在：请检查路径")
    if not source.is_dir():
        raise StoreDamaged(f"{source} 是一个文件，不是备份目录：{_FROM_BACKUP}")
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
    _check_sums_shape(source, manifest)
    return manifest


def _check_sums_shape(source: Path, manifest: dict) -> None:
    """The recorded sizes and digests, when there are any, have the shape `backup` writes and cover every file."""
    if SUMS not in manifest:
        return  # an older backup: `no_sums_notice`
    sums = manifest[SUMS]
    if not isinstance(sums, dict) or not all(
        isinstance(entry, dict) and type(entry.get("size")) is int and entry["size"] >= 0
        and isinstance(entry.get("sha256"), str) and _DIGEST.fullmatch(entry["sha256"])
        for entry in sums.values()
    ):
        raise StoreDamaged(f"{source}/{MANIFEST} 不是本程序写的备份清单：{_FROM_BACKUP}")
    if missing := [name for name in manifest["files"] if name not in sums]:
        raise StoreDamaged(f"{MANIFEST} 里没有 {missing[0][:80]} 的大小和校验值：清单可能被改动过，请换一份备份")


def file_sum(path: Path) -> dict[str, int | str]:
    """The size and sha256 of one file, as the manifest records them."""
    digest, size = hashlib.sha256(), 0
    with Path(path).open("rb") as stream:
        while block := stream.read(1 << 20):
            digest.update(block)
            size += len(block)
    return {"size": size, "sha256": digest.hexdigest()}


def file_sums(root: Path, names: list[str]) -> dict[str, dict[str, int | str]]:
    return {name: file_sum(Path(root) / name) for name in names}


def _sum_problem(source: Path, manifest: dict) -> str | None:
    """The first file whose size or digest differs from the manifest's (cut or changed after `backup`), or None."""
    sums = manifest.get(SUMS)
    if sums is None:
        return None
    for name in manifest["files"]:
        expected, path = sums[name], source / name
        if (size := path.stat().st_size) != expected["size"]:
            return (f"备份里的 {name} 有 {size} 字节，清单记录的是 {expected['size']} 字节：复制到备份介质时可能被截断"
                    "或改动过，请换一份备份")
        if file_sum(path)["sha256"] != expected["sha256"]:
            return f"备份里的 {name} 与清单记录的校验值不符：复制时可能出错或被改动过，请换一份备份"
    return None


def no_sums_notice(manifest: dict) -> list[str]:
    """A restore's notice for a manifest without sizes and digests (an older backup): its stores were checked one
    by one, its other files could not be."""
    if SUMS in manifest:
        return []
    others = [name for name in manifest["files"] if not name.endswith(".sqlite3") and "/" not in name]
    named = f"（{'、'.join(others[:3])}{' 等' if len(others) > 3 else ''}）" if others else ""
    return [f"{NO_SUMS}：数据库文件已逐个检查，其他文件{named}是否完整无法核对，请在应用里看一眼词表和设置"]


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


def verify_backup(source: Path, *, sums: bool = True) -> dict:
    """The manifest of a complete, readable backup; StoreDamaged with the reason otherwise.

    `sums=False`: the recorded sizes and digests are left to the caller's `check_sums` (restore checks them after it
    asked which version wrote the backup: a newer version's backup is refused as that, the actionable reason)."""
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
    if sums:
        check_sums(source, manifest)
    return manifest


def check_sums(source: Path, manifest: dict) -> None:
    """StoreDamaged when a file differs from the size or digest the manifest records (cut or changed on the way)."""
    try:
        problem = _sum_problem(Path(source), manifest)
    except OSError as exc:
        raise StoreDamaged(f"备份里的文件无法读取（{os_said(exc)}）：备份不完整") from None
    if problem:
        raise StoreDamaged(problem)
