"""Two versions of one document in effect at once: a doctor row (here, so `health` stays small)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from .sqlite_access import connect_ro
from .store_check import StoreCheck


def version_problems(catalog: Path) -> list[StoreCheck]:
    """A document with more than one version in effect: a newer current version written without a
    future effective date should have retired every older one (two processes writing at once once
    left both current, each chunk live twice). A version scheduled for later is not counted.

    `ingested_at` (UTC) stands for the day a version was written, as the catalog's `superseded` does.
    """
    try:
        con = connect_ro(catalog)
        try:
            rows = con.execute(
                "SELECT doc_id, version, effective_date, ingested_at, chunk_count FROM documents "
                "WHERE status='current' ORDER BY doc_id, version"
            ).fetchall()
        finally:
            con.close()
    except sqlite3.Error:
        return []
    by_doc: dict[str, list[tuple]] = {}
    for row in rows:
        by_doc.setdefault(row[0], []).append(row)
    checks = []
    for doc_id, versions in by_doc.items():
        immediate = [v for _, v, eff, at, _ in versions if not eff or eff <= (at or "")[:10]]
        if not immediate:
            continue
        extra = [(v, n) for _, v, _, _, n in versions if v < max(immediate)]
        if extra:
            shown = "、".join(f"v{v}" for v, _ in extra)
            checks.append(StoreCheck(
                catalog.name, "inconsistent",
                f"文档 {doc_id} 有 {len(extra) + 1} 个同时生效的版本（{shown} 和 v{max(immediate)}），"
                f"旧版本的 {sum(n for _, n in extra)} 块仍在索引里",
                "把这份文档的文件重新导入一次即可（内容相同也可以），较旧的版本会被停用",
            ))
    return checks
