"""Which format a data dir was written in: one this program knows (or an older one it migrates), or a newer one.

A data dir written by a newer version opened silently and was rewritten by an older program: its vector layout was
taken for a stale one and overwritten, its stores read as if they were this version's. So the catalog's meta keeps a
data-dir format number (`DATA_FORMAT`, written at every start that finds it missing or older), and before a start
writes anything (`refuse_newer`, ahead of `open_checks`) it refuses in one Chinese line when that number, the catalog's
vector layout or a store's own version is newer than this code knows. An older or missing one is migrated as before.
The maintenance actions ask the same (`newer_than_known`): restore refuses such a backup before staging anything,
backup refuses such a data dir, and doctor reports it as a problem in the same line.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from ..errors import StoreUnavailable
from ..insights.log import STORE_VERSION as INSIGHTS_VERSION
from ..search.vector_store import LAYOUT
from ..storage.backup_check import MANIFEST, is_backup
from ..storage.health import CATALOG
from ..storage.sqlite_access import connect_ro
from ..storage.store_check import StoreCheck
from .stores import INSIGHTS_FILE

DATA_FORMAT = 1  # catalog meta `data_format`: bump when a change makes a data dir unreadable to this version
FORMAT_KEY = "data_format"
LAYOUT_KEY = "vector_layout"
# Vector layouts this code rebuilds from: none recorded (before 2026-11-30, and a restored backup's mark) and its own.
# Any other was written by a newer version (`git log -S LAYOUT -- rag_core/search/vector_store.py`).
KNOWN_LAYOUTS = frozenset({"", LAYOUT})
# Stores that keep a version of their own (PRAGMA user_version) and the newest this code knows.
STORE_VERSIONS = {CATALOG: 0, INSIGHTS_FILE: INSIGHTS_VERSION}


def refuse_backup(data_dir: Path) -> None:
    """Raise `StoreUnavailable` (nothing written) when the data dir is a backup (`backup.json` in it): opened, its
    catalog was rewritten, and restore then refused it as changed, with nothing to override (review 371 #1)."""
    if is_backup(data_dir):
        raise StoreUnavailable(f"{data_dir} 是一份备份（里面有 {MANIFEST}），不能直接当数据目录打开：打开会改动它，以后就不能再用它"
                               "恢复。请用 restore 把它恢复到数据目录后再打开；没有改动任何文件")


def backup_check(data_dir: Path) -> StoreCheck | None:
    """Doctor's line for a backup named as the data dir (review 375 #7: every line said 正常), or None."""
    if is_backup(data_dir):
        return StoreCheck(MANIFEST, "backup", "这个目录是一份备份，不是数据目录（检查没有改动它）",
                          "请用 restore 把它恢复到数据目录，再检查那个数据目录")
    return None


def newer_than_known(data_dir: Path) -> tuple[str, str] | None:
    """(file, the one Chinese line) when a newer version wrote the data dir, else None (nothing is written). A file
    that cannot be read is left to `open_checks` and doctor's own checks, which say what is wrong with it."""
    data_dir = Path(data_dir)
    found = [(CATALOG, _catalog_format(data_dir / CATALOG)),
             *((name, _store_version(data_dir / name, known)) for name, known in STORE_VERSIONS.items())]
    for name, reason in found:
        if reason:
            return name, f"数据目录由较新版本的程序写入（{reason}），请升级程序后再打开；没有改动任何文件"
    return None


def refuse_newer(data_dir: Path) -> None:
    """Raise `StoreUnavailable` (nothing written) when a newer version wrote the data dir."""
    if newer := newer_than_known(data_dir):
        raise StoreUnavailable(newer[1])


def newer_check(data_dir: Path) -> StoreCheck | None:
    """Doctor's line for a data dir a newer version wrote (not ok: the CLI exits 1), or None."""
    newer = newer_than_known(data_dir)
    return StoreCheck(newer[0], "newer", newer[1]) if newer else None


def _read(path: Path, sql: str, params: tuple = ()) -> list[tuple] | None:
    if not path.is_file():
        return None
    try:
        with closing(connect_ro(path)) as con:
            return con.execute(sql, params).fetchall()
    except sqlite3.Error:
        return None


def _catalog_format(path: Path) -> str:
    rows = _read(path, "SELECT key, value FROM meta WHERE key IN (?, ?)", (FORMAT_KEY, LAYOUT_KEY))
    meta = dict(rows or [])
    stored = str(meta.get(FORMAT_KEY) or "0")
    if not stored.isdigit() or int(stored) > DATA_FORMAT:
        return f"格式 {stored}，本程序只认识到 {DATA_FORMAT}"
    layout = str(meta.get(LAYOUT_KEY) or "")
    if layout not in KNOWN_LAYOUTS:
        return f"向量布局 {layout}，本程序只认识 {LAYOUT}"
    return ""


def _store_version(path: Path, known: int) -> str:
    rows = _read(path, "PRAGMA user_version")
    version = int(rows[0][0]) if rows else 0
    return f"{path.name} 的版本 {version}，本程序只认识到 {known}" if version > known else ""


def mark_format(catalog) -> None:
    """Record this code's format in the catalog (once; the start has refused a newer one)."""
    if catalog.get_meta(FORMAT_KEY) != str(DATA_FORMAT):
        catalog.set_meta(FORMAT_KEY, str(DATA_FORMAT))


def model_changed(built_by: str | None, model: str, chunks: int) -> list[str]:
    """The store notice after a start rebuilt every vector because the embedding model changed (none otherwise)."""
    if not built_by or built_by == model or not chunks:
        return []
    return [f"已按新的嵌入模型 {model} 重建 {chunks} 块向量（原来是 {built_by}）；知识缺口里较早的提问会在打开时按新模型重新归组"]
