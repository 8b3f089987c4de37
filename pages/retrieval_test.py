"""检索测试: exactly what chat would retrieve for a question, and the eval metrics.

It calls chat's own search (`Assistant.search_as_chat`: the question masked, a statement
about oneself left out, then the tester's own memories) with the same role and settings,
so a difference between the two pages would be a bug, not a configuration. Only a
conversation's earlier turns are not read: each question here stands alone.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import altair as alt
import pandas as pd
import streamlit as st

from rag_core import CATEGORY_LABELS, METRIC_LABELS, Assistant, Hit, RagError, SearchResult
from ui.inert import escape_md
from ui.layout import ensure_chrome
from ui.progress import question_steps
from ui.state import ROLE_LABELS, actor, current_role, get_assistant, owned_by_actor
from ui.trace_view import (
    memories_plain_frame,
    render_hits_and_misses,
    render_score_tables,
    technical_details,
    timings_frame,
)
from ui.uploads import upload_limit_mb
from ui.verdict import hit_count_badge

EVAL_KEY = "retrieval_eval_result"  # (file shown, mode, outcome, the Principal who ran it)
# (role, PersonalSearch, the Principal who searched): a result is shown only to the person who ran it (logout
# clears it as well; this guards any other way it could outlive them)
SEARCH_KEY = "retrieval_chat_search"
DEFAULT_EVAL = "tests/data/eval.jsonl"
APP_ROOT = Path(__file__).resolve().parent.parent
MODES = {"hybrid": "混合（关键词 + 意思相近）", "bm25": "仅关键词", "vector": "仅意思相近"}
COUNT_LABELS = ("题数", "问答页不检索的题数")  # counts, not shares
NOT_SEARCHED = {"chatter": "只是寒暄，问答页不检索", "told_only": "只是在说自己的情况，问答页不检索"}
CHART_METRICS = ("recall@1", "recall@3", "recall@5", "mrr", "zero_hit_rate")


def threshold_text(assistant: Assistant, result: SearchResult | None = None) -> str:
    """The decision a chunk goes through, in words, with the numbers in force: those of the search just run (a
    store with few visible chunks gets a lower question threshold, and the page said the usual one)."""
    model = assistant.decision
    used = result.threshold if result is not None and result.query else model.question_threshold
    small = (f"（能看到的资料不到 {model.small_store} 块时，门槛是 {model.small_question_threshold:.0%}）"
             if model.small_store and model.small_question_threshold is not None else "")
    return (
        "每个候选块的关键词得分（含覆盖率，口语词按词表换成制度用语）、意思相近程度（整块和最接近的一句）、"
        "排名和“问题里的情形或待遇条款里有没有”一起交给一个拟合好的判断模型。"
        # a space after the closing ** when 时 follows: after "%" it closes only before a space or punctuation
        f"先判断制度是否回答了这个问题：把握低于 **{used:.0%}**{'（这次检索用的门槛）' if result else ' '}时命中 0 块"
        f"{small}，回答“制度里没有写这一条”；否则把握不低于 "
        f"**{model.chunk_threshold:.0%}** 的块按把握从高到低取前 {assistant.settings.top_k} 块"
        f"（问题把握 ≥ {model.strong:.0%} 且该块 ≥ 50% 标为“依据充分”，其余为“依据较弱”）。"
    )


def scores_chart(hits: list[Hit], misses: list[Hit]) -> alt.LayerChart | None:
    """Each candidate's probability of being evidence; hits and near misses coloured apart."""
    rows = [
        {
            "资料": f"{i}. {h.chunk.source} {h.chunk.section}"[:40],
            "把握": round(h.scores.probability, 3),
            "结果": kind,
        }
        for kind, group in (("采用", hits), ("未采用", misses))
        for i, h in enumerate(group, start=1)
    ]
    if not rows:
        return None
    frame = pd.DataFrame(rows)
    bars = (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X("把握:Q", title="是依据的把握", scale=alt.Scale(domain=[0, 1])),
            y=alt.Y("资料:N", sort=None, title=None, axis=alt.Axis(labelLimit=320)),
            color=alt.Color("结果:N", scale=alt.Scale(domain=["采用", "未采用"], range=["#2e7d32", "#9e9e9e"])),
            tooltip=["资料", "把握", "结果"],
        )
    )
    return bars.properties(height=max(120, 28 * len(rows)))


