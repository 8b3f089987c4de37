"""The steps after a new version is made current: each on its own, a failure a warning, never an error.

Once `switch_current` has committed, the new version answers. A full disk in a later step (the file-name
key, the keyword index, retiring the old version) used to raise: the page said nothing was written and the
audit said failed while the new version answered and the old one stayed current beside it. Now every step is
tried, the rest still run (the old version is still retired), and the upload is reported as indexed with one
Chinese line naming what was left undone and what to do: re-uploading the same file is reported unchanged and
finishes the file-name key and the retirement (`Indexer._retire_superseded`); the keyword index reloads from the
catalog at the next search (`KeywordIndex.sync`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from .disk_full import disk_full

Step = tuple[str, Callable[[], object]]  # what the step does, in Chinese; the step
_log = logging.getLogger(__name__)


def run_each(steps: Sequence[Step], what: str) -> list[tuple[str, Exception]]:
    """Run every step even when one fails; the ones that failed, with their errors (logged: `what` names the write)."""
    failed: list[tuple[str, Exception]] = []
    for name, step in steps:
        try:
            step()
        except Exception as exc:  # noqa: BLE001 - the version is live: a step left undone is reported, not raised
            _log.warning("%s: %s failed after the switch", what, name, exc_info=True)
            failed.append((name, exc))
    return failed


def unfinished(version: int, failed: Sequence[tuple[str, Exception]]) -> list[str]:
    """The upload report's warning for steps left undone after v`version` took over (none: no warning)."""
    if not failed:
        return []
    names = "、".join(name for name, _ in failed)
    if any(disk_full(exc) for _, exc in failed):
        return [f"新版本 v{version} 已生效，但有收尾步骤因磁盘空间不足没有完成：{names}；"
                "请腾出磁盘空间后重新上传同一文件（会显示内容未变），系统会补完这些步骤"]
    return [f"新版本 v{version} 已生效，但有收尾步骤出错没有完成：{names}；"
            "请重新上传同一文件（会显示内容未变），系统会补完这些步骤；仍不行请联系管理员查看日志"]
