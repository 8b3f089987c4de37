"""设置: retrieval, chunking and memory knobs, applied to the running facade without a restart.

Changing chunk size or overlap re-chunks every document, so that change waits for an
explicit confirmation before anything is re-indexed.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pandas as pd
import streamlit as st

from rag_core import Assistant, Settings
from ui.layout import ensure_chrome
from ui.state import get_assistant, mask_secret

PENDING_KEY = "settings_pending_changes"
FLASH_KEY = "settings_flash"
CHUNK_KEYS = ("chunk_size", "chunk_overlap")
# field -> (label, kind, min, step, help)
FIELDS: dict[str, tuple[str, str, float, float, str]] = {
    "top_k": ("返回块数 top_k", "int", 1, 1, "每个问题最多使用多少块资料"),
    "bm25_threshold": ("BM25 阈值", "float", 0.0, 0.1, "关键词命中至少要达到的 BM25 分数"),
    "min_coverage": ("关键词覆盖率下限", "float", 0.0, 0.05, "关键词命中还须覆盖问题关键词（按 IDF 加权）的这一比例"),
    "cosine_floor": ("余弦下限", "optional", 0.0, 0.005, "只靠语义命中时，余弦至少要达到的值"),
    "cosine_margin": (
        "余弦高出背景的幅度",
        "optional",
        0.0,
        0.005,
        "只靠语义命中时，须比问题对全部资料的背景余弦高出多少",
    ),
    "rrf_k": ("RRF 融合常数 k", "int", 1, 1, "越大，排名靠后的结果权重下降得越慢"),
    "chunk_size": ("块大小（字）", "int", 40, 10, "按句子切分，每块大约多少字"),
    "chunk_overlap": ("块重叠（字）", "int", 0, 10, "相邻块重复的整句长度"),
    "token_budget": ("提示词预算（token）", "int", 200, 100, "放入提示词的资料总量上限，超出时丢弃排名靠后的块"),
    "memory_half_life_days": ("记忆半衰期（天）", "float", 0.1, 1.0, "记忆的新鲜度每过这么多天减半"),
    "memory_threshold": ("记忆阈值", "float", 0.0, 0.05, "得分低于此值的记忆不会被使用"),
    "memory_top_k": ("每次最多使用的记忆条数", "int", 0, 1, ""),
}
GROUPS = {
    "检索": ("top_k", "bm25_threshold", "min_coverage", "cosine_floor", "cosine_margin", "rrf_k", "token_budget"),
    "分块": CHUNK_KEYS,
    "记忆": ("memory_half_life_days", "memory_threshold", "memory_top_k"),
}


def editable(settings: Settings) -> list[str]:
    """Only the knobs this Settings version actually has."""
    names = {f.name for f in fields(settings)}
    return [k for k in FIELDS if k in names]


def differs(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is not b
    return abs(float(a) - float(b)) > 1e-9


def changed_values(current: Any, wanted: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in wanted.items() if differs(getattr(current, k), v)}


def field_input(name: str, current: Any, default: Any, container: Any) -> Any:
    """One number input; calibrated (None) cosine thresholds get a 'use the model's value' switch."""
    label, kind, low, step, help_text = FIELDS[name]
    shown_default = "模型校准值" if default is None else f"{default:g}"
    help_text = f"{help_text}。实测默认值：{shown_default}".lstrip("。")
    if kind == "optional":
        use_calibrated = container.checkbox(f"{label}：使用模型校准值", value=current is None, help=help_text)
        value = container.number_input(
            label,
            min_value=low,
            value=float(current if current is not None else 0.0),
            step=step,
            format="%.3f",
            disabled=use_calibrated,
            label_visibility="collapsed",
        )
        return None if use_calibrated else float(value)
    if kind == "int":
        return int(
            container.number_input(label, min_value=int(low), value=int(current), step=int(step), help=help_text)
        )
    return float(
        container.number_input(
            label, min_value=float(low), value=float(current), step=float(step), help=help_text, format="%.3f"
        )
    )


def describe(changes: dict[str, Any]) -> str:
    return "，".join(f"{FIELDS[k][0]} = {'模型校准值' if v is None else v}" for k, v in changes.items())


