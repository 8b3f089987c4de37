"""知识缺口 — questions the policies did not answer (and 👎 answers), grouped by meaning; one step to a standard answer."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import Any

import pandas as pd
import streamlit as st

from rag_core import Assistant, RagError
from ui.downloads import built_on_click
from ui.inert import escape_md
from ui.layout import ensure_chrome, include_tests_box
from ui.state import AUDIENCE_LABELS, actor, get_assistant, person_name
from ui.tables import chart_labels, labelled_bar_chart
from ui.timefmt import local_time, today

KINDS = {"zero_hit": "没有命中", "refused": "制度里没有写", "weak": "依据较弱", "disliked": "👎"}
FIELDS = ("gap_answer", "gap_clauses", "gap_audience", "gap_word", "gap_terms")  # each f"{field}_{number}"


def main() -> None:
    ensure_chrome()
    assistant = get_assistant()
    st.title("知识缺口")
    st.caption("员工问了、制度却没有答上的问题（没有命中、回答“制度里没有写这一条”、或被点 👎），按意思分组。"
               "问题在保存前已遮盖个人信息；提问人只对管理员可见。")
    col1, col2 = st.columns(2)
    since = col1.date_input("起始日期", value=today() - timedelta(days=30), key="gaps_since")
    until = col2.date_input("截止日期（含）", value=today(), key="gaps_until")
    weak = st.checkbox("也列出依据较弱的回答", key="gaps_weak",
                       help="回答了，但最相关的条款只是与问题相近、不一定直接回答了它。这类回答多数是对的，默认不列出。")
    tests = include_tests_box("gaps_tests")
    try:
        groups = assistant.knowledge_gaps(since=since, until=until, include_weak=weak, include_tests=tests,
                                          actor=actor())
    except RagError as exc:
        st.error(escape_md(exc))
        return
    if waiting := assistant.regrouping_gap_questions(actor=actor()):  # after a model change, in bounded steps
        st.info(f"还有 {waiting:,} 条较早的提问正在按新的嵌入模型重新归组，暂未列出；稍后刷新本页会继续。")
    if not groups:
        empty_state(assistant, since, until, tests)
        return
    audiences = assistant.standard_audiences(actor=actor())
    total = sum(g.count for g in groups)
    st.markdown(f"共 **{len(groups)}** 组、**{total}** 次提问")
    chart = pd.DataFrame({"问题": chart_labels([g.representative for g in groups[:15]]),
                          "次数": [g.count for g in groups[:15]]})
    st.altair_chart(labelled_bar_chart(chart, "问题", "次数"), width="stretch")
    follow_groups(groups)
    for number, group in enumerate(groups):
        kinds = escape_md("，".join(f"{KINDS.get(k, k)} {n}" for k, n in group.kinds.items()))
        done = " · 已有标准答复" if group.answered_by else ""
        with st.expander(f"{group.count} 次 · {escape_md(group.representative)}{done}", expanded=number == 0):
            st.caption(f"首次 {local_time(group.first_seen)} · 最近 {local_time(group.last_seen)} · {kinds}")
            st.markdown("**问法举例**")
            for question in group.questions:
                st.markdown(f"- {escape_md(question)}")
            near = group.nearest
            if near:
                st.markdown(f"**最接近的条款**：{escape_md(near.get('title', ''))} {escape_md(near.get('section', ''))}")
                st.caption(escape_md(near.get("text", "")))
            else:
                st.caption("没有接近的条款。")
            if group.users:
                st.caption("提问人（仅管理员可见）：" + escape_md("、".join(person_name(u) for u in group.users)))
            synonym_form(assistant, group, number)
            if not group.answered_by:
                standard_form(assistant, group, number, audiences)
            standard_outcome(group)
    built_on_click("导出 Excel", lambda: assistant.export_insights(  # built on the click, not at every click (364)
        "gaps", "xlsx", since=since, until=until, include_tests=tests, include_weak=weak, actor=actor()),
        f"knowledge_gaps_{since}_{until}.xlsx", key="gaps_export")


def group_key(group: Any) -> str:
    """A group's identity across reruns (its position changes as questions arrive or a filter changes)."""
    return hashlib.sha256(group.representative.encode()).hexdigest()[:16]


