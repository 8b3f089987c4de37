"""设置: retrieval, chunking and memory knobs, applied to the running facade without a restart.

Changing chunk size or overlap re-chunks every document, so that change waits for an
explicit confirmation before anything is re-indexed.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pandas as pd
import streamlit as st

from rag_core import Assistant, RagError, Settings, ThesaurusChanged
from rag_core.settings import LIMITS
from ui.inert import escape_md
from ui.layout import ensure_chrome
from ui.progress import FileSteps
from ui.state import actor, get_assistant, mask_secret

PENDING_KEY = "settings_pending_changes"
PENDING_NOTE_KEY = "settings_pending_note"  # apply_form's note (a change made elsewhere replaced), kept through the question
FLASH_KEY = "settings_flash"
CLEAR_KEY = "settings_clear_asked"  # 清除本页保存的修改 was clicked: the page asks before clearing
NOTE_KEY = "settings_flash_note"  # a warning shown with the flash: the change replaced one made elsewhere
DRAWN_KEY = "settings_form_drawn_with"  # (values, fitted thresholds) the form's widgets were last drawn with
FAILED_KEY = "settings_reindex_failed"  # what the last re-cut could not cut, shown as an error under the flash
SUBMIT_KEY = "settings_form_submitting"  # set by 应用's callback, before the run that handles it
shown_number = Assistant.shown_setting  # one wording with the audit trail: 实测拟合值, 30 not 30.0
THESAURUS_KEY = "settings_thesaurus_text"  # the word list editor's text (keyed: a change on disk never resets it)
THESAURUS_BASE_KEY = "settings_thesaurus_drawn"  # the file's text the editor was filled from
THESAURUS_RELOAD_KEY = "settings_thesaurus_reload"  # saved: fill the editor from the file again
THESAURUS_FLASH_KEY = "settings_thesaurus_flash"  # 已保存…, said after the rerun that reloads the editor
THESAURUS_CONFIRM_KEY = "settings_thesaurus_confirm"  # (text, words it removes): a save that deletes, asked first
CHUNK_KEYS = ("chunk_size", "chunk_overlap")
# fitted threshold, store size below which…, …the small store's own one, the one this person's questions meet now
Fitted = tuple[float, int, float | None, float]
# field -> (label, kind, step, one plain sentence); its range is the engine's own (rag_core.settings.LIMITS)
FIELDS: dict[str, tuple[str, str, float, str]] = {
    "top_k": ("每次检索返回条数", "int", 1, "每个问题最多拿几段制度条款来回答；多了答案更全，也更容易混进不相干的条款。"),
    "answer_threshold": (
        "回答的把握门槛",
        "optional",
        0.05,
        "判断“制度回答了这个问题”的把握低于它时，一条也不用，直接回答“制度里没有写这一条”；调高更谨慎，调低更敢答。",
    ),
    "candidates": ("初选条数", "int", 5, "关键词检索和语义检索各先找出多少段，再从中挑出真正的依据；一般不用改。"),
    "chunk_size": ("每段字数", "int", 10, "制度按整句切成段落，每段大约多少字；改了要重新索引全部文档。"),
    "chunk_overlap": ("相邻段重复字数", "int", 10, "相邻两段重复多少字的整句，避免一条规定被切在两段中间。"),
    "token_budget": ("交给大模型的条款总量", "int", 100, "交给大模型的条款总量上限（按大模型的计数单位，约等于字数），放不下时去掉排名靠后的整段。"),
    "memory_half_life_days": ("记忆半衰期（天）", "float", 1.0, "记住的个人信息每过这么多天“新鲜度”减半，旧事逐渐少用。"),
    "memory_threshold": ("记忆的相关程度门槛", "float", 0.05, "与问题的相关程度低于它的记忆不用于回答。"),
    "memory_top_k": ("每次最多使用的记忆条数", "int", 1, "一次回答最多参考几条关于提问人的记忆。"),
}
# field -> where its default comes from (shown with the default under each knob)
MEASURED: dict[str, str] = {
    "top_k": "设定值；评测看前 1、3、5 条里有没有正确条款",
    "answer_threshold": "实测：用六套不同公司的制度轮流检验后定出",
    "candidates": "实测：30 条初选已能找回几乎所有正确条款",
    "chunk_size": "实测：比较了不同分段方式后选定",
    "chunk_overlap": "实测：比较了不同分段方式后选定",
    "token_budget": "设定值，未单独实测",
    "memory_half_life_days": "设定值，未单独实测",
    "memory_threshold": "实测：用一组记忆与提问校准",
    "memory_top_k": "设定值，未单独实测",
}
GROUPS = {
    "检索": ("top_k", "answer_threshold", "candidates", "token_budget"),
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


def shown_value(name: str, current: Any, fallback: Any) -> tuple[Any, str]:
    """The value a number input can show for `current` (kept inside the page's range), and a warning when
    that is not the stored value: a stored value outside the range must never replace the page with an error."""
    low, high, _ = LIMITS[name]
    kind = FIELDS[name][1]
    try:
        value = float(current)
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(current)
    except (TypeError, ValueError):
        value = float(fallback)
    value = max(value, low) if low is not None else value
    value = min(value, high) if high is not None else value
    shown = int(value) if kind == "int" else value
    if isinstance(current, int | float) and not isinstance(current, bool) and float(current) == float(shown):
        return shown, ""
    offered = f"{low:g} 到 {high:g}" if high is not None else f"不小于 {low:g}"
    return shown, (f"当前保存的值 {str(current)[:20]} 超出本页可选的范围（{offered}），这里显示为 {shown:g}；"
                   "点“应用”会把它改成显示的值。")


def fitted_values(assistant: Assistant) -> Fitted:
    """The fitted threshold in force: the usual one, a small store's own when the model has one, and the one that
    applies to the chunks this person may read (the engine's decision)."""
    model = assistant.decision
    small = model.small_question_threshold if model.small_store else None
    return model.question_threshold, model.small_store, small, assistant.question_threshold_in_effect(actor=actor())


def fitted_text(fitted: Fitted) -> str:
    """The fitted threshold in words: a small store gets its own (lower) one, and the page once showed only
    the usual 0.350 where 0.100 was in effect; then both, without saying which one applies (现为)."""
    usual, small_store, small, now = fitted
    if small is None:
        return f"实测拟合值（现为 {now:.3f}）"
    return (f"实测拟合值（提问人能看到的资料不少于 {small_store} 块时为 {usual:.3f}，不到 {small_store} 块时为 {small:.3f}；"
            f"按你能看到的资料，现为 {now:.3f}）")


def field_input(name: str, current: Any, default: Any, container: Any, *, fitted: Fitted | None = None,
                use_fitted: bool = False) -> Any:
    """One number input with its plain sentence and measured default under it; its range is the engine's.

    The optional threshold's 'use the fitted value' switch is drawn outside the form (`fitted_switch`): inside
    it, unticking re-ran nothing, so the field stayed disabled at a placeholder that 应用 then saved. Unset, the
    field shows the engine's usual fitted value and returns None (still fitted) unless the number was edited:
    saving the shown number set a threshold for every store, so a small store's lower one (0.10) became 0.35.
    """
    label, kind, step, sentence = FIELDS[name]
    low, high, _ = LIMITS[name]
    shown_default = "实测拟合值" if default is None else f"{default:g}"
    if kind == "optional":
        if default is None and fitted is not None:
            shown_default = fitted_text(fitted)
        fallback = fitted[0] if fitted is not None else (low + high) / 2
        shown, warning = shown_value(name, current if current is not None else fallback, fallback)
        value: Any = container.number_input(
            label,
            min_value=low,
            max_value=high,
            value=float(shown),
            step=step,
            format="%.3f",
            disabled=use_fitted,
        )
        # the fitted value in force and the number left as shown: nothing was chosen, the fitted value stays
        unedited = current is None and not differs(float(value), float(shown))
        value = None if use_fitted or unedited else float(value)
        if not use_fitted and current is None and fitted is not None:
            replaced = f"，也替换资料不到 {fitted[1]} 块时的 {fitted[2]:.3f}" if fitted[2] is not None else ""
            container.caption(f"数字不改就点“应用”，仍使用实测拟合值；改了数字，无论资料多少都按你填的门槛{replaced}。")
    elif kind == "int":
        shown, warning = shown_value(name, current, default)
        value = int(container.number_input(label, min_value=int(low), max_value=None if high is None else int(high),
                                           value=int(shown), step=int(step)))
    else:
        shown, warning = shown_value(name, current, default)
        value = float(container.number_input(label, min_value=float(low), max_value=None if high is None else float(high),
                                             value=float(shown), step=float(step),
                                             format="%.3f" if float(step) < 0.1 else "%g"))  # 30, not 30.000 days
    if warning:
        container.warning(warning)
    container.caption(f"{sentence}默认值：{shown_default}（{MEASURED.get(name, '设定值')}）。")
    return value


def fitted_switch(name: str, current: Any) -> bool:
    """The optional threshold's 'use the fitted value' box, outside the form so that ticking it re-runs the page
    and enables or disables the field at once; it takes effect with 应用, like the fields."""
    label = FIELDS[name][0]
    use_fitted = st.checkbox(f"{label}：使用实测拟合值", value=current is None,
                             help="取消勾选后可以在下面的“检索”里填写自己的门槛；勾选与否都在点“应用”后生效。")
    return bool(use_fitted)


def describe(changes: dict[str, Any]) -> str:
    return "，".join(f"{FIELDS[k][0]} = {shown_number(v)}" for k, v in changes.items())


def kept_copy(assistant: Assistant) -> str:
    """Where this save or clear kept the old settings.json, for the flash ("" when nothing needed keeping): the
    start's notice promised the copy, and without its name nobody knew where it went."""
    notice = getattr(assistant, "settings_notice", "")
    return f"；{escape_md(notice)}" if notice else ""


def apply_changes(assistant: Assistant, changes: dict[str, Any], note: str = "") -> None:
    """Apply non-chunking changes at once; hold chunking changes for confirmation. `note` is shown with the flash."""
    if not changes:
        st.info("设置没有变化。")
        return
    if any(k in changes for k in CHUNK_KEYS):
        if problem := chunking_problem(assistant, changes):  # said before anyone is asked to re-index everything
            st.error(f"设置未生效：{problem}")
            return
        st.session_state[PENDING_KEY] = changes
        st.session_state[PENDING_NOTE_KEY] = note  # shown with the question, then with the flash
        st.rerun()
    try:
        assistant.update_settings(**changes, actor=actor())
    except Exception as exc:
        st.error(f"设置未生效：{escape_md(exc)}")
        return
    st.session_state[FLASH_KEY] = "设置已生效：" + describe(changes) + kept_copy(assistant)
    st.session_state[NOTE_KEY] = note
    st.rerun()


def chunking_problem(assistant: Assistant, changes: dict[str, Any]) -> str:
    """Why these changes cannot be applied, in the page's words ("" when they can): asked before the re-index
    question, since a refusal after it came only once the person had agreed to re-cut every document."""
    size = changes.get("chunk_size", assistant.settings.chunk_size)
    overlap = changes.get("chunk_overlap", assistant.settings.chunk_overlap)
    if overlap >= size:
        return (f"{FIELDS['chunk_overlap'][0]}（{shown_number(overlap)}）必须小于{FIELDS['chunk_size'][0]}"
                f"（{shown_number(size)}）。请改小{FIELDS['chunk_overlap'][0]}或改大{FIELDS['chunk_size'][0]}后再点“应用”。")
    try:
        assistant.settings.with_changes(**changes)
    except RagError as exc:
        return escape_md(exc)
    return ""


def apply_form(assistant: Assistant, drawn: dict[str, Any], wanted: dict[str, Any]) -> None:
    """Apply what this person changed on the form, measured against the values it was drawn with.

    Compared with the engine's values instead, a page opened before someone else's change lost its own edit
    ('设置没有变化。') and sent back the stale values of the knobs it did not touch. A knob changed elsewhere since
    is applied as typed here, with a warning naming the value it replaced; untouched knobs keep the new values."""
    now = assistant.settings
    meanwhile = {k: (v, getattr(now, k)) for k, v in drawn.items() if differs(v, getattr(now, k))}
    changes = changed_values(now, {k: v for k, v in wanted.items() if differs(drawn[k], v)})
    elsewhere = "；".join(f"{FIELDS[k][0]} {shown_number(old)} → {shown_number(new)}" for k, (old, new) in meanwhile.items())
    if not changes and meanwhile:
        st.session_state[NOTE_KEY] = (f"你没有修改任何设置。本页打开后，这些设置已在别处被修改（可能是另一位同事）：{elsewhere}；"
                                      "下面显示的已是最新的值，需要时请修改后再点“应用”。")
        st.rerun()
    note = "；".join(
        f"{FIELDS[k][0]}在本页打开后已在别处从 {shown_number(meanwhile[k][0])} 改成 {shown_number(meanwhile[k][1])}，"
        f"现按你填的 {shown_number(v)} 生效，替换了那次修改；如需保留那次的值，请改回后再点“应用”"
        for k, v in changes.items() if k in meanwhile)
    apply_changes(assistant, changes, note)


def mark_submitted() -> None:
    """应用's callback: runs before the page, so `main` draws the form with the values the person edited. A clear
    still asked about is withdrawn: the person chose to change the settings instead (review 337)."""
    st.session_state[SUBMIT_KEY] = True
    st.session_state.pop(CLEAR_KEY, None)


def confirm_rechunk(assistant: Assistant) -> None:
    """Ask before re-chunking; on yes apply the settings and re-index with a progress bar."""
    changes = st.session_state.get(PENDING_KEY)
    if not changes:
        return
    panel = st.empty()
    with panel.container():
        n_docs = len(assistant.list_documents(actor=actor()))
        note = st.session_state.get(PENDING_NOTE_KEY)
        st.warning(
            f"修改{FIELDS['chunk_size'][0]}或{FIELDS['chunk_overlap'][0]}需要把全部 {n_docs} 份文档重新切分并重新索引，"
            "期间检索结果可能不完整。要现在进行吗？\n\n"
            + "，".join(f"{FIELDS[k][0]}：{shown_number(getattr(assistant.settings, k))} → {shown_number(v)}"
                       for k, v in changes.items())
            + (f"\n\n注意：{note}" if note else "")
        )
        yes, no = st.columns(2)
        confirmed = yes.button("确认并重新索引", type="primary")
        cancelled = no.button("取消")
    if cancelled:
        st.session_state.pop(PENDING_KEY, None)
        st.session_state.pop(PENDING_NOTE_KEY, None)
        st.rerun()
    if not confirmed:
        return
    panel.empty()
    st.session_state.pop(PENDING_KEY, None)
    note = st.session_state.pop(PENDING_NOTE_KEY, None)
    try:
        needs_reindex = assistant.update_settings(**changes, actor=actor())
    except Exception as exc:
        st.error(f"设置未生效：{escape_md(exc)}")
        return
    message = "设置已生效：" + describe(changes) + kept_copy(assistant)
    if needs_reindex:
        message += run_reindex(assistant, "已按新设置重新索引")
    st.session_state[FLASH_KEY] = message
    st.session_state[NOTE_KEY] = note  # the change made elsewhere that this one replaced, as without a re-cut
    st.rerun()


def run_reindex(assistant: Assistant, done_text: str) -> str:
    """Re-cut with a progress bar; what it did, for the flash ("" when it cut nothing). What it could not cut (a vector server that is down)
    is kept for an error under the flash: it used to be an exception that replaced the page, with the new chunk size
    saved and nothing cut. `recut_section` then offers 重新切块 until every version is cut."""
    bar = st.progress(0.0, text="正在按新设置重新索引…")
    try:
        total = len(assistant.list_documents(actor=actor()))
        done = assistant.reindex(progress=FileSteps(bar, total, "正在按新设置重新索引"), actor=actor())
    except RagError as exc:
        st.session_state[FAILED_KEY] = f"重新切块没有完成：{escape_md(exc)}。请处理后在本页点“重新切块”再试。"
        return ""
    if done.failed:  # named, so HR knows which documents still have the old chunking
        st.session_state[FAILED_KEY] = f"以下版本未能重新索引，仍按原来的切块检索：{escape_md('；'.join(done.failed))}"
    return f"；{done_text} {done.documents} 个版本，共 {done.chunks} 块。" if done.documents or not done.failed else ""


def recut_section(assistant: Assistant) -> None:
    """重新切块 whenever a live version is cut at another chunk size or overlap than the settings in force: a re-cut
    that stopped (the vector server down) left them so, and there was no way to try again."""
    if st.session_state.get(PENDING_KEY):
        return
    try:
        stale = assistant.versions_to_recut(actor=actor())
    except RagError as exc:
        st.error(escape_md(exc))
        return
    if not stale:
        return
    shown = "、".join(stale[:5]) + (f" 等 {len(stale)} 个版本" if len(stale) > 5 else "")
    st.warning(f"有 {len(stale)} 个版本仍按以前的每段字数或相邻段重复字数切块，检索用的还是旧的切块：{escape_md(shown)}。"
               "上次重新切块可能没有完成（例如向量库服务器连不上）；确认服务器正常后点“重新切块”。")
    if st.button("重新切块", icon=":material/refresh:"):
        if said := run_reindex(assistant, "已按当前设置重新切块"):
            st.session_state[FLASH_KEY] = said.removeprefix("；")
        st.rerun()


def saved_section(assistant: Assistant) -> None:
    """Which knobs this page saved (they override .env at every start), and the way back to .env."""
    saved = assistant.saved_settings
    if not saved:
        return
    shown = "，".join(f"{FIELDS[k][0] if k in FIELDS else k}：{shown_number(v)}" for k, v in saved.items())
    st.info(f"以下设置是在本页保存的（数据目录里的 settings.json），每次启动都优先于 .env 里的同名设置：{shown}")
    # asked first, as 应用 is (review 335: a saved chunk size re-cut the whole library at one click); the question
    # names the saved settings it was asked over, and a confirm over others (saved in another tab) asks again
    recut = [k for k in CHUNK_KEYS if k in saved]
    if st.button("清除本页保存的修改，改回 .env 和默认值", icon=":material/undo:"):
        st.session_state[CLEAR_KEY] = dict(saved)
    asked = st.session_state.get(CLEAR_KEY)
    if not asked:
        return
    if asked != dict(saved):
        st.session_state[CLEAR_KEY] = dict(saved)
        st.warning("本页保存的设置刚在别处改过，请看一遍下面的说明再确认。")
    n_docs = len(assistant.list_documents(actor=actor())) if recut else 0
    st.warning("要清除本页保存的全部修改、改回 .env 和默认值吗？"
               + (f"\n\n其中{'、'.join(FIELDS[k][0] for k in recut)}改回后要把全部 {n_docs} 份文档重新切分并重新索引，"
                  "期间检索结果可能不完整。" if recut else ""))
    yes, no = st.columns(2)
    confirmed, cancelled = yes.button("确认清除", type="primary"), no.button("取消", key="clear_saved_cancel")
    if cancelled or confirmed and asked == dict(saved):
        st.session_state.pop(CLEAR_KEY, None)
    if cancelled:
        st.rerun()
    if confirmed and asked == dict(saved):
        try:  # settings.json that cannot be moved or deleted: the engine says what to do
            needs_reindex = assistant.forget_saved_settings(actor=actor())
        except RagError as exc:
            st.error(escape_md(exc))
            return
        message = "已改回 .env 和默认值" + kept_copy(assistant)
        if needs_reindex:
            message += run_reindex(assistant, "已重新索引")
        st.session_state[FLASH_KEY] = message
        st.rerun()


def _days(value: float, at_zero: str) -> str:
    return f"{at_zero}（0）" if not value else f"{value:g} 天"


def info_section(assistant: Assistant) -> None:
    s = assistant.settings
    st.subheader("运行环境")
    rows = [
        ("回答方式", assistant.llm_status),
        ("大模型接口地址", assistant.llm_address),  # a user:password in it is not shown
        ("大模型名称", s.llm_model_id or "（未设置）"),
        ("大模型接口密钥", mask_secret(s.llm_api_key)),
        ("嵌入模型", s.embedding_model),
        ("第二排序模型", assistant.second_model_status),
        ("向量库", f"向量库服务器 {s.chroma_host}:{s.chroma_port}" if s.chroma_host else "本机（内嵌）"),
        # what 知识缺口 and 使用情况 point to, and the zone every time is shown in (review 395 #6)
        ("时区（页面上的时间都按它显示）", s.timezone),
        ("提问记录保留天数", _days(s.question_retention_days, "不记录提问")),
        ("对话保留天数", _days(s.conversation_retention_days, "一直保留")),
        ("删除的记忆彻底清除前保留天数", _days(s.memory_retention_days, "删除即清除")),
    ]
    st.dataframe(pd.DataFrame(rows, columns=["项目", "值"]), hide_index=True, width="stretch")
    st.caption("大模型、嵌入模型和向量库由管理员在配置文件里设置，修改后需要重启助手。"
               "换了嵌入模型后，下次启动会用新模型把所有文档的向量重建一遍（文档越多越久），"
               "知识缺口里较早的提问也会按新模型重新归组。")
    with st.expander("技术细节"):
        st.caption(f"数据保存在：{escape_md(s.data_dir)}。配置文件中的名称：")
        st.dataframe(pd.DataFrame(
            [("大模型接口密钥", "LLM_API_KEY"), ("大模型接口地址", "LLM_BASE_URL"), ("大模型名称", "LLM_MODEL_ID"),
             ("嵌入模型", "EMBEDDING_MODEL"), ("第二排序模型", "RAG_SECOND_EMBEDDING_MODEL"), ("向量库服务器", "CHROMA_HOST"),
             ("时区", "RAG_TIMEZONE"), ("提问记录保留天数", "RAG_QUESTION_RETENTION_DAYS"),
             ("对话保留天数", "RAG_CONVERSATION_RETENTION_DAYS"), ("删除的记忆彻底清除前保留天数", "RAG_MEMORY_RETENTION_DAYS")]
            + [(FIELDS[k][0], Settings.env_var(k)) for k in FIELDS], columns=["设置", "技术名称"]), hide_index=True, width="stretch")


RESTORE_KEY = "settings_restore_over_env"  # 恢复默认值 asked first: it would write over values .env sets


def restore_defaults(assistant: Assistant, settings: Any, defaults: dict[str, Any], from_env: dict[str, Any]) -> None:
    """The built-in defaults saved on this page. Values .env sets are named and asked about first: saved, they win at
    every start and an edit of .env no longer counts (review 395 #3); 清除本页保存的修改 goes back to .env instead."""
    # only what the restore would change (review 396 #6: it warned when the page had saved the defaults already)
    over = {k: v for k, v in from_env.items()
            if k in defaults and differs(v, defaults[k]) and differs(getattr(settings, k), defaults[k])}
    if st.button("恢复默认值", icon=":material/restart_alt:"):
        if over:
            st.session_state[RESTORE_KEY] = True
        else:
            go_back(assistant, settings, defaults)
    if not over:  # nothing to ask about, or 应用 made the question moot meanwhile (review 397 #8)
        st.session_state.pop(RESTORE_KEY, None)
    if st.session_state.get(RESTORE_KEY):
        named = "，".join(f"{FIELDS[k][0]}（.env 里 {Settings.env_var(k)} = {shown_number(v)}）" for k, v in over.items())
        st.warning(f"恢复默认值会把设置改成程序的实测默认值并保存在本页，以后每次启动都以它为准，覆盖 .env 里的：{named}。"
                   "只想撤销本页保存的修改、回到 .env 的值，请用“清除本页保存的修改”。", icon=":material/warning:")
        sure, cancel = st.columns(2)
        if sure.button("仍然恢复默认值", key="settings_restore_sure"):
            st.session_state.pop(RESTORE_KEY, None)
            go_back(assistant, settings, defaults)
        if cancel.button("取消", key="settings_restore_cancel"):
            st.session_state.pop(RESTORE_KEY, None)
            st.rerun()


def go_back(assistant: Assistant, settings: Any, defaults: dict[str, Any]) -> None:
    changes = changed_values(settings, defaults)
    if changes:  # a clear still asked about is withdrawn, as by 应用; with nothing to change it still stands
        st.session_state.pop(CLEAR_KEY, None)
    apply_changes(assistant, changes)


def main() -> None:
    ensure_chrome()
    assistant = get_assistant()
    settings = assistant.settings
    defaults = type(settings)()
    names = editable(settings)
    st.title("设置")
    st.caption("修改立即对本应用的所有页面生效，无需重启，重启后仍然有效；修改分块参数会先询问，再重新索引。"
               "同一数据目录上另外运行的副本（多副本部署）要重启后才用新设置。")
    if flash := st.session_state.pop(FLASH_KEY, None):
        st.success(flash)
    if failed := st.session_state.pop(FAILED_KEY, None):
        st.error(failed)
    if note := st.session_state.pop(NOTE_KEY, None):
        st.warning(note)
    saved_section(assistant)
    confirm_rechunk(assistant)
    recut_section(assistant)
    # 应用 reads the widgets as they were drawn (their identity is their value); any other run draws the engine's now
    drawn = st.session_state.pop(DRAWN_KEY, None)
    if st.session_state.pop(SUBMIT_KEY, False) and drawn:
        base, fitted = drawn
    else:
        base = {k: getattr(settings, k) for k in names}
        fitted = fitted_values(assistant) if settings.answer_threshold is None else None
    st.session_state[DRAWN_KEY] = (base, fitted)
    optional = [k for k in names if FIELDS[k][1] == "optional"]
    switches = {k: fitted_switch(k, base[k]) for k in optional}
    with st.form("settings_form"):
        wanted: dict[str, Any] = {}
        for group, keys in GROUPS.items():
            st.markdown(f"**{group}**")
            cols = st.columns(3)
            for i, name in enumerate(k for k in keys if k in names):
                wanted[name] = field_input(name, base[name], getattr(defaults, name), cols[i % 3],
                                           fitted=fitted, use_fitted=switches.get(name, False))
        submitted = st.form_submit_button("应用", type="primary", on_click=mark_submitted)
    if submitted:
        for name in optional:  # unticked, number untouched: say why nothing changed (a threshold is set by editing it)
            if not switches[name] and base[name] is None and wanted.get(name) is None:
                st.info(f"{FIELDS[name][0]}的数字没有改，仍使用实测拟合值；要自己定门槛，请改动数字后再点“应用”。")
        apply_form(assistant, base, wanted)
    from_env, saved = assistant.env_settings, assistant.saved_settings
    table = pd.DataFrame(  # cells as text: one float turned every count into 5.0 (review 395 #11)
        [
            {
                "设置": FIELDS[k][0],
                "当前值": shown_number(getattr(settings, k)),
                "来自": "本页保存" if k in saved else f".env（{Settings.env_var(k)}）" if k in from_env else "默认值",
                "实测默认值": shown_number(getattr(defaults, k)),
            }
            for k in names
        ]
    )
    with st.expander("当前值与实测默认值", expanded=False):
        st.dataframe(table, hide_index=True, width="stretch")
    restore_defaults(assistant, settings, {k: getattr(defaults, k) for k in names}, from_env)
    st.divider()
    thesaurus_section(assistant)
    st.divider()
    info_section(assistant)


def thesaurus_section(assistant: Assistant) -> None:
    """HR's own colloquial → policy wording entries, on top of the shipped thesaurus.

    The editor is keyed and remembers the file's text it was filled from: unkeyed, a change on disk (the gap page's
    添加同义词, another person) gave it a new identity, so the typed line was dropped and the page still said
    已保存; the engine's save then wrote over the entry added meanwhile. Now a save is refused when the file
    changed since, with the typed text kept and the file as it is now shown beside it."""
    st.subheader("词表（口语词 → 制度用语）")
    st.caption(
        f"内置 {assistant.thesaurus.shipped_count} 条通用人事用语；"
        "员工常用、制度里却写成别的说法的词，可以在这里补充（每行：口语词、Tab 或空格、制度用语，多个用空格分开）。"
        "与内置同名的口语词以这里为准，保存后立即用于检索。"
    )
    now = assistant.custom_thesaurus(actor=actor())
    base = st.session_state.get(THESAURUS_BASE_KEY)
    # first drawn, reloaded after a save, or nothing typed yet while the file changed elsewhere: the file as it is now
    if st.session_state.pop(THESAURUS_RELOAD_KEY, False) or THESAURUS_KEY not in st.session_state or (
        base != now and st.session_state.get(THESAURUS_KEY) == base
    ):
        st.session_state[THESAURUS_KEY] = st.session_state[THESAURUS_BASE_KEY] = now
    with st.form("thesaurus"):
        text = st.text_area("自定义词表", key=THESAURUS_KEY, height=180, label_visibility="collapsed")
        saved = st.form_submit_button("保存词表")
    # a save that removes entries asks first, naming them (review 395 #1: an emptied editor deleted every entry)
    if saved and (gone := assistant.thesaurus_removals(text, drawn=st.session_state[THESAURUS_BASE_KEY], actor=actor())):
        st.session_state[THESAURUS_CONFIRM_KEY] = (text, gone)
        saved = False
    question = st.empty()  # cleared when the save it asked about is refused (review 396 #4)
    if pending := st.session_state.get(THESAURUS_CONFIRM_KEY):
        if pending[0] != text:  # the editor changed since: the question is about another text
            st.session_state.pop(THESAURUS_CONFIRM_KEY, None)
        else:
            names = "、".join(escape_md(w) for w in pending[1][:20]) + (" 等" if len(pending[1]) > 20 else "")
            asking = question.container()
            asking.warning(f"这次保存会删除 {len(pending[1])} 条自定义词条：{names}。删除后检索不再用它们；"
                           "原词表文件会原样另存一份。确定吗？", icon=":material/warning:")
            sure, cancel = asking.columns(2)
            if cancel.button("取消", key="thesaurus_remove_cancel"):
                st.session_state.pop(THESAURUS_CONFIRM_KEY, None)
                st.rerun()
            saved = sure.button("确认删除并保存", type="primary", key="thesaurus_remove_sure")
    if saved:  # the question is answered: saved, or refused below and gone with it (review 396 #4)
        st.session_state.pop(THESAURUS_CONFIRM_KEY, None)
        question.empty()
        try:
            count = assistant.save_custom_thesaurus(text, actor=actor(), drawn=st.session_state[THESAURUS_BASE_KEY])
        except ThesaurusChanged as exc:
            st.session_state[THESAURUS_BASE_KEY] = exc.current  # a second 保存词表 replaces it, knowingly
            st.error(f"没有保存：{escape_md(exc)}。你改的内容还在上面的框里；现在保存的词表如下，请把其中要保留的词条"
                     "合进框里后再点“保存词表”（再次保存会用框里的内容替换现在的词表）。")
            st.code(exc.current, language=None)
        except RagError as exc:
            st.error(f"没有保存：{escape_md(exc)}")
        else:
            st.session_state[THESAURUS_FLASH_KEY] = f"已保存 {count} 条自定义词条，检索立即使用。"
            st.session_state[THESAURUS_RELOAD_KEY] = True  # the editor shows the file as saved (masked, in order)
            st.rerun()
    if flash := st.session_state.pop(THESAURUS_FLASH_KEY, None):
        st.success(flash)
    if assistant.thesaurus_notice:  # the file on disk was not used whole, or was kept aside by this save
        st.warning(escape_md(assistant.thesaurus_notice), icon=":material/build:")

main()
