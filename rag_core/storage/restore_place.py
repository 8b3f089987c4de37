"""Where a restore may put the data dir: not a mount point, not a folder that is no data dir, and the name the
replaced one is kept under (split from `storage.backup`)."""

from __future__ import annotations

from pathlib import Path

from .backup_check import MANIFEST, is_backup
from .health import CHROMA_DIR
from .set_aside import aside_stamp


def mount_point(data_dir: Path) -> str:
    """Restore swaps whole directories by renaming, which a mount point (a disk, a Docker volume) refuses (EBUSY)."""
    return (f"数据目录 {data_dir} 是一个挂载点（单独的磁盘或 Docker 卷），恢复无法整体替换它，数据目录没有改动：请恢复到"
            f"它里面的一个新文件夹（python -m rag_core --data-dir {data_dir / 'restored'} restore <备份目录>），"
            "再把 RAG_DATA_DIR（或 --data-dir）改成那个文件夹后启动应用")


def not_a_data_dir(data_dir: Path) -> str:
    """Why a folder with content is not a data dir restore may set aside ("" when it is one, or empty or absent): a
    mistyped --data-dir (HR's own files, the backup itself) was renamed aside and called an old data dir to delete
    (review 371 #4). A data dir holds a store (`*.sqlite3`) or the vector index, even with its catalog damaged."""
    if not data_dir.is_dir() or not any(data_dir.iterdir()):
        return ""
    if is_backup(data_dir):
        return f"是一份备份（里面有 {MANIFEST}），不是数据目录"
    if any(data_dir.glob("*.sqlite3")) or (data_dir / CHROMA_DIR).is_dir():
        return ""
    return "里面有别的文件，却没有数据目录的文件（catalog.sqlite3 等），不像是数据目录"


def aside_path(data_dir: Path) -> Path | None:
    """Where a data dir with content is kept, `<name>.before-restore-<time>` (numbered when taken); None when there
    is nothing to keep (an empty one is removed). Named before the rename, so an interrupted swap can undo it."""
    if not data_dir.exists():
        return None
    if not any(data_dir.iterdir()):
        data_dir.rmdir()
        return None
    base = f"{data_dir.name}.before-restore-{aside_stamp()}"
    for number in range(1, 1000):
        moved = data_dir.with_name(base if number == 1 else f"{base}-{number}")
        if not moved.exists() and not moved.is_symlink():
            return moved
    raise FileExistsError(17, "太多同名的旧数据目录", str(data_dir))