def follow_groups(groups: list[Any]) -> None:
    """The forms are keyed by position; what HR typed (kept after a refusal) follows the group it was typed for
    when the groups reorder, and a group new at a position starts empty: else the next click stored the answer
    under another group's question."""
    state = st.session_state
    owners = {state[k]: k.rsplit("_", 1)[1] for k in list(state.keys()) if str(k).startswith("gap_owner_")}
    typed = {n: {f: state[f"{f}_{n}"] for f in FIELDS if f"{f}_{n}" in state} for n in owners.values()}
    for number, group in enumerate(groups):
        key = group_key(group)
        if state.get(f"gap_owner_{number}") == key:
            continue
        for field in FIELDS:
            state.pop(f"{field}_{number}", None)
        for field, value in typed.get(owners.get(key, ""), {}).items():
            state[f"{field}_{number}"] = value
        state[f"gap_owner_{number}"] = key


def empty_state(assistant: Assistant, since: Any, until: Any, tests: bool) -> None:
    """No gap: 问题都有制度可答 only when questions were recorded in the window; else one plain line saying why."""
    try:
        window = assistant.question_window(since=since, until=until, include_tests=tests, actor=actor())
    except RagError as exc:
        st.error(escape_md(exc))
        return
    if not window["recording"]:
        st.info("提问记录已关闭（设置里的提问记录保留天数为 0）：员工的提问不被记录，无法统计知识缺口。",
                icon=":material/info:")
    elif not window["questions"]:
        st.info("所选时间内没有记录到提问，无法判断是否有知识缺口。", icon=":material/info:")
    else:
        st.success(f"所选时间内的 {window['questions']} 个提问都有制度可答，没有知识缺口。",
                   icon=":material/check_circle:")


def synonym_form(assistant: Assistant, group: Any, number: int) -> None:
    """添加同义词: the word employees use → the words the policy uses (HR's own thesaurus).

    Added, the form is emptied; refused, it keeps what HR typed (review 382 #5: clear_on_submit emptied it)."""
    with st.form(key=f"gap_synonym_{number}"):
        st.markdown("**添加同义词**：员工的说法在制度里叫什么？之后搜索员工的说法时也会找制度用语。")
        left, right = st.columns(2)
        left.text_input("员工的说法（口语词）", key=f"gap_word_{number}", placeholder="例如：加班餐费")
        right.text_input("制度里的说法（制度用语，可写几个，用空格或顿号隔开）", key=f"gap_terms_{number}",
                         placeholder="例如：加班餐补")
        st.form_submit_button("添加同义词", icon=":material/translate:", on_click=add_synonym,
                              args=(assistant, group, number))
    if error := st.session_state.pop(f"gap_synonym_error_{group_key(group)}", None):
        st.error(escape_md(error))
    if done := st.session_state.pop(f"gap_synonym_done_{group_key(group)}", None):
        st.success(escape_md(done))
        try_again(assistant, group.representative)


def add_synonym(assistant: Assistant, group: Any, number: int) -> None:
    """添加同义词 callback: runs before the page is drawn again, so it may empty the form's fields."""
    word, terms = f"gap_word_{number}", f"gap_terms_{number}"
    try:
        line = assistant.add_thesaurus_entry(st.session_state.get(word) or "", st.session_state.get(terms) or "",
                                             actor=actor())
    except RagError as exc:
        st.session_state[f"gap_synonym_error_{group_key(group)}"] = str(exc)
        return
    st.session_state[word] = st.session_state[terms] = ""
    st.session_state[f"gap_synonym_done_{group_key(group)}"] = line


def try_again(assistant: Assistant, question: str) -> None:
    """The group's question searched again, so HR sees at once whether the new words found a clause."""
    result = assistant.search(question, actor=actor())
    if result.hits:
        best = result.hits[0].chunk
        st.info(f"再搜“{escape_md(question)}”：现在能找到 {escape_md(best.title)} {escape_md(best.section)}。")
    else:
        st.warning(f"再搜“{escape_md(question)}”：仍然没有找到条款，可以换一个制度用语，或写一条标准答复。")


