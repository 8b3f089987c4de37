"""使用情况 — how often each policy was quoted (30/90 days), policies never quoted, questions per day."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from rag_core import RagError
from ui.inert import escape_md
from ui.layout import ensure_chrome, include_tests_box
from ui.state import actor, get_assistant
from ui.tables import chart_labels, labelled_bar_chart


def main() -> None:
    ensure_chrome()
    assistant = get_assistant()
    st.title("使用情况")
    tests = include_tests_box("usage_tests")
    try:
        report = assistant.usage(include_tests=tests, actor=actor())
        workbook = assistant.export_insights("usage", "xlsx", include_tests=tests, actor=actor())
    except RagError as exc:  # refused, or insights.sqlite3 damaged (one line naming it)
        st.error(escape_md(exc))
        return
    left_out = f"（另有 {report['left_out']} 个评测和检索测试的提问未计入）" if report.get("left_out") else ""
    st.caption(f"保留期内共 {report['questions']} 个提问{left_out}。")
    if report["outcome_rows"]:  # the engine's words and order (the CLI's `usage` prints the same)
        for col, row in zip(st.columns(len(report["outcome_rows"])), report["outcome_rows"]):
            col.metric(escape_md(row["label"]), row["questions"])
    if report["per_day"]:
        st.subheader("每日提问数")
        st.bar_chart(pd.DataFrame(report["per_day"]).set_index("day").rename(columns={"questions": "提问数"}))
    st.subheader("各文档被引用次数")
    docs = pd.DataFrame(report["documents"], columns=["title", "cited_30d", "cited_90d", "cited_total"])
    docs.columns = ["文档", "近30天", "近90天", "保留期内"]
    chart = pd.DataFrame({"文档": chart_labels(list(docs["文档"])), "近30天": docs["近30天"]})
    st.altair_chart(labelled_bar_chart(chart, "文档", "近30天"), width="stretch")
    st.dataframe(docs, hide_index=True, width="stretch", height="content")
    if not report.get("recording", True):  # an empty log is no evidence that a policy was never cited
        st.info("提问记录已关闭（设置里的提问记录保留天数为 0）：员工的提问不被记录，无法判断哪些文档从未被引用。",
                icon=":material/info:")
    elif not report["questions"]:
        st.info("保留期内还没有记录到提问：有了提问之后，这里才能列出从未被引用的文档。", icon=":material/info:")
    elif report["never_cited"]:
        st.subheader("从未被引用的文档")
        for doc in report["never_cited"]:
            st.markdown(f"- {escape_md(doc['title'])}")
    st.download_button("导出 Excel", workbook, file_name="usage.xlsx", icon=":material/download:")


main()
