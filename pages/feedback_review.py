"""反馈审阅 — 👍/👎 with the reason given, newest first; the full trace one click away; mark reviewed."""

from __future__ import annotations

from datetime import timedelta

import streamlit as st

from rag_core import RagError
from ui.downloads import built_on_click
from ui.inert import escape_md
from ui.layout import ensure_chrome, include_tests_box
from ui.state import actor, get_assistant, person_name
from ui.timefmt import local_time, localized, today
from ui.trace_view import render_trace_numbers

RATINGS = {"all": "全部", "down": "👎", "up": "👍"}


def main() -> None:
    ensure_chrome()
    assistant = get_assistant()
    st.title("反馈审阅")
    st.caption("员工对回答的评价。👎 可能带有原因（答非所问 / 回答不完整 / 信息过时 / 引用不对 / 其他）；看过的标为已读。")
    col1, col2, col3, col4 = st.columns(4)
    rating = col1.selectbox("评价", list(RATINGS), format_func=RATINGS.__getitem__, index=1, key="fb_rating")
    docs = {d.doc_id: d.title for d in assistant.list_documents(actor=actor())}
    doc = col2.selectbox("引用的文档", ["", *docs], format_func=lambda d: docs.get(d, "全部"), key="fb_doc")
    since = col3.date_input("起始日期", value=today() - timedelta(days=30), key="fb_since")
    until = col4.date_input("截止日期（含）", value=today(), key="fb_until")
    unread_only = st.toggle("只看未读", value=False, key="fb_unread")
    tests = include_tests_box("fb_tests")
    filtered_rating = {"all": None, "down": -1, "up": 1}[rating]
    try:
        entries = assistant.feedback_reviews(
            rating=filtered_rating, doc_id=doc or None, since=since, until=until,
            unread_only=unread_only, include_tests=tests, actor=actor(),
        )
    except RagError as exc:
        st.error(escape_md(exc))
        return
    try:
        standard = assistant.feedback_standard_answers([e.id for e in entries], actor=actor())
    except RagError:
        standard = {}  # the rows are still shown; only which standard answer they rated is missing
    unread = sum(e.unread for e in entries)
    st.markdown(f"共 **{len(entries)}** 条，未读 **{unread}** 条")
    for entry in entries:
        mark = "🔵 未读" if entry.unread else "已读"
        thumb = "👍" if entry.rating > 0 else "👎"
        reason = f" · {entry.reason}" if entry.reason else ""
        with st.expander(f"{mark} · {thumb}{escape_md(reason)} · {escape_md(entry.question)}"):
            st.caption(local_time(entry.created_at) + (f" · {escape_md(person_name(entry.user))}" if entry.user else ""))
            if entry.comment:
                st.markdown(f"**补充说明**：{escape_md(entry.comment)}")
            if used := standard.get(entry.id):
                st.info(f"这是标准答复 编号 {escape_md(used['id'])}（{escape_md(person_name(used['author']))}）的回答，"
                        "不是检索出来的：要改它，请到“标准答复”页找到这个编号。", icon=":material/verified:")
            st.markdown("**回答**")
            st.text(entry.answer)
            if entry.docs:
                st.caption("引用：" + escape_md("、".join(docs.get(d, d) for d in entry.docs)))
            if st.toggle("查看完整依据", key=f"fb_trace_{entry.id}"):
                try:  # the view chat's 技术细节 shows, in Chinese; the stored record itself one click further
                    render_trace_numbers(assistant.feedback_trace(entry.id, actor=actor()), entry.created_at)
                    with st.expander("原始记录（JSON，供技术人员排查）"):
                        st.json(localized(assistant.feedback_detail(entry.id, actor=actor()).trace), expanded=False)
                except RagError as exc:  # changed since the list was read (a document narrowed, the row expired)
                    st.error(escape_md(exc))
            if entry.unread:
                if st.button("标为已读", key=f"fb_read_{entry.id}", icon=":material/done:"):
                    assistant.mark_feedback_reviewed([entry.id], actor=actor())
                    st.rerun()
            elif st.button("标为未读", key=f"fb_unread_{entry.id}"):
                assistant.mark_feedback_reviewed([entry.id], reviewed=False, actor=actor())
                st.rerun()
    built_on_click("导出 Excel", lambda: assistant.export_insights(  # built on the click, not at every click (364)
        "feedback", "xlsx", since=since, until=until, include_tests=tests, rating=filtered_rating, doc_id=doc or None,
        unread_only=unread_only, actor=actor()), f"feedback_{since}_{until}.xlsx", key="feedback_export")


main()
