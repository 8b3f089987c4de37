"""Backup and restore of a whole data dir, safe while the app runs.

Every SQLite file (catalog, memories, caches, and whatever store another part of
the app adds) is copied with SQLite's online backup API: a consistent snapshot
even while a writer is active, WAL included. The Chroma directory is copied with
its own database backed up the same way; it is a cache of the catalog, so when a
snapshot taken mid-write does not match the catalog, the restored store notices
the different count on start and rebuilds the vectors from the catalog and the
embedding cache (no model calls for known text). A manifest records what was
copied and the counts `restore` checks.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from ..errors import StoreDamaged
from .health import CATALOG, CHROMA_DIR, MEMORY, sqlite_problem

MANIFEST = "backup.json"
_SKIP_SUFFIXES = ("-wal", "-shm", "-journal", ".lock", ".tmp")


@dataclass
class BackupReport:
    """What a backup or restore copied."""

    path: str
    files: list[str] = field(default_factory=list)
    documents: int = 0
    chunks: int = 0
    memories: int = 0
    previous: str = ""  # restore: where the replaced data dir was moved

    def to_dict(self) -> dict:
        return asdict(self)


def _online_copy(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=30)
    dst = sqlite3.connect(str(target))
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()


def _skipped(relative: Path) -> bool:
    """SQLite side files (the online backup includes them), caches set aside, hidden files."""
    return relative.name.endswith(_SKIP_SUFFIXES) or any(".damaged-" in p or p.startswith(".") for p in relative.parts)


def _count(db: Path, sql: str) -> int:
    if not db.exists():
        return 0
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
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


def _copy_tree(source: Path, target: Path) -> list[str]:
    """Copy a directory: SQLite files with the online backup API, the rest as files."""
    copied: list[str] = []
    for path in sorted(source.rglob("*")):
        relative = path.relative_to(source)
        if not path.is_file() or path.is_symlink() or _skipped(relative):
            continue
        out = target / relative
        out.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix == ".sqlite3":
            _online_copy(path, out)
        else:
            shutil.copy2(path, out)
        copied.append(str(relative))
    return copied


def backup_data_dir(data_dir: Path, dest: Path) -> BackupReport:
    """Copy the data dir into `dest` (new or empty directory); returns what was copied.

    A destination that cannot be written (no such parent, read-only, a system directory) is refused in one
    line; it used to surface as an OSError traceback, and `.` as a ValueError (an empty name)."""
    data_dir, dest = Path(data_dir), Path(dest).resolve()  # `.` or `..` name the directory they stand for
    try:
        return _backup(data_dir, dest)
    except OSError as exc:
        shutil.rmtree(dest.with_name(dest.name + ".partial"), ignore_errors=True)
        raise StoreDamaged(f"无法写入备份目录 {dest}（{exc.strerror or exc}）：请换一个可以写入的新目录") from exc


def _backup(data_dir: Path, dest: Path) -> BackupReport:
    if not (data_dir / CATALOG).exists():
        raise StoreDamaged(f"{data_dir} 里没有 {CATALOG}：没有可以备份的文档库")
    if dest.exists() and any(dest.iterdir()):
        raise StoreDamaged(f"备份目录 {dest} 不是空的：请换一个新目录，免得覆盖已有的备份")
    if dest.resolve().is_relative_to(data_dir.resolve()):
        raise StoreDamaged(f"备份目录 {dest} 在数据目录里面：请放到数据目录之外")
    staging = dest.with_name(dest.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    copied = _copy_tree(data_dir, staging)
    counts = _counts(staging)
    manifest = {"created_at": datetime.now(UTC).isoformat(timespec="seconds"), "files": copied, **counts}
    (staging / MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False, indent=2), encoding="utf-8")
    if dest.exists():
        dest.rmdir()
    staging.rename(dest)  # a backup interrupted half-way never looks complete
    return BackupReport(str(dest), copied, **counts)


def verify_backup(source: Path) -> dict:
    """The manifest of a complete, readable backup; StoreDamaged with the reason otherwise."""
    source = Path(source)
    manifest_path = source / MANIFEST
    if not manifest_path.is_file():
        raise StoreDamaged(f"{source} 不是完整的备份（没有 {MANIFEST}）：请选 python -m rag_core backup 生成的目录")
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise StoreDamaged(f"{source}/{MANIFEST} 无法读取（{exc}）：备份不完整") from None
    for name in manifest.get("files", []):
        path = source / name
        if not path.is_file():
            raise StoreDamaged(f"备份缺少文件 {name}：备份不完整，请换一份备份")
        if path.suffix == ".sqlite3" and (problem := sqlite_problem(path)):
            raise StoreDamaged(f"备份里的 {name} {problem}：请换一份备份")
    if _counts(source) != {k: manifest.get(k) for k in ("documents", "chunks", "memories")}:
        raise StoreDamaged(f"{source} 的内容与它的清单不符：备份可能被改动过，请换一份备份")
    return manifest


def restore_data_dir(source: Path, data_dir: Path) -> BackupReport:
    """Replace the data dir with a verified backup; the old one is kept beside it, renamed.

    Stop the app first: an embedded Chroma and open SQLite connections would keep
    writing to the files being replaced.
    """
    source, data_dir = Path(source), Path(data_dir)
    verify_backup(source)
    staging = data_dir.with_name(f".{data_dir.name}.restoring")
    shutil.rmtree(staging, ignore_errors=True)
    copied = _copy_tree(source, staging)
    (staging / MANIFEST).unlink(missing_ok=True)
    copied = [name for name in copied if name != MANIFEST]
    previous = ""
    if data_dir.exists() and any(data_dir.iterdir()):
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
        moved = data_dir.with_name(f"{data_dir.name}.before-restore-{stamp}")
        data_dir.rename(moved)
        previous = str(moved)
    elif data_dir.exists():
        data_dir.rmdir()
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    staging.rename(data_dir)
    return BackupReport(str(data_dir), copied, previous=previous, **_counts(data_dir))


__all__ = ["BackupReport", "backup_data_dir", "restore_data_dir", "verify_backup", "CHROMA_DIR"]
