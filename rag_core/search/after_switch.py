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
    """Run every step even when one fails; the ones that failed, with their errors (logged: `what` names the write).

    An interrupt (Ctrl-C, the page stopping the run) does not stop the rest either: the version is live, so the steps
    left are finished and only then is the interrupt raised again (the facade then says the version went live)."""
    failed: list[tuple[str, Exception]] = []
    interrupt: BaseException | None = None
    for name, step in steps:
        try:
            step()
        except Exception as exc:  # noqa: BLE001 - the version is live: a step left undone is reported, not raised
            _log.warning("%s: %s failed after the switch", what, name, exc_info=True)
            failed.append((name, exc))
        except BaseException as exc:  # KeyboardInterrupt and the like: finish the steps, then raise it
            _log.warning("%s: %s interrupted after the switch", what, name)
            interrupt = interrupt or exc
    if interrupt is not None:
        raise interrupt
    return failed


class LeftOver(Exception):
    """A delete's catalog transaction committed and a later step failed for another reason than a full disk.

    The document is gone from every list and answer; the caller must still finish its own bookkeeping (the audit row,
    holding standard answers) and then say what was left (`cause`): a data dir swapped under the process took the
    catalog's delete to renamed files, which only the caller can tell (`facade.replaced`)."""

    def __init__(self, removed: int, cause: Exception):
        super().__init__("删除后的清理步骤没有完成")
        self.removed, self.cause = removed, cause


# A delete whose catalog transaction committed but whose vector clean-up failed (a Chroma server restarted mid-delete)
# The store notice names no document: every visitor reads it, before logging in too (review 333); the audit names it.
LEFTOVER_NOTE = ("一份文档已删除（不再出现在列表和回答里），但向量库的清理没有完成：重启应用后会自动补齐；"
                 "如果用的是 Chroma 服务器，请先确认它在运行")


LIVE_ATTRIBUTE = "rag_live_version"  # set on an interrupt that came once the new version was live: (doc_id, version)


def mark_live(interrupt: BaseException, doc_id: str, version: int) -> None:
    """Note on `interrupt` that it came after v`version` of `doc_id` went live (read back by `went_live`)."""
    try:
        setattr(interrupt, LIVE_ATTRIBUTE, (doc_id, version))
    except AttributeError:  # an exception type without a __dict__: the caller then says nothing was written
        pass


def went_live(interrupt: BaseException) -> tuple[str, int] | None:
    """The (doc_id, version) that went live before `interrupt` stopped the upload, or None (nothing was written)."""
    return getattr(interrupt, LIVE_ATTRIBUTE, None)


def interrupted_live(doc_id: str, version: int) -> str:
    """The line the CLI, the page and the audit give an upload interrupted after its version went live."""
    return (f"导入在收尾时被中断，但新版本 {doc_id} v{version} 已生效，问答已使用它；"
            "如需确认收尾完整，可重新上传同一文件（会显示内容未变），系统会补完未完成的步骤")


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