def search_section(assistant: Assistant) -> None:
    labels = assistant.preview_audiences(actor=actor())
    with st.form("retrieval_form"):
        question = st.text_input("问题", placeholder="例如：打车费能报吗？", key="rt_question")
        # HR checks what employees are told: the same search, read as one audience (review 384 #6)
        role = st.selectbox("按谁的身份检索", [current_role(), *labels], key="rt_role",
                            format_func=lambda label: "我自己（和我在问答页看到的一样）" if label is None
                            else f"{ROLE_LABELS.get(label, label)}能看到的资料")
        personal = st.checkbox("加上我记住的个人信息（和问答页一样）", value=True, key="rt_personal")
        st.caption("输入员工会怎么问，就怎么写；默认用当前登录的身份检索，能看到的资料和问答页完全一样（每个问题单独检索，"
                   "不接上一个问题）。选一个身份，就只看这个身份能看到的资料（例如“员工”：普通员工在问答页会看到的）。")
        submitted = st.form_submit_button("检索", type="primary", icon=":material/search:")
    if submitted and not question.strip():
        st.warning("请先输入要检索的问题。")
    elif submitted:
        try:
            generation = assistant.library_generation(actor=actor())  # before the search: a change meanwhile shows
            found = assistant.search_as_chat(question, role=role, actor=actor(), with_memories=personal)
            st.session_state[SEARCH_KEY] = (role, found, actor(), generation)
        except (RagError, sqlite3.Error, OSError) as exc:  # the engine's Chinese message; no old result under it
            st.session_state.pop(SEARCH_KEY, None)
            st.error(f"检索失败：{escape_md(exc)}")
    last = owned_by_actor(st.session_state.get(SEARCH_KEY), 2)
    if last is not None and (len(last) < 4 or last[3] != assistant.library_generation(actor=actor())):
        st.info("文档库、设置或标准答复在这次检索之后有了变化（例如上传、删除、调整了可见范围或检索条数），上次的结果已经过时，"
                "请重新检索。",
                icon=":material/update:")
        last = None
    if last is None:
        st.session_state.pop(SEARCH_KEY, None)
    if not last:  # the rule in words; its numbers one click away (review 384 #7: percentages and scores up front)
        st.caption("检索后这里列出问答页会引用的资料，以及相近但没有采用的条款和原因。")
        technical_details("tech_rt_rule", lambda: st.markdown(threshold_text(assistant)))
        return
    asked_role, found = last[:2]
    result = found.result
    st.markdown(f"**问题：** {escape_md(found.question)}　**身份：** {escape_md(ROLE_LABELS.get(asked_role, asked_role)) if asked_role else '当前登录身份'}")
    if found.chatter:
        st.info("这句话只是在和助手寒暄（例如“谢谢”“好的”）：问答页会简短回复，不检索制度，也不记住什么。",
                icon=":material/chat:")
        return
    if found.told_only:
        st.info("这句话只是在说自己的情况：问答页会记住它并回复“我记住了”，不检索制度。", icon=":material/psychology:")
        return
    if found.standard_answer:
        st.info(f"问答页会直接给出 HR 的标准答复（对应问题：{escape_md(found.standard_answer.get('question', ''))}），"
                "下面是制度检索本身的结果。", icon=":material/verified:")
    if found.memory_search:  # the tester's memories picked the clauses, as they would in chat
        st.caption(f"检索时加上了记住的个人信息：{escape_md(found.memory_search)}")
    if found.memories:
        with st.expander(f"用到的个人记忆（{len(found.memories)} 条）", icon=":material/psychology:"):
            st.dataframe(memories_plain_frame(found.memories), hide_index=True, width="stretch")
    hit_count_badge(result.hit_count)
    render_hits_and_misses(result, "rt")

    def numbers() -> None:
        st.markdown(threshold_text(assistant, result))
        if (chart := scores_chart(result.hits, result.near_misses)) is not None:
            st.altair_chart(chart, width="stretch")
        render_score_tables(result)
        st.markdown("**各阶段耗时**")
        st.dataframe(timings_frame(result.timings_ms, found.timings_ms), hide_index=True, width="stretch")

    technical_details("tech_rt", numbers)


def metrics_frame(metrics: dict[str, dict[str, float]]) -> pd.DataFrame:
    """One row per category, columns in plain words; a metric a category does not have reads 不适用 (never None)."""
    keys = [k for k in METRIC_LABELS if any(k in m for m in metrics.values())]
    keys += [k for m in metrics.values() for k in m if k not in keys]
    rows = [{"类别": CATEGORY_LABELS.get(cat, cat), **{METRIC_LABELS.get(k, k): m.get(k) for k in keys}}
            for cat, m in metrics.items()]
    return pd.DataFrame(rows, columns=["类别", *(METRIC_LABELS.get(k, k) for k in keys)])


def shown_metrics(frame: pd.DataFrame) -> pd.DataFrame:
    """The table as shown: shares as percentages, counts as numbers, a missing value as 不适用."""
    def cell(column: str, value: object) -> str:
        if value is None or (isinstance(value, float) and pd.isna(value)):
            return "不适用"
        if column in ("类别", *COUNT_LABELS):
            return str(int(value)) if isinstance(value, float) else str(value)
        return percent(float(value))

    return pd.DataFrame({c: [cell(c, v) for v in frame[c]] for c in frame.columns})


def percent(value: float) -> str:
    """A share with one decimal (40%, 0.4%), never rounded to 0% or 100% when it is not: with whole percents,
    1 question without a hit in 250 read 0% and 249 of 250 right on the first hit read 100%."""
    text = f"{value:.1%}".replace(".0%", "%")
    if value > 0 and text == "0%":
        return "<0.1%"
    if value < 1 and text == "100%":
        return ">99.9%"
    return text


