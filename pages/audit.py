"""审计日志 — the append-only trail with filters and CSV export (administrators only).

A busy office writes 100,000 rows a month: the page shows one page of `PAGE` rows (newest first) with the
count the engine returns, and builds the CSV only when asked, capped at `CSV_CAP` rows. Loading, framing
and encoding the whole window on every rerun took seconds per click."""

from __future__ import annotations

from datetime import timedelta

import pandas as pd
import streamlit as st

from rag_core import Assistant, AuditEntry, RagError
from ui.inert import escape_md
from ui.layout import ensure_chrome
from ui.state import ENGINE_NAMES, actor, get_assistant, person_name, role_name
from ui.timefmt import local_time, today, zone_caption
from ui.timefmt import zone as tz

_ACTION_NAMES, _OUTCOME_NAMES = Assistant.audit_names()  # the engine names every action it records
ACTIONS = {"": "全部", **_ACTION_NAMES}
OUTCOMES = {"": "全部", **_OUTCOME_NAMES}
PAGE = 1_000  # rows on one page
CSV_CAP = 10_000  # rows in one export (the newest); a longer window is exported in parts
_PAGE_KEY, _FILTERS_KEY = "audit_page", "audit_page_filters"


def audit_frame(rows: list[AuditEntry]) -> pd.DataFrame:
    """The rows as HR reads them: local time, 本机用户, 管理员 / HR / 员工 (the CSV export is this frame too)."""
    zone = tz()
    return pd.DataFrame(
        [
            {"时间": local_time(r.at, tz=zone, fmt="%Y-%m-%d %H:%M:%S"), "操作人": person_name(r.actor),
             "角色": role_name(r.role), "操作": ACTIONS.get(r.action, r.action), "对象": r.target,
             "结果": OUTCOMES.get(r.outcome, r.outcome), "说明": r.detail}
            for r in rows
        ],
        columns=["时间", "操作人", "角色", "操作", "对象", "结果", "说明"],
    )


def stored_actor(typed: str) -> str:
    """The name the trail stores for what is typed: the table shows the desktop user as 本机用户 (stored as local)
    and the samples' import as 系统（示例制度导入） (stored as system), which 系统 alone finds too (review 213)."""
    typed = typed.strip()
    return next((user for user, shown in ENGINE_NAMES.items() if typed == shown or typed == shown.split("（")[0]),
                typed)


def audit_csv(assistant: Assistant, frame: pd.DataFrame) -> bytes:
    """The export of what is shown, through the engine's formula guard (names and details are people's text)."""
    return assistant.table_csv(frame.to_dict("records"))


def page_number(filters: dict) -> int:
    """The page asked for (0 is the newest); back to the first whenever a filter changes."""
    key = repr(sorted(filters.items()))
    if st.session_state.get(_FILTERS_KEY) != key:
        st.session_state[_FILTERS_KEY], st.session_state[_PAGE_KEY] = key, 0
    return int(st.session_state.get(_PAGE_KEY, 0))


def _turn(step: int) -> None:
    st.session_state[_PAGE_KEY] = max(int(st.session_state.get(_PAGE_KEY, 0)) + step, 0)


def read_page(assistant: Assistant, filters: dict, page: int) -> tuple[list[AuditEntry], int]:
    """The rows of one page and how many rows the filters match in all (the engine counts them)."""
    rows = assistant.audit_entries(**filters, limit=PAGE, offset=page * PAGE, actor=actor())
    return list(rows), int(getattr(rows, "total", len(rows)))  # the trail's rows carry their total


def pager(page: int, pages: int) -> None:
    """上一页 / 下一页 and where the reader is; nothing when everything fits on one page."""
    if pages <= 1:
        return
    back, where, forward = st.columns([1, 3, 1])
    back.button("上一页", on_click=_turn, args=(-1,), disabled=page == 0, key="audit_back")
    where.caption(f"第 {page + 1} / {pages} 页，每页 {PAGE:,} 条，最新的在前")
    forward.button("下一页", on_click=_turn, args=(1,), disabled=page >= pages - 1, key="audit_forward")


def export(assistant: Assistant, filters: dict, total: int, name: str) -> None:
    """Build the CSV only when asked: the newest `CSV_CAP` rows the filters match."""
    if total > CSV_CAP:
        st.caption(f"一次最多导出最新的 {CSV_CAP:,} 条；要导出全部 {total:,} 条，请缩小日期范围或按操作、结果、操作人筛选后分次导出。")
    if not st.button(f"生成 CSV（最多 {CSV_CAP:,} 条）", icon=":material/table:", key="audit_csv"):
        return
    rows = assistant.audit_entries(**filters, limit=CSV_CAP, actor=actor())
    st.download_button(
        f"下载 CSV（{len(rows):,} 条）", audit_csv(assistant, audit_frame(rows)), file_name=name,
        mime="text/csv", icon=":material/download:", on_click="ignore",
    )


def main() -> None:
    ensure_chrome()
    assistant = get_assistant()
    st.title("审计日志")
    st.caption("只追加、不可修改：登录（含失败与锁定）、上传、删除、版本、设置、记忆删除、账户变更、被拒绝的操作。提问内容不记录在这里。")
    col1, col2, col3, col4 = st.columns(4)
    since = col1.date_input("起始日期", value=today() - timedelta(days=30))
    until = col2.date_input("截止日期（含）", value=today())
    action = col3.selectbox("操作", list(ACTIONS), format_func=ACTIONS.__getitem__)
    outcome = col4.selectbox("结果", list(OUTCOMES), format_func=OUTCOMES.__getitem__)
    who = stored_actor(st.text_input("操作人（留空为全部）"))
    # whole office days: the engine turns them into UTC
    filters = {"since": since, "until": until, "user": who or None, "action": action or None, "outcome": outcome or None}
    page = page_number(filters)
    try:
        rows, total = read_page(assistant, filters, page)
        pages = max(-(-total // PAGE), 1)
        if page >= pages:  # the trail got shorter than the page asked for (another filter, another day)
            page = st.session_state[_PAGE_KEY] = pages - 1
            rows, total = read_page(assistant, filters, page)
    except RagError as exc:  # refused, or audit.sqlite3 damaged (one line naming it)
        st.error(escape_md(exc))
        return
    st.markdown(f"共 **{total}** 条")
    st.caption(zone_caption())
    pager(page, pages)
    st.dataframe(audit_frame(rows), hide_index=True, width="stretch", height="content")  # one page of rows, read with the page
    export(assistant, filters, total, f"audit_{since}_{until}.csv")


main()
