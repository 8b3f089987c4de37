"""The documents page's version history as a table: what each version changed from the one before it, in words."""

from __future__ import annotations

import pandas as pd

from rag_core import Assistant
from rag_core.types import VersionChange
from ui.timefmt import local_time

VERSION_STATUS = {"current": "生效中", "retired": "已被新版本取代", "scheduled": "待生效", "pending": "写入中",
                  "superseded": "已被同日生效的新版本取代，不会生效"}


def title_change(change: VersionChange, before: VersionChange | None) -> str:
    """标题由…改为… when only the title changed, else "": a corrected Word 标题 makes a new version (review 347),
    which read 内容与上一版相同 in the history (review 352)."""
    if before is None or not change.title or not before.title or change.title == before.title:
        return ""
    return f"标题由「{before.title}」改为「{change.title}」"


def source_change(change: VersionChange, before: VersionChange | None) -> str:
    """文件由…改为… when this version came from a file of another name (a new version under an explicit 文档ID)."""
    if before is None or not change.source or not before.source or change.source == before.source:
        return ""
    return f"文件由「{before.source}」改为「{change.source}」"


def audience_change(change: VersionChange, before: VersionChange | None) -> str:
    """可见范围由…改为… when this version's audience differs from the one before it, else "".

    Restricting a policy to HR (or widening it again) stores the same text: without this the history
    read 内容与上一版相同, as if the upload had done nothing."""
    if before is None or not change.audience or not before.audience or set(change.audience) == set(before.audience):
        return ""
    return f"可见范围由 {Assistant.audience_names(before.audience)} 改为 {Assistant.audience_names(change.audience)}"


def versions_frame(changes: list[VersionChange]) -> pd.DataFrame:
    """Newest first; the version search uses today is marked, and each row says what changed (text and audience)."""
    rows = []
    for position, c in enumerate(changes):
        before = changes[position + 1] if position + 1 < len(changes) else None
        renamed = "；".join(part for part in (title_change(c, before), source_change(c, before)) if part)
        widened = audience_change(c, before)
        if not c.known:
            changed = "（这一版导入时还没有记录全文，无法比较）"
        elif c.removed == 0 and c.unchanged == 0:
            changed = f"首个版本，共 {c.added} 块"
        elif c.added == 0 and c.removed == 0:  # the same text: say what did change (a heading's change is not kept)
            told = "；".join(part for part in (renamed, widened) if part)
            changed, renamed, widened = (f"正文未变，{told}" if told else "正文与上一版相同"), "", ""
        else:
            changed = f"新增 {c.added} 块，删除 {c.removed} 块，未变 {c.unchanged} 块"
        rows.append(
            {
                "版本": f"v{c.version}" + ("（当前）" if c.is_current else ""),
                "状态": VERSION_STATUS.get(c.status, c.status),
                "可见范围": Assistant.audience_names(c.audience) or "—",
                "文件": c.source or "—",
                "导入时间": local_time(c.ingested_at),
                "生效日期": c.effective_date or "—",
                "块数": c.chunk_count,
                "与上一版相比": "；".join(part for part in (changed, renamed, widened) if part),
            }
        )
    return pd.DataFrame(rows)