def standard_form(assistant: Assistant, group: Any, number: int, audiences: list[str]) -> None:
    """标准答复: this group's representative question, its wordings as variants, for the chosen audiences.

    Added, the form is emptied (a second click stored the same answer again); refused, it keeps what HR typed."""
    with st.form(key=f"gap_to_standard_{number}"):
        st.markdown("**写一条标准答复**：之后同样意思的问题直接用它回答。")
        st.text_area("标准答复", key=f"gap_answer_{number}")
        st.text_area("依据的条款（可选，每行一条）", key=f"gap_clauses_{number}", height=80,
                     placeholder="例如：《考勤与休假管理制度》第五条",
                     help="员工看到答复时会一并看到这里写的依据；不写就不显示依据。")
        near = group.nearest
        if near:  # the clause that came closest did not answer the question: HR decides whether it is the basis
            hint = f"{near.get('title', '')} {near.get('section', '')}".strip()
            st.caption(f"最接近的条款（没有答上这个问题，确实是依据时再复制到上面）：{escape_md(hint)}")
        audience = f"gap_audience_{number}"  # a choice that followed its group is the widget's value, no default
        st.multiselect("受众（谁问时用这条答复）", audiences, key=audience,
                       default=None if audience in st.session_state else ["all"],
                       format_func=lambda a: AUDIENCE_LABELS.get(a, a), placeholder="请选择",
                       select_all=False)
        st.form_submit_button("设为标准答复", icon=":material/verified:", on_click=add_standard,
                              args=(assistant, group, number))


def standard_outcome(group: Any) -> None:
    """What 设为标准答复 said, and a group a standard answer now serves: no second form (review 382 #4)."""
    if error := st.session_state.pop(f"gap_standard_error_{group_key(group)}", None):
        st.error(escape_md(error))
    if done := st.session_state.pop(f"gap_standard_done_{group_key(group)}", None):
        st.success(done)
    elif group.answered_by:  # answered from here or the 标准答复 page
        st.success(f"已有标准答复（编号 {escape_md(group.answered_by['id'])}：{escape_md(group.answered_by['question'])}），"
                   "同样的问题现在直接用它回答；要修改请到“标准答复”页。", icon=":material/verified:")


def add_standard(assistant: Assistant, group: Any, number: int) -> None:
    """设为标准答复 callback (it runs before the page is drawn again, so it may empty the form's fields; `group` and
    `number` are the previous run's, whose form HR submitted)."""
    answer, clauses = f"gap_answer_{number}", f"gap_clauses_{number}"
    typed = (st.session_state.get(clauses) or "").splitlines()
    try:
        entry = assistant.standard_answer_from_gap(
            group, st.session_state.get(answer) or "", clauses=typed,
            audience=st.session_state.get(f"gap_audience_{number}"), actor=actor())
    except RagError as exc:
        st.session_state[f"gap_standard_error_{group_key(group)}"] = str(exc)
        return
    st.session_state[answer] = st.session_state[clauses] = ""
    _, left_out = assistant.standard_gap_variants(group)  # wordings asking otherwise (班车几点发车 for 有没有班车)
    apart = ("。这些问法问的不是同一件事，没有算作它的其他问法，需要时请分别设为标准答复："
             + "、".join(f"“{escape_md(q)}”" for q in left_out)) if left_out else ""
    st.session_state[f"gap_standard_done_{group_key(group)}"] = (
        f"已添加标准答复 {escape_md(entry.id)}：{escape_md(entry.question)}{apart}{unanchored_note(assistant, entry, typed)}")


def unanchored_note(assistant: Assistant, entry: Any, typed: list[str]) -> str:
    """The advice the 标准答复 page gives too (`standard_answer_advice`): 依据 that ties the answer to no policy, or
    none at all while the answer itself names none, means a change to the policies will not pause it."""
    try:
        advice = assistant.standard_answer_advice(typed, entry.answer, actor=actor())
    except RagError:
        return ""  # the answer is added; only the advice is missing
    return f"。{escape_md(advice)}" if advice else ""

main()
