"""标准答复 — HR's authoritative answers to recurring questions: add, list with hit counts, delete."""

from __future__ import annotations

import streamlit as st

from rag_core import RagError
from ui.inert import escape_md, inert_markdown
from ui.layout import ensure_chrome
from ui.state import AUDIENCE_LABELS, actor, get_assistant
from ui.timefmt import local_time


def main() -> None:
    ensure_chrome()
    assistant = get_assistant()
    st.title("标准答复")
    st.caption("同样意思的问题（意思相近且用词一致）直接用这里的答复回答，并标明“标准答复”、作者、日期和依据条款。"
               "意思不同的问题不会被它回答。")
    with st.form("add_standard", clear_on_submit=True):
        question = st.text_input("问题")
        answer = st.text_area("标准答复")
        clauses = st.text_area("依据的条款（可选，每行一条）")
        variants = st.text_area("其他问法（可选，每行一条）")
        audience = st.multiselect("受众（谁问时用这条答复）", assistant.standard_audiences(actor=actor()),
                                  default=["all"], format_func=lambda a: AUDIENCE_LABELS.get(a, a), placeholder="请选择",
                                  select_all=False)
        if st.form_submit_button("添加", icon=":material/add:"):
            try:
                entry = assistant.add_standard_answer(question, answer, clauses=clauses.splitlines(),
                                                      variants=variants.splitlines(), audience=audience or ["all"],
                                                      actor=actor())
            except RagError as exc:
                st.error(escape_md(exc))
            else:
                st.success(f"已添加标准答复 {escape_md(entry.id)}")
    entries = assistant.standard_answers(actor=actor())
    st.markdown(f"共 **{len(entries)}** 条")
    for entry in entries:
        with st.expander(f"{escape_md(entry.question)} · 命中 {entry.hits} 次"):
            st.markdown(inert_markdown(entry.answer))
            if entry.clauses:
                st.caption("依据：" + escape_md("；".join(entry.clauses)))
            if entry.variants:
                st.caption("其他问法：" + escape_md("；".join(entry.variants)))
            last = f"，最近命中 {local_time(entry.last_hit_at)}" if entry.last_hit_at else ""
            st.caption("受众：" + escape_md("、".join(AUDIENCE_LABELS.get(a, a) for a in entry.audience)))
            st.caption(f"{escape_md(entry.author)} · {local_time(entry.created_at)}{last} · 编号 {escape_md(entry.id)}")
            if st.button("删除", key=f"delete_standard_{entry.id}", icon=":material/delete:"):
                assistant.delete_standard_answer(entry.id, actor=actor())
                st.rerun()


main()
