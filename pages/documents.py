"""文档管理: upload policy files, see what each became, browse versions and chunks, delete.

Each file is ingested on its own, so a refused file is reported and never disturbs
the others or what was indexed before (the facade guarantees the latter).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pandas as pd
import streamlit as st

from rag_core import Assistant, DocumentInfo, IngestReport
from rag_core.errors import StoreDamaged
from rag_core.types import Chunk
from ui.doc_identity import ask_about_conflict, drop_conflict, forget_conflicts, remember_conflicts, still_asked
from ui.inert import escape_md
from ui.layout import ensure_chrome
from ui.notices import announce, show_notice
from ui.reading_view import render_reading
from ui.state import AUDIENCE_LABELS, actor, get_assistant
from ui.tables import WRAP_ROWS, WRAP_ROWS_TALL, full_text_picker
from ui.timefmt import zone_caption
from ui.uploads import (
    CHUNK_COLUMNS,
    DOCUMENT_COLUMNS,
    REDACTION_LABELS,
    REPORT_COLUMNS,
    confirmation_question,
    documents_frame,
    estimate_text,
    estimate_uploads,
    ingest_uploads,
    reports_frame,
    upload_limit_mb,
)
from ui.version_table import versions_frame

if TYPE_CHECKING:  # the facade's answer (`Assistant.delete_preview`)
    from rag_core import DeletePreview

REPORTS_KEY = "doc_ingest_reports"
PENDING_DELETE_KEY = "doc_pending_delete"
PENDING_UPLOAD_KEY = "doc_pending_upload"  # a long ingest waiting for 确认导入
DOC_ID_CHARS = 120  # as the engine's bound on a doc id (and a file name)
HELD_NAMED = 3  # the standard answers a delete holds, named by their questions; more are counted
RUNNING_KEY = "doc_ingest_running"  # the batch being imported; still set on the next run when it was cut short
DONE_KEY = "doc_ingest_done"  # how many of its files were finished


# the upload box's own words (Upload, 20MB per file) are the browser component's English, which Streamlit does not translate
UPLOAD_HINT = "把文件拖进下面的框里，或点框里的“Upload”（上传）选择文件；每个文件不超过 {limit} MB。"


def upload_section(assistant: Assistant) -> None:
    st.subheader("上传制度文件")
    limit = upload_limit_mb(assistant.settings.max_file_bytes)
    with st.form("upload_form", clear_on_submit=True):
        st.caption(UPLOAD_HINT.format(limit=f"{min(assistant.settings.max_file_bytes / 2**20, limit):g}") + (
            f"（系统允许导入更大的文件，但网页上传上限是 {limit} MB：更大的文件请管理员用命令行 python -m rag_core ingest 导入，"
            "或调大 .streamlit/config.toml 的 maxUploadSize）" if assistant.settings.max_file_bytes > limit * 2**20 else ""))
        files = st.file_uploader(
            "选择文件（可多选：txt、md、docx、pdf、html、xlsx、csv、png、jpg；扫描件自动 OCR）",
            accept_multiple_files=True,
            max_upload_size=limit,
            help="无法读取的文件（损坏、加密、为空、格式不支持、超过大小上限）会被拒绝并说明原因，不影响其他文件。",
        )
        audience = st.multiselect(
            "可见范围",
            options=list(AUDIENCE_LABELS),
            default=["all"],
            format_func=AUDIENCE_LABELS.__getitem__,
            placeholder="请选择",
            select_all=False,  # Streamlit's own "Select all" is English
            help="谁能查到这份制度。要修改已上传文档的可见范围，请用新的可见范围重新上传同一个文件（生成新版本，旧版本可在版本历史里查看）。",
        )
        redact_off = st.multiselect(
            "不脱敏的信息类别（可选）",
            options=list(REDACTION_LABELS),
            format_func=REDACTION_LABELS.__getitem__,
            placeholder="默认全部脱敏",
            select_all=False,
            help="默认会把邮箱、身份证号、银行卡号、手机号、座机号替换成占位符；只有内容本身需要这些信息时才取消。",
        )
        left, right = st.columns(2)
        doc_id = left.text_input(
            "文档ID（可选）", max_chars=DOC_ID_CHARS, help="留空则按文件名识别；同一文档再次上传会生成新版本。只在上传单个文件时使用。"
        )
        effective = right.date_input("生效日期（可选）", value=None, format="YYYY-MM-DD")
        submitted = st.form_submit_button("开始导入", type="primary", icon=":material/upload:")
    interrupted()
    if submitted:
        if not files:
            st.warning("请先选择要上传的文件。")
            return
        if not audience:  # never widened to 全体员工: HR may have removed it to pick 管理者 and forgotten that
            st.warning("请选择可见范围：没有选择任何受众，未导入任何文件。需要所有员工都能看到时，请选择“全体员工”，然后重新选择文件导入。")
            return
        if doc_id.strip() and len(files) > 1:
            st.warning("一次上传多个文件时不能共用一个文档ID，已忽略文档ID。")
            doc_id = ""
        batch = {
            "files": [(f.name, f.getvalue()) for f in files], "audience": audience,
            "doc_id": doc_id.strip() or None, "effective_date": effective, "redact_disabled": redact_off,
        }
        st.session_state.pop(PENDING_UPLOAD_KEY, None)  # a new batch: an unanswered question about the last goes
        if not start_batch(assistant, batch):
            return
    pending = st.session_state.get(PENDING_UPLOAD_KEY)
    if not pending:
        return
    asked = st.empty()  # the question and its buttons go once confirmed: the import's bar and 取消导入 take over
    with asked.container():
        # file names and reasons are the uploader's text: each line inert, one per line
        st.warning("  \n".join(escape_md(line) for line in pending["question"].splitlines()))
        go, drop = st.columns(2)
    if go.button("确认导入", type="primary", key="confirm_upload", icon=":material/upload:"):
        st.session_state.pop(PENDING_UPLOAD_KEY, None)
        asked.empty()
        batch = {k: v for k, v in pending.items() if k not in ("question", "summary", "into")}
        run_batch(assistant, batch, pending["summary"], pending.get("into"))
    elif drop.button("放弃这次导入", key="drop_upload"):
        st.session_state.pop(PENDING_UPLOAD_KEY, None)
        announce("documents", "已放弃这次导入，没有写入任何内容。")
        st.rerun()


def start_batch(assistant: Assistant, batch: dict, into: int | None = None) -> bool:
    """Estimate the batch, then import it at once, or keep it for 确认导入 when it is long or changes who may read a
    document (True: the question is waiting). `into`: the position in the last batch's report of the refused file
    this batch of one imports as a new version (`ui.doc_identity`)."""
    with st.spinner("正在解析文件、估算导入时间…"):
        estimates = estimate_uploads(assistant, **batch)
    question = confirmation_question(estimates)
    if question is None:
        run_batch(assistant, batch, estimate_text(estimates), into)
        return False
    st.session_state[PENDING_UPLOAD_KEY] = {**batch, "question": question, "summary": estimate_text(estimates), "into": into}
    return True


def import_as_new_version(assistant: Assistant) -> Callable[[dict, int], None]:
    """What 是新版本 does with its file: the page's own upload path, then a rerun that shows the question at the top
    or the new report."""
    def start(batch: dict, position: int) -> None:
        start_batch(assistant, batch, into=position)
        st.rerun()
    return start


def run_batch(assistant: Assistant, batch: dict, summary: str, into: int | None = None) -> None:
    """Ingest with a progress bar and a cancel button.

    Clicking 取消导入 makes Streamlit stop this run at its next progress update (between two
    embedding batches); the engine then removes the half-written version, so the file being
    imported leaves nothing behind. Finished files stay; the next run says what happened. The button is drawn in
    a slot emptied when the batch ends: it stayed on the page, doing nothing, until the next rerun.
    """
    cancel = st.empty()
    cancel.button("取消导入", key="cancel_upload", icon=":material/cancel:",
                  help="正在导入的文件会在当前这一批向量化结束后停止，不写入任何内容；已完成的文件保留。")
    bar = st.progress(0.0, text=f"准备导入：{summary}")
    # a new version of one refused file of the batch shown (`into`) leaves that batch's report and its other
    # questions as they are, also when it is cut short (review 352); a position no longer asked about starts afresh
    splice = into is not None and still_asked(into) and into < len(st.session_state.get(REPORTS_KEY) or [])
    if not splice:
        st.session_state[REPORTS_KEY] = []
        forget_conflicts()
    st.session_state[RUNNING_KEY] = [assistant.shown_name(name) for name, _ in batch["files"]]  # masked, as shown
    st.session_state[DONE_KEY] = 0

    def finished(report: IngestReport) -> None:
        st.session_state[DONE_KEY] += 1
        if not splice:
            st.session_state[REPORTS_KEY].append(report)

    reports = ingest_uploads(
        assistant, batch["files"], audience=batch["audience"], doc_id=batch["doc_id"],
        effective_date=batch["effective_date"], redact_disabled=batch["redact_disabled"],
        progress=lambda label, fraction: bar.progress(fraction, text=escape_md(label)), on_report=finished,
    )
    cancel.empty()
    st.session_state.pop(RUNNING_KEY, None)
    bar.progress(1.0, text="导入结束")
    if splice and into is not None and len(reports) == 1:
        st.session_state[REPORTS_KEY] = [*st.session_state[REPORTS_KEY][:into], *reports,
                                         *st.session_state[REPORTS_KEY][into + 1:]]
        drop_conflict(into)
        return
    st.session_state[REPORTS_KEY] = reports
    remember_conflicts(
        batch["files"], reports, audience=batch["audience"], effective_date=batch["effective_date"],
        redact_disabled=batch["redact_disabled"],
    )


def interrupted() -> None:
    """A batch that did not reach its end (取消导入, or the page left mid-way): say which files were not imported."""
    names = st.session_state.pop(RUNNING_KEY, None)
    if not names:
        return
    done = st.session_state.pop(DONE_KEY, 0)  # files are imported in order
    if left := names[done:]:
        how = "已取消" if st.session_state.get("cancel_upload") else "被中断"
        st.info(escape_md(f"导入{how}：{'、'.join(left)} 没有导入，也没有写入任何内容；已完成的 {done} 个文件保留。"))


def report_section(assistant: Assistant) -> None:
    reports: list[IngestReport] = st.session_state.get(REPORTS_KEY) or []
    if not reports:
        return
    ok = sum(r.ok for r in reports)
    st.markdown(f"**本次导入：** {len(reports)} 个文件，成功 {ok} 个，拒绝 {len(reports) - ok} 个。")
    frame = reports_frame(reports)
    st.dataframe(frame, hide_index=True, width="stretch", column_config=REPORT_COLUMNS, row_height=WRAP_ROWS_TALL)
    if frame["说明"].astype(str).str.len().max() > REPORT_NOTE_SHOWN:
        full_text_picker(frame, ["文件"], ["结果", "说明"], key="report_full_text", label="查看某个文件的完整说明")
    for position, r in enumerate(reports):  # a report's position is its file's in the batch
        for warning in r.warnings if r.ok else ():  # a narrower audience, a version it will replace: not in a cell only
            st.warning(escape_md(f"{r.filename}：{warning}"))
        if not r.ok:
            st.error(escape_md(r.error or f"{r.filename}：导入失败"))
            ask_about_conflict(assistant, position, r, import_as_new_version(assistant))
        elif r.reading is not None:  # how the file was read, and this upload's chunks as the index sees them
            chunks = assistant.document_chunks(r.doc_id, actor=actor())
            render_reading(r, [c for c in chunks if c.version == r.version])  # not the version it replaces


REPORT_NOTE_SHOWN = 60  # about what five wrapped lines of the 说明 column hold

def version_history(assistant: Assistant, doc: DocumentInfo) -> None:
    try:
        changes = assistant.document_changes(doc.doc_id, actor=actor())
    except StoreDamaged as exc:  # document_history.sqlite3 damaged: the rest of the page still works
        st.warning(escape_md(exc), icon=":material/build:")
        return
    st.dataframe(versions_frame(changes), hide_index=True, width="stretch", height="content")
    st.caption(zone_caption() + "“当前”是问答此刻检索的版本。")
    for change in changes:
        if change.diff:
            st.markdown(f"**v{change.version} 相对上一版的改动**（- 删去，+ 新增）")
            st.code("\n".join(change.diff), language="diff", wrap_lines=True)
    whole_version(assistant, doc, [c.version for c in changes if c.known])


def whole_version(assistant: Assistant, doc: DocumentInfo, kept: list[int]) -> None:
    """One recorded version read whole (a retired one too: review 384 #5); to restore it, upload its file again."""
    if not kept:
        return
    # built only while open (review 387 #8: every rerun of the page sent the newest version's whole text)
    with st.expander("查看某一版的全文", icon=":material/article:", key=f"whole_open_{doc.doc_id}",
                     on_change="rerun") as panel:
        if not panel.open:
            return
        version = st.selectbox("版本", kept, format_func=lambda v: f"v{v}", key=f"whole_{doc.doc_id}")
        texts = assistant.version_text(doc.doc_id, version, actor=actor()) or []
        st.caption(f"v{version} 共 {len(texts)} 段（相邻两段可能有少量重叠的文字）。要恢复这一版，请重新上传它的原文件，"
                   "会生成一个新版本。")
        for number, text in enumerate(texts, 1):
            st.text(f"【第 {number} 段】\n{text}")


def delete_question(doc: DocumentInfo, live: list[DocumentInfo], shown: list[Chunk],
                    preview: DeletePreview | None = None) -> str:
    """What 确认删除 removes: every live version's chunks (the in-effect one's alone undercounted), the scheduled
    versions that will then never take effect, the version history, and the standard answers it holds (`preview`:
    the facade's, only the answers the actor may read). `shown`: the chunks of the versions that take effect."""
    total = sum(v.chunk_count for v in live) or doc.chunk_count
    waiting = sorted({c.version for c in shown} - (set() if doc.status == "scheduled" else {doc.version}))
    dates = {v.version: v.effective_date or "—" for v in live}
    question = f"确定删除《{escape_md(doc.title)}》吗？它的全部版本共 {total} 块都会删除"
    if waiting:
        question += "，包括尚未生效的 " + "、".join(f"v{n}（原定 {dates.get(n, '—')} 生效）" for n in waiting)
        question += "，它们到期也不会再生效"
    question += "。版本历史也会一并删除，无法恢复。"
    if preview is not None and preview.held:
        question += f"{held_line(preview)}将暂停使用，需要到“标准答复”页复核后恢复或删除。"
    return question + "删除后这份制度将不再被检索到。"


def held_line(preview: DeletePreview) -> str:
    """N 条依据它的标准答复（“问题”、…）: the questions are HR's text, inert; a long list names the first few."""
    named = "、".join(f"“{escape_md(q)}”" for q in preview.held[:HELD_NAMED])
    more = "等" if len(preview.held) > HELD_NAMED else ""
    return f"{len(preview.held)} 条依据它的标准答复（{named}{more}）"


def deleted_notice(doc: DocumentInfo, removed: int, preview: DeletePreview | None) -> str:
    notice = f"已删除《{escape_md(doc.title)}》（{escape_md(doc.doc_id)}），共 {removed} 块，连同版本历史，它不会再被检索到。"
    if preview is not None and preview.held:
        notice += f"{held_line(preview)}已暂停使用，请到“标准答复”页复核后恢复或删除。"
    return notice


def document_detail(assistant: Assistant, doc: DocumentInfo) -> None:
    """Version history, chunk preview and delete-with-confirmation for one document."""
    st.markdown(f"#### {escape_md(doc.title)}（{escape_md(doc.doc_id)}）")
    with st.expander("版本历史", icon=":material/history:", expanded=True):
        version_history(assistant, doc)
    chunks = assistant.document_chunks(doc.doc_id, actor=actor())  # the version in effect and scheduled ones
    dates = {v.version: v.effective_date for v in assistant.document_versions(doc.doc_id, actor=actor())}
    with st.expander(f"分块预览（{len(chunks)} 块）", icon=":material/view_agenda:"):
        frame = pd.DataFrame(
            [
                {
                    "版本": f"v{c.version}",
                    "生效日期": dates.get(c.version) or "—",
                    "序号": c.index,
                    "章节": c.section,
                    "页码": c.page or "—",
                    "字数": len(c.text),
                    "重叠字数": c.overlap_chars,
                    "文本": c.text,
                }
                for c in chunks
            ]
        )
        st.dataframe(frame, hide_index=True, width="stretch", row_height=WRAP_ROWS_TALL,
                     column_config=CHUNK_COLUMNS)
        full_text_picker(frame, ["版本", "序号", "章节"], ["章节", "文本"], key=f"chunk_full_text_{doc.doc_id}",
                         label="查看某一块的全文")
    pending = st.session_state.get(PENDING_DELETE_KEY)
    if pending != doc.doc_id:
        if st.button("删除此文档", icon=":material/delete:", key=f"delete_{doc.doc_id}"):
            st.session_state[PENDING_DELETE_KEY] = doc.doc_id
            st.rerun()
        return
    live = [v for v in assistant.document_versions(doc.doc_id, actor=actor()) if v.status == "current"]
    st.warning(delete_question(doc, live, chunks, assistant.delete_preview(doc.doc_id, actor=actor())))
    yes, no = st.columns(2)
    if yes.button("确认删除", type="primary", key="confirm_delete"):
        try:
            preview = assistant.delete_preview(doc.doc_id, actor=actor())  # as the library is now, just before
            removed = assistant.delete_document(doc.doc_id, actor=actor())
        except Exception as exc:  # nothing was deleted; say why
            st.error(f"删除失败：{escape_md(exc)}")
            return
        st.session_state.pop(PENDING_DELETE_KEY, None)
        announce("documents", deleted_notice(doc, removed, preview))
        st.rerun()
    if no.button("取消", key="cancel_delete"):
        st.session_state.pop(PENDING_DELETE_KEY, None)
        st.rerun()


def main() -> None:
    ensure_chrome()
    assistant = get_assistant()
    st.title("文档管理")
    show_notice("documents")
    upload_section(assistant)
    report_section(assistant)
    st.divider()
    docs = assistant.list_documents(actor=actor())
    st.subheader(f"已索引的文档（{len(docs)} 份）")
    if not docs:
        st.info("还没有索引任何文档。")
        return
    st.dataframe(documents_frame(docs, assistant.scheduled_versions(actor=actor())), hide_index=True, width="stretch", column_config=DOCUMENT_COLUMNS,
                 row_height=WRAP_ROWS, height="content")  # long titles wrap; the whole title also heads the chosen document below
    by_id = {d.doc_id: d for d in docs}
    chosen = st.selectbox(
        "查看文档", options=list(by_id), format_func=lambda d: f"{by_id[d].title}（{d}，v{by_id[d].version}）"
    )
    if chosen:
        document_detail(assistant, by_id[chosen])


main()