def metrics_chart(frame: pd.DataFrame, columns: list[str]) -> alt.Chart:
    """Grouped horizontal bars: category names stay readable (no rotated, cut labels) at 1280 px."""
    long = frame.melt(id_vars=["类别"], value_vars=columns, var_name="指标", value_name="比例")
    return (
        alt.Chart(long)
        .mark_bar()
        .encode(
            y=alt.Y("类别:N", title=None, sort=None, axis=alt.Axis(labelLimit=0)),
            yOffset=alt.YOffset("指标:N", sort=columns),
            x=alt.X("比例:Q", scale=alt.Scale(domain=[0, 1]), title="比例"),
            color=alt.Color("指标:N", sort=columns, legend=alt.Legend(orient="bottom", title=None)),
            tooltip=["类别", "指标", "比例"],
        )
        .properties(height=alt.Step(9))
    )


def eval_section(assistant: Assistant) -> None:
    st.subheader("运行评测集")
    left, right = st.columns([2, 1])
    with left.expander("技术细节：指定题集文件"):
        path = st.text_input("题集文件", value=DEFAULT_EVAL, key="rt_eval_path")
    mode = right.selectbox("检索方式", options=list(MODES), format_func=MODES.__getitem__)
    most_bytes, most_questions = assistant.eval_upload_limits  # the engine's own limits, not a number of the page's
    left.caption("默认用示例制度的 82 道题；也可以上传自己的题集（JSONL，每行一道题：点框里的“Upload”选择文件，"
                 f"不超过 {most_bytes / 2**20:g} MB、{most_questions:,} 道题）。")
    right.caption("默认“混合”，即问答实际使用的方式；另两种只用于对比各自的贡献。")
    uploaded = left.file_uploader("或上传题集", type=["jsonl"], key="rt_eval_upload", max_upload_size=upload_limit_mb(most_bytes))
    if st.button("运行评测", icon=":material/play_arrow:"):
        try:  # only the data dir, the bundled sample set, or a file uploaded here: the box is no file probe
            resolved = (
                assistant.save_eval_upload(uploaded.name, uploaded.getvalue(), actor=actor()) if uploaded is not None
                else assistant.resolve_eval_file(path, actor=actor())
            )
        except RagError as exc:
            resolved = None
            st.error(escape_md(exc))
        if resolved is not None:  # the file that ran, masked as pages show names (not the text box's value)
            shown = assistant.shown_name(uploaded.name) if uploaded is not None else assistant.shown_text(resolved)
            bar = st.progress(0.0, text="正在读取题集…")
            try:
                outcome = assistant.run_eval(resolved, mode=mode, progress=question_steps(bar, "正在逐题检索并回答"),
                                             actor=actor(), shown=shown)
                st.session_state[EVAL_KEY] = (shown, mode, outcome, actor())
            except Exception as exc:
                st.error(f"评测失败：{escape_md(exc)}")
            finally:
                bar.empty()
    stored = owned_by_actor(st.session_state.get(EVAL_KEY), 3)
    if not stored:
        st.session_state.pop(EVAL_KEY, None)
        return
    ran_file, ran_mode, outcome = stored[:3]
    st.caption(f"检索方式：{MODES.get(ran_mode, ran_mode)}")
    frame = metrics_frame(outcome.get("metrics", {}))
    st.dataframe(shown_metrics(frame), hide_index=True, width="stretch")
    st.caption("“不适用”：这一类题不计算这项（例如制度未涉及的题没有正确条款可排名）。"
               "问答页不检索的题（只是寒暄或只是在说自己的情况）不计入各项比例。")
    with st.expander("技术细节"):
        st.dataframe(pd.DataFrame([{"指标": METRIC_LABELS[k], "技术名称": k} for k in METRIC_LABELS]),
                     hide_index=True, width="stretch")
        st.caption(f"评测文件：{escape_md(ran_file)}")
    chart_cols = [METRIC_LABELS[k] for k in CHART_METRICS if METRIC_LABELS[k] in frame.columns]
    if chart_cols:
        st.altair_chart(metrics_chart(frame, chart_cols), width="stretch")
    results = outcome.get("results", [])
    if results:
        with st.expander(f"逐题结果（{len(results)} 题）"):
            st.dataframe(
                pd.DataFrame(
                    [
                        {
                            "问题": assistant.shown_text(r.get("question") or ""),  # a typed set's data, masked
                            "类别": CATEGORY_LABELS.get(r.get("category"), r.get("category")),
                            "命中数": r.get("hit_count"),  # None: chat searches nothing for this row (说明)
                            "首个相关名次": r.get("rank"),
                            "第一块": (r.get("hits") or [{}])[0].get("source", "") if r.get("hits") else "",
                            "说明": NOT_SEARCHED.get(r.get("not_searched") or "", ""),
                        }
                        for r in results
                    ]
                ),
                hide_index=True,
                width="stretch",
            )


def main() -> None:
    ensure_chrome()
    assistant = get_assistant()
    st.title("检索测试")
    st.caption("与问答页调用同一个检索接口、同样的身份与设置：这里看到的，就是问答时会用到的资料。")
    search_section(assistant)
    st.divider()
    eval_section(assistant)


main()
