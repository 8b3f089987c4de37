"""检索测试: exactly what chat would retrieve for a question, and the eval metrics.

It calls the same `search` as chat with the same role and settings, so a
difference between the two pages would be a bug, not a configuration.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from rag_core import Assistant, Hit
from ui.layout import ensure_chrome
from ui.state import ROLE_LABELS, current_role, effective_thresholds, get_assistant
from ui.trace_view import hit_count_badge, render_hits_and_misses, timings_frame

EVAL_KEY = "retrieval_eval_result"
SEARCH_KEY = "retrieval_last_search"
DEFAULT_EVAL = "tests/data/eval.jsonl"
APP_ROOT = Path(__file__).resolve().parent.parent
MODES = {"hybrid": "混合（BM25 + 向量）", "bm25": "仅 BM25", "vector": "仅向量"}
METRIC_LABELS = {
    "recall@1": "recall@1",
    "recall@3": "recall@3",
    "recall@5": "recall@5",
    "mrr": "MRR",
    "zero_hit_rate": "零命中率",
    "n": "题数",
}
CATEGORY_LABELS = {"literal": "原文提问", "paraphrase": "换种说法", "near_miss": "相近但不适用", "absent": "制度未涉及"}


def threshold_text(assistant: Assistant) -> str:
    """The rule a chunk must pass, with the numbers currently in force."""
    t = effective_thresholds(assistant)
    s = assistant.settings

    def num(value: float | None, fmt: str = ".3f") -> str:
        return "模型校准值" if value is None else format(value, fmt)

    return (
        f"一块资料要成为“命中”，须满足下列条件之一：**关键词**：BM25 ≥ {num(t['bm25'], 'g')}，"
        f"且覆盖问题关键词（按 IDF 加权）≥ {num(t['min_coverage'], '.0%')}；"
        f"或 **语义**：余弦 ≥ {num(t['cosine_floor'])}，且比该问题对全部资料的背景余弦高出 ≥ {num(t['cosine_margin'])}。"
        f"通过的资料按 RRF（k={s.rrf_k}）融合排序，取前 {s.top_k} 块；都不通过时命中 0，回答“制度里没有写这一条”。"
    )


def scores_chart(hits: list[Hit], misses: list[Hit], assistant: Any) -> alt.LayerChart | None:
    """BM25 per candidate against the BM25 threshold line; hits and near misses coloured apart."""
    rows = [
        {
            "资料": f"{i}. {h.chunk.source} {h.chunk.section}"[:40],
            "BM25": h.scores.bm25,
            "余弦": h.scores.cosine,
            "结果": kind,
        }
        for kind, group in (("命中", hits), ("未过阈值", misses))
        for i, h in enumerate(group, start=1)
    ]
    if not rows:
        return None
    frame = pd.DataFrame(rows)
    bars = (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X("BM25:Q", title="BM25 分数"),
            y=alt.Y("资料:N", sort=None, title=None),
            color=alt.Color("结果:N", scale=alt.Scale(domain=["命中", "未过阈值"], range=["#2e7d32", "#9e9e9e"])),
            tooltip=["资料", "BM25", "余弦", "结果"],
        )
    )
    line = (
        alt.Chart(pd.DataFrame({"x": [effective_thresholds(assistant)["bm25"]]}))
        .mark_rule(color="red", strokeDash=[4, 4])
        .encode(x="x:Q")
    )
    return alt.layer(bars, line).properties(height=max(120, 28 * len(rows)))


def search_section(assistant: Assistant) -> None:
    role = current_role()
    with st.form("retrieval_form"):
        question = st.text_input("问题", placeholder="例如：打车费能报吗？", key="rt_question")
        submitted = st.form_submit_button("检索", type="primary", icon=":material/search:")
    if submitted and question.strip():
        st.session_state[SEARCH_KEY] = (question.strip(), role, assistant.search(question.strip(), role=role))
    last = st.session_state.get(SEARCH_KEY)
    st.info(threshold_text(assistant), icon=":material/rule:")
    if not last:
        return
    asked, asked_role, result = last
    st.markdown(f"**问题：** {asked}　**身份：** {ROLE_LABELS.get(asked_role, asked_role)}")
    hit_count_badge(result.hit_count)
    chart = scores_chart(result.hits, result.near_misses, assistant)
    if chart is not None:
        st.altair_chart(chart, width="stretch")
    render_hits_and_misses(result, "rt")
    with st.expander("各阶段耗时", icon=":material/timer:"):
        st.dataframe(timings_frame(result.timings_ms), hide_index=True, width="stretch")


def metrics_frame(metrics: dict[str, dict[str, float]]) -> pd.DataFrame:
    rows = [
        {"类别": CATEGORY_LABELS.get(cat, cat), "代码名": cat, **{METRIC_LABELS.get(k, k): v for k, v in m.items()}}
        for cat, m in metrics.items()
    ]
    return pd.DataFrame(rows)


def resolve_eval_path(path: str) -> Path | None:
    """Relative paths are tried from the working dir, then from the app folder."""
    candidate = Path(path.strip())
    for option in (candidate, APP_ROOT / candidate):
        if option.is_file():
            return option
    return None


def eval_section(assistant: Assistant) -> None:
    st.subheader("运行评测集")
    left, right = st.columns([2, 1])
    path = left.text_input("评测文件（JSONL）", value=DEFAULT_EVAL, key="rt_eval_path")
    mode = right.selectbox("检索方式", options=list(MODES), format_func=MODES.__getitem__)
    if st.button("运行评测", icon=":material/play_arrow:"):
        resolved = resolve_eval_path(path)
        if resolved is None:
            st.error(f"找不到评测文件：{path}")
        else:
            with st.spinner("正在逐题检索…"):
                try:
                    st.session_state[EVAL_KEY] = (path, mode, assistant.run_eval(resolved, mode=mode))
                except Exception as exc:
                    st.error(f"评测失败：{exc}")
    stored = st.session_state.get(EVAL_KEY)
    if not stored:
        return
    ran_path, ran_mode, outcome = stored
    st.caption(f"{ran_path} · {MODES.get(ran_mode, ran_mode)}")
    frame = metrics_frame(outcome.get("metrics", {}))
    st.dataframe(frame, hide_index=True, width="stretch")
    chart_cols = [c for c in ("recall@1", "recall@3", "recall@5", "MRR", "零命中率") if c in frame.columns]
    if chart_cols:
        st.bar_chart(frame.set_index("类别")[chart_cols], stack=False, y_label="比例", height=320)
    results = outcome.get("results", [])
    if results:
        with st.expander(f"逐题结果（{len(results)} 题）"):
            st.dataframe(
                pd.DataFrame(
                    [
                        {
                            "问题": r.get("question"),
                            "类别": CATEGORY_LABELS.get(r.get("category"), r.get("category")),
                            "命中数": r.get("hit_count"),
                            "首个相关名次": r.get("rank"),
                            "第一块": (r.get("hits") or [{}])[0].get("source", "") if r.get("hits") else "",
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
