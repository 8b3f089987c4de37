"""审计日志 — the append-only trail with filters and CSV export (administrators only)."""

from __future__ import annotations

from datetime import timedelta

import pandas as pd
import streamlit as st

from rag_core import Assistant, AuditEntry, RagError
from ui.inert import escape_md
from ui.layout import ensure_chrome
from ui.state import LOCAL_ADMIN, actor, get_assistant, person_name, role_name
from ui.timefmt import local_time, today, zone_caption
from ui.timefmt import zone as tz

_ACTION_NAMES, _OUTCOME_NAMES = Assistant.audit_names()  # the engine names every action it records
ACTIONS = {"": "全部", **_ACTION_NAMES}
OUTCOMES = {"": "全部", **_OUTCOME_NAMES}


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
    """The name the trail stores for what is typed: the table shows the desktop user as 本机用户 (stored as local)."""
    typed = typed.strip()
    return LOCAL_ADMIN.user if typed == person_name(LOCAL_ADMIN.user) else typed


def audit_csv(assistant: Assistant, frame: pd.DataFrame) -> bytes:
    """The export of what is shown, through the engine's formula guard (names and details are people's text)."""
    return assistant.table_csv(frame.to_dict("records"))


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
    try:
        rows = assistant.audit_entries(
            since=since, until=until, user=who or None,  # whole office days: the engine turns them into UTC
            action=action or None, outcome=outcome or None, actor=actor(),
        )
    except RagError as exc:  # refused, or audit.sqlite3 damaged (one line naming it)
        st.error(escape_md(exc))
        return
    frame = audit_frame(rows)
    st.markdown(f"共 **{len(rows)}** 条")
    st.caption(zone_caption())
    st.dataframe(frame, hide_index=True, use_container_width=True)
    st.download_button(
        "导出 CSV", audit_csv(assistant, frame), file_name=f"audit_{since}_{until}.csv",
        mime="text/csv", icon=":material/download:",
    )


main()
