"""Upload and document-listing logic for the documents page, kept free of widgets.

AppTest cannot drive st.file_uploader, so the page's handler lives here where a
test can call it with the real facade and then check the page lists the result.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import date
from typing import Any

import pandas as pd
import streamlit as st

from rag_core import Assistant, DocumentInfo, IngestReport
from ui.state import actor
from ui.timefmt import local_time

STATUS_LABELS = {"indexed": "已索引", "unchanged": "内容未变，未重复索引", "refused": "已拒绝"}
DOC_STATUS_LABELS = {"current": "生效中", "retired": "已停用", "scheduled": "待生效", "pending": "写入中"}

REDACTION_LABELS = {
    "email": "邮箱",
    "id_card": "身份证号",
    "bank_card": "银行卡号",
    "mobile": "手机号",
    "landline": "座机号",
    "passport": "护照号",
    "travel_permit": "港澳台通行证号",
    "wechat": "微信号",
    "qq": "QQ号",
}

Progress = Callable[[str, float], None]
LOG = logging.getLogger(__name__)
# the error may come after the new version went live: the page cannot say nothing was written
UNEXPECTED = "导入时出现意外错误，这份文件可能没有导入完成：请在文档列表中查看它是否有了新版本，没有就重试，仍不行请联系管理员"


def upload_limit_mb(most_bytes: float) -> int:
    """The upload box's limit per file in MB: the engine's (`most_bytes`), never above what the server takes
    (`server.maxUploadSize`). The box said 20 MB whatever RAG_MAX_FILE_MB was, and refused past it in English (review 356)."""
    return max(1, min(math.ceil(most_bytes / 2**20), int(st.get_option("server.maxUploadSize"))))


def audience_text(audience: Sequence[str]) -> str:
    return Assistant.audience_names(audience)


def estimate_uploads(
    assistant: Assistant,
    files: Sequence[tuple[str, bytes]],
    *,
    audience: Sequence[str] = ("all",),
    doc_id: str | None = None,
    effective_date: date | None = None,
    redact_disabled: Sequence[str] = (),
) -> list[Any]:
    """The engine's estimate per file (chunks, seconds, or the reason it would be refused); nothing is written.

    Each file is estimated against the library as it is; `within_batch` adds what the earlier files of the
    batch will have written by then."""
    return within_batch([
        assistant.estimate_ingest(
            data, name, audience=tuple(audience), doc_id=doc_id or None,
            effective_date=effective_date.isoformat() if effective_date else None,
            redact_disabled=tuple(redact_disabled), actor=actor(),
        )
        for name, data in files
    ], [data for _, data in files])


def same_name_twice(name: str) -> str:
    """Why the second of two files of one name in a batch is not imported: it would replace the first at once."""
    return (f"本批中已有同名文件“{name}”，这一份没有导入：同名的两份文件会被当作同一文档的两个版本，后一份会立即替换前一份。"
            "如果它是新版本，请在这批导入后单独上传")


def within_batch(estimates: Sequence[Any], contents: Sequence[bytes] = ()) -> list[Any]:
    """A file whose different name maps onto the doc id of an earlier file in the batch will be refused as an
    id clash once that one is imported (考勤制度.md then 考勤制度.txt); one of the same name and other bytes is not
    imported (`ingest_uploads`: picked from two folders, it replaced the first unseen, review 384 #1). Say so, and
    count none of its chunks. The same file picked twice (`contents` equal) is left as it is: it changes nothing."""
    first: dict[str, tuple[str, bytes | None]] = {}  # doc id -> the (shown) name and bytes of the batch's first file
    out = []
    for i, e in enumerate(estimates):
        data = contents[i] if i < len(contents) else None
        earlier = first.get(e.doc_id) if e.ok else None
        if earlier is None:
            if e.ok:
                first[e.doc_id] = (e.filename, data)
        elif earlier[0] != e.filename:
            e = replace(e, chunk_count=0, seconds=0.0, needs_confirmation=False,
                        error=f"与本批中的“{earlier[0]}”对应同一个文档ID {e.doc_id}，导入时会被拒绝；"
                              "如果它是那份文档的新版本，请在这批导入后单独上传并确认")
        elif earlier[1] != data or data is None:
            e = replace(e, chunk_count=0, seconds=0.0, needs_confirmation=False, error=same_name_twice(e.filename))
        else:  # the same file picked twice: imported once, counted once (review 387 #10)
            e = replace(e, chunk_count=0, seconds=0.0, needs_confirmation=False, ocr_pages=0)
        out.append(e)
    return out


def _scans(e: Any) -> str:
    """，另有 3 页扫描页导入时 OCR 识别 (the engine's estimate counts them; OCR runs in the ingest)."""
    return f"，另有 {pages} 页扫描页导入时 OCR 识别" if (pages := e.ocr_pages) else ""


def estimate_text(estimates: Sequence[Any]) -> str:
    """约 N 块，预计约 X: the whole batch in one line (refused files count nothing)."""
    chunks = sum(e.chunk_count for e in estimates if e.ok and not e.unchanged)
    pages = sum(e.ocr_pages for e in estimates if e.ok and not e.unchanged)
    seconds = sum(e.seconds for e in estimates if e.ok)
    scans = f"，{pages} 页扫描页待 OCR 识别" if pages else ""
    return f"共 {chunks:,} 块{scans}，预计{duration_text(seconds)}" if chunks or pages else "没有需要向量化的新内容"


def confirmation_question(estimates: Sequence[Any]) -> str | None:
    """The question asked before a long ingest (any file above the engine's threshold) or one that changes who may
    read a document (`readers_change`), else None."""
    if not any(e.ok and (e.needs_confirmation or e.readers_change) for e in estimates):
        return None
    lines = [f"这次导入{estimate_text(estimates)}，期间可以随时取消（取消的文件不会写入任何内容）。"]
    lines += [f"{e.filename}：{e.readers_change}" for e in estimates if e.ok and e.readers_change]  # before it reaches them
    for e in estimates:
        if e.ok and not e.unchanged:
            skipped = f"；{e.ocr_skipped}" if e.ocr_skipped else ""
            lines.append(f"{e.filename}：{e.chunk_count:,} 块{_scans(e)}，{duration_text(e.seconds)}{skipped}")
        elif e.ok:
            lines.append(f"{e.filename}：与当前版本相同，无需重新向量化")
        else:
            lines.append(f"{e.filename}：将被拒绝（{e.error}）")
    return "\n".join(lines)


def duration_text(seconds: float) -> str:
    """约 40 秒 / 约 3 分钟 / 约 2.5 小时."""
    if seconds < 60:
        return f"约 {max(1, round(seconds))} 秒"
    if seconds < 3600:
        return f"约 {round(seconds / 60)} 分钟"
    return f"约 {seconds / 3600:.1f} 小时"


def ingest_uploads(
    assistant: Assistant,
    files: Sequence[tuple[str, bytes]],
    *,
    audience: Sequence[str] = ("all",),
    doc_id: str | None = None,
    effective_date: date | None = None,
    redact_disabled: Sequence[str] = (),
    progress: Progress | None = None,
    cancel: Any = None,
    on_report: Callable[[IngestReport], None] | None = None,
) -> list[IngestReport]:
    """Ingest (name, bytes) pairs one by one; overall progress spans all files.

    Kept free of widgets so tests can call it with the real facade (AppTest cannot
    drive st.file_uploader). `cancel` goes to the engine (checked between embedding
    batches); `on_report` sees each file's report as soon as it is done, so a batch
    interrupted part-way still shows the files it finished.
    """
    reports: list[IngestReport] = []
    total = max(1, len(files))
    names: dict[str, bytes] = {}
    for i, (name, data) in enumerate(files):
        shown = assistant.shown_name(name)  # personal data in a file name is never shown (the bar, a refusal)
        if names.get(name, data) != data:  # one name, other bytes: a second version replacing the first unseen
            reports.append(report := IngestReport(filename=shown, status="refused", audience=tuple(audience),
                                                  error=f"{shown}：{same_name_twice(shown)}"))
            if on_report is not None:
                on_report(report)
            continue

        def step(label: str, fraction: float, i: int = i, shown: str = shown) -> None:
            if progress is not None:
                progress(f"（{i + 1}/{total}）{shown}：{label}", min(1.0, (i + max(0.0, min(1.0, fraction))) / total))

        try:
            report = assistant.ingest_bytes(
                data,
                name,
                audience=tuple(audience),
                doc_id=doc_id or None,
                effective_date=effective_date.isoformat() if effective_date else None,
                redact_disabled=tuple(redact_disabled),
                progress=step,
                cancel=cancel,
                actor=actor(),
            )
        except Exception:  # the facade should not raise, but one file must never stop the batch
            LOG.exception("unexpected error importing %s", shown)
            report = IngestReport(filename=shown, status="refused", audience=tuple(audience), error=f"{shown}：{UNEXPECTED}")
        if report.status != "refused":  # a refused first copy leaves the name free, as the estimate said (387 #3)
            names.setdefault(name, data)
        reports.append(report)
        if on_report is not None:
            on_report(report)
        step("完成", 1.0)
    return reports


def reports_frame(reports: Sequence[IngestReport]) -> pd.DataFrame:
    """Per-file outcome in plain words: chunks, version, audience, redactions, or the error."""
    rows = []
    for r in reports:
        masked = {k: v for k, v in r.redactions.items() if v}
        notes = (
            [f"已脱敏：{'、'.join(f'{REDACTION_LABELS.get(k, k)} {v} 处' for k, v in masked.items())}"]
            if masked
            else []
        )
        notes += [r.error] if r.error else list(r.warnings)
        rows.append(
            {
                "文件": r.filename,
                "结果": STATUS_LABELS.get(r.status, r.status),
                "文档ID": r.doc_id,
                "版本": f"v{r.version}" if r.version else "—",
                "块数": r.chunk_count,
                "可见范围": audience_text(r.audience),
                "脱敏处数": sum(masked.values()),
                "说明": "；".join(notes),
            }
        )
    return pd.DataFrame(rows)


def _widths(**px: int) -> dict[str, st.column_config.Column]:
    return {name: st.column_config.Column(width=width) for name, width in px.items()}


# Column widths (px) that keep these tables inside the main column at 1280 px; long cells wrap (ui/tables.py).
DOCUMENT_COLUMNS = _widths(文档ID=110, 标题=150, 文件=115, 版本=45, 可见范围=75, 块数=45, 导入时间=125, 生效日期=85, 状态=60)
CHUNK_COLUMNS = _widths(版本=45, 生效日期=85, 序号=45, 章节=160, 页码=45, 字数=45, 重叠字数=65, 文本=400)
REPORT_COLUMNS = _widths(文件=140, 结果=90, 文档ID=110, 版本=45, 块数=45, 可见范围=75, 脱敏处数=60, 说明=240)


def documents_frame(docs: Sequence[DocumentInfo],
                    waiting: Mapping[str, Sequence[DocumentInfo]] | None = None) -> pd.DataFrame:
    """One row a document; `waiting`: the versions scheduled to replace the one in effect, in the order they take
    effect (`scheduled_versions`), said in 状态: a correction dated before a version still to come names both."""
    waiting = waiting or {}
    return pd.DataFrame(
        [
            {
                "文档ID": d.doc_id,
                "标题": d.title,
                "文件": d.source,
                "版本": d.version,
                "可见范围": audience_text(d.audience),
                "块数": d.chunk_count,
                "导入时间": local_time(d.ingested_at),
                "生效日期": d.effective_date or "—",
                "状态": DOC_STATUS_LABELS.get(d.status, d.status) + "".join(
                    f"；v{w.version} 将于 {w.effective_date} 生效" for w in waiting.get(d.doc_id, ()) if w.version != d.version),
            }
            for d in docs
        ]
    )