def apply_changes(assistant: Assistant, changes: dict[str, Any]) -> None:
    """Apply non-chunking changes at once; hold chunking changes for confirmation."""
    if not changes:
        st.info("设置没有变化。")
        return
    if any(k in changes for k in CHUNK_KEYS):
        st.session_state[PENDING_KEY] = changes
        st.rerun()
    try:
        assistant.update_settings(**changes)
    except Exception as exc:
        st.error(f"设置未生效：{exc}")
        return
    st.session_state[FLASH_KEY] = "设置已生效：" + describe(changes)
    st.rerun()


def confirm_rechunk(assistant: Assistant) -> None:
    """Ask before re-chunking; on yes apply the settings and re-index with a progress bar."""
    changes = st.session_state.get(PENDING_KEY)
    if not changes:
        return
    panel = st.empty()
    with panel.container():
        n_docs = len(assistant.list_documents())
        st.warning(
            f"修改块大小或重叠需要把全部 {n_docs} 份文档重新切分并重新索引，期间检索结果可能不完整。要现在进行吗？\n\n"
            + "，".join(f"{FIELDS[k][0]}：{getattr(assistant.settings, k)} → {v}" for k, v in changes.items())
        )
        yes, no = st.columns(2)
        confirmed = yes.button("确认并重新索引", type="primary")
        cancelled = no.button("取消")
    if cancelled:
        st.session_state.pop(PENDING_KEY, None)
        st.rerun()
    if not confirmed:
        return
    panel.empty()
    st.session_state.pop(PENDING_KEY, None)
    try:
        needs_reindex = assistant.update_settings(**changes)
    except Exception as exc:
        st.error(f"设置未生效：{exc}")
        return
    message = "设置已生效：" + describe(changes)
    if needs_reindex:
        bar = st.progress(0.0, text="重新索引…")
        count = assistant.reindex(
            progress=lambda label, fraction: bar.progress(max(0.0, min(1.0, fraction)), text=label)
        )
        message += f"；已按新设置重新索引，共 {count} 块。"
    st.session_state[FLASH_KEY] = message
    st.rerun()


def info_section(assistant: Assistant) -> None:
    s = assistant.settings
    st.subheader("运行环境")
    rows = [
        ("回答方式", assistant.llm_status),
        ("大模型接口地址", s.llm_base_url or "（未设置）"),
        ("大模型名称", s.llm_model_id or "（未设置）"),
        ("API 密钥", mask_secret(s.llm_api_key)),
        ("嵌入模型", s.embedding_model),
        ("向量库", f"Chroma 服务器 {s.chroma_host}:{s.chroma_port}" if s.chroma_host else "本地 Chroma（内嵌）"),
        ("数据目录", str(s.data_dir)),
    ]
    st.dataframe(pd.DataFrame(rows, columns=["项目", "值"]), hide_index=True, width="stretch")
    st.caption(
        "大模型与向量库在 .env 中配置（LLM_API_KEY、LLM_BASE_URL、LLM_MODEL_ID、EMBEDDING_MODEL、CHROMA_HOST），修改后需重启。"
    )


def main() -> None:
    ensure_chrome()
    assistant = get_assistant()
    settings = assistant.settings
    defaults = type(settings)()
    names = editable(settings)
    st.title("设置")
    st.caption("修改立即对所有页面生效，无需重启；修改分块参数会先询问，再重新索引。")
    if flash := st.session_state.pop(FLASH_KEY, None):
        st.success(flash)
    confirm_rechunk(assistant)
    with st.form("settings_form"):
        wanted: dict[str, Any] = {}
        for group, keys in GROUPS.items():
            st.markdown(f"**{group}**")
            cols = st.columns(3)
            for i, name in enumerate(k for k in keys if k in names):
                wanted[name] = field_input(name, getattr(settings, name), getattr(defaults, name), cols[i % 3])
        submitted = st.form_submit_button("应用", type="primary")
    if submitted:
        apply_changes(assistant, changed_values(settings, wanted))
    table = pd.DataFrame(
        [
            {
                "设置": FIELDS[k][0],
                "当前值": "模型校准值" if getattr(settings, k) is None else getattr(settings, k),
                "实测默认值": "模型校准值" if getattr(defaults, k) is None else getattr(defaults, k),
            }
            for k in names
        ]
    ).astype(str)
    with st.expander("当前值与实测默认值", expanded=False):
        st.dataframe(table, hide_index=True, width="stretch")
    if st.button("恢复默认值", icon=":material/restart_alt:"):
        apply_changes(assistant, changed_values(settings, {k: getattr(defaults, k) for k in names}))
    st.divider()
    info_section(assistant)


main()
