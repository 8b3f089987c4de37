"""标准答复 — HR's authoritative answers to recurring questions: add, list with hit counts, delete."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from rag_core import Assistant, RagError
from ui.inert import escape_md, inert_markdown
from ui.layout import ensure_chrome
from ui.notices import announce, show_notice
from ui.state import AUDIENCE_LABELS, actor, get_assistant, person_name
from ui.timefmt import local_time

FIELDS = {"question": "standard_question", "answer": "standard_answer", "clauses": "standard_clauses",
          "variants": "standard_variants"}
AUDIENCE_KEY = "standard_audience"
ERROR_KEY = "standard_add_error"
DELETE_PENDING_KEY = "standard_delete_pending"
RELEASE_ERROR_KEY = "standard_release_error"


def add_entry(assistant: Assistant) -> None:
    """添加 callback: a refusal keeps every field as typed, with the reason; an added answer clears them."""
    typed = {name: st.session_state.get(key) or "" for name, key in FIELDS.items()}
    try:
        entry = assistant.add_standard_answer(typed["question"], typed["answer"], clauses=typed["clauses"].splitlines(),
                                              variants=typed["variants"].splitlines(),
                                              audience=st.session_state.get(AUDIENCE_KEY), actor=actor())
    except RagError as exc:
        st.session_state[ERROR_KEY] = str(exc)
        return
    for key in FIELDS.values():
        st.session_state[key] = ""
    try:
        advice = assistant.standard_answer_advice(typed["clauses"].splitlines(), entry.answer, actor=actor())
    except RagError:
        advice = ""  # the answer is added; only the advice is missing
    tail = f"。{escape_md(advice)}" if advice else ""
    announce("standard_answers", f"已添加标准答复：“{escape_md(entry.question)}”{tail}")  # not its id (review 376 #5)


def add_section(assistant: Assistant, audiences: list[str]) -> None:
    with st.container(border=True):
        st.text_input("问题", key=FIELDS["question"])
        st.text_area("标准答复", key=FIELDS["answer"])
        st.text_area("依据的条款（可选，每行一条）", key=FIELDS["clauses"],
                     help="写明文档名，例如《考勤与休假管理制度》第五条：这份文档删除后，这条答复会暂停使用，等你复核")
        st.text_area("其他问法（可选，每行一条）", key=FIELDS["variants"])
        st.multiselect("受众（谁问时用这条答复）", audiences, default=["all"], key=AUDIENCE_KEY,
                       format_func=lambda a: AUDIENCE_LABELS.get(a, a), placeholder="请选择", select_all=False)
        st.button("添加", icon=":material/add:", on_click=add_entry, args=(assistant,))
        if error := st.session_state.pop(ERROR_KEY, None):
            st.error(escape_md(error))


def delete_buttons(assistant: Assistant, entry) -> None:
    """删除 asks first: a standard answer serves every matching question, and it cannot be restored."""
    if st.session_state.get(DELETE_PENDING_KEY) != entry.id:
        if st.button("删除", key=f"delete_standard_{entry.id}", icon=":material/delete:"):
            st.session_state[DELETE_PENDING_KEY] = entry.id
            st.rerun()
        return
    st.warning("删除后，这类问题不再用这条标准答复回答，而是按制度检索回答；删除无法恢复。")
    yes, no = st.columns(2)
    if yes.button("确认删除", type="primary", key=f"delete_standard_yes_{entry.id}"):
        st.session_state.pop(DELETE_PENDING_KEY, None)
        carry_out(lambda: assistant.delete_standard_answer(entry.id, actor=actor()),
                  f"已删除标准答复：{escape_md(entry.question)}")
    if no.button("取消", key=f"delete_standard_no_{entry.id}"):
        st.session_state.pop(DELETE_PENDING_KEY, None)
        st.rerun()


def release_button(assistant: Assistant, entry, why: str) -> None:
    """A held answer: why it is not served, and 恢复使用 once HR has checked it (删除 stays below)."""
    st.warning(escape_md(why))
    st.button("复核无误，恢复使用", key=f"release_standard_{entry.id}", icon=":material/check:",
              on_click=release_entry, args=(assistant, entry.id, entry.question, why))
    if error := st.session_state.get(RELEASE_ERROR_KEY, {}).pop(entry.id, None):
        st.error(escape_md(error))


def release_entry(assistant: Assistant, answer_id: str, question: str, why: str) -> None:
    """恢复使用 callback: `why` is the line HR read when the page was drawn (a callback keeps the clicked run's
    arguments), so a reason that arrived since makes the engine refuse instead of releasing it unread."""
    try:
        assistant.release_standard_answer(answer_id, seen=why, actor=actor())
    except RagError as exc:
        st.session_state.setdefault(RELEASE_ERROR_KEY, {})[answer_id] = str(exc)
        return
    announce("standard_answers", f"已恢复使用标准答复：{escape_md(question)}")


def carry_out(action: Callable[[], object], done: str) -> None:
    """Run an action on one answer: its refusal in one line, or the success line shown after the rerun."""
    try:
        action()
    except RagError as exc:
        st.error(escape_md(exc))
        return
    announce("standard_answers", done)
    st.rerun()


def main() -> None:
    ensure_chrome()
    assistant = get_assistant()
    st.title("标准答复")
    st.caption("同样意思的问题（意思相近且用词一致）直接用这里的答复回答，并标明“标准答复”、作者、日期和依据条款。"
               "意思不同的问题不会被它回答。")
    show_notice("standard_answers")
    try:
        audiences = assistant.standard_audiences(actor=actor())
        entries = assistant.standard_answers(actor=actor())
        holds = assistant.standard_answer_holds(actor=actor())
    except RagError as exc:  # refused, or standard_answers.sqlite3 damaged (one line naming it)
        st.error(escape_md(exc))
        return
    add_section(assistant, audiences)
    st.markdown(f"共 **{len(entries)}** 条" + (f"，其中 **{len(holds)}** 条待复核（暂停使用）" if holds else ""))
    for entry in entries:
        held = "【待复核】" if entry.id in holds else ""
        with st.expander(f"{held}{escape_md(entry.question)} · 命中 {entry.hits} 次",
                         expanded=st.session_state.get(DELETE_PENDING_KEY) == entry.id):
            if entry.id in holds:
                release_button(assistant, entry, holds[entry.id])
            st.markdown(inert_markdown(entry.answer))
            if entry.clauses:
                st.caption("依据：" + escape_md("；".join(entry.clauses)))
            if entry.variants:
                st.caption("其他问法：" + escape_md("；".join(entry.variants)))
            last = f"，最近命中 {local_time(entry.last_hit_at)}" if entry.last_hit_at else ""
            st.caption("受众：" + escape_md("、".join(AUDIENCE_LABELS.get(a, a) for a in entry.audience)))
            st.caption(f"{escape_md(person_name(entry.author))} · {local_time(entry.created_at)}{last} · 编号 {escape_md(entry.id)}")
            delete_buttons(assistant, entry)


main()
