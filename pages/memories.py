"""记忆管理: see, search, re-weight and prune what the assistant remembers about a user.

Forgetting down to N is two steps (preview, then confirm) because it cannot be undone.
"""

from __future__ import annotations

import hashlib
import json
import re

import pandas as pd
import streamlit as st

from rag_core import MEMORY_KIND_NAMES, Assistant, MemoryHit, RagError
from ui.inert import escape_md
from ui.layout import ensure_chrome, memory_owner
from ui.notices import announce, show_notice
from ui.state import actor, get_assistant, person_name
from ui.tables import WRAP_ROWS
from ui.timefmt import export_for_people
from ui.trace_view import memories_frame

PREVIEW_KEY = "memory_forget_preview"
DELETE_PENDING_KEY = "memory_delete_pending"
DELETE_ROUND_KEY = "memory_delete_round"  # part of the selector's key: a new round starts with no chips
PURGE_PENDING_KEY = "memory_purge_pending"
KINDS = MEMORY_KIND_NAMES  # the engine's names, which the CLI shows too
REMEMBER_RESULTS = {
    "added": "已保存为新记忆",
    "strengthened": "已有相同内容，已提高它的重要度",
    "replaced": "与旧记忆冲突，已用新内容替换旧记忆",
    "trimmed": "已保存为新记忆；旧记忆里与之冲突的那一句已去掉，其余内容保留",
}
MANUAL_KINDS = ["profile", "preference", "episode"]  # interactions are written by the assistant itself
MAX_MEMORY_CHARS = 1000  # the memory store's own limit, said before the engine would refuse
SEARCH_PASTE_BOUND = 200  # the search box holds this many times what the engine searches (its error says why)


def kind_label(kind: str) -> str:
    return KINDS.get(kind, kind)


ADD_TEXT_KEY, ADD_KIND_KEY, ADD_IMPORTANCE_KEY, ADD_ERROR_KEY = "memory_add_text", "memory_add_kind", \
    "memory_add_importance", "memory_add_error"
ADD_DONE_KEY = "memory_add_done"  # said in a toast: a message above the page would shift it and close the expander


def save_new_memory(assistant: Assistant, user: str) -> None:
    """保存记忆 callback: a refusal keeps what was typed, with the reason under it; a save clears the box."""
    content = (st.session_state.get(ADD_TEXT_KEY) or "").strip()
    if not content:
        st.session_state[ADD_ERROR_KEY] = "请先填写记忆内容。"
        return
    if len(content) > MAX_MEMORY_CHARS:
        st.session_state[ADD_ERROR_KEY] = f"记忆内容太长：{len(content)} 字，最多 {MAX_MEMORY_CHARS} 字。"
        return
    try:
        _, action = assistant.remember(user, content, kind=st.session_state.get(ADD_KIND_KEY, MANUAL_KINDS[0]),
                                       importance=st.session_state.get(ADD_IMPORTANCE_KEY), actor=actor())
    except RagError as exc:
        st.session_state[ADD_ERROR_KEY] = f"没有保存：{exc}"
        return
    st.session_state[ADD_TEXT_KEY] = ""
    st.session_state[ADD_DONE_KEY] = REMEMBER_RESULTS.get(action, "已保存")


def add_memory_form(assistant: Assistant, user: str) -> None:
    error = st.session_state.pop(ADD_ERROR_KEY, None)
    if done := st.session_state.pop(ADD_DONE_KEY, None):
        st.toast(done, icon=":material/check_circle:")
    with st.expander("手动添加一条记忆", icon=":material/add:", expanded=error is not None):
        st.text_area("内容", placeholder="例如：我在上海办公室，主要负责招聘。", key=ADD_TEXT_KEY)
        st.caption(f"最多 {MAX_MEMORY_CHARS} 字；手机号、身份证号等个人信息会自动遮盖后再保存。")
        left, right = st.columns(2)
        left.selectbox("类型", options=MANUAL_KINDS, format_func=kind_label, key=ADD_KIND_KEY)
        right.number_input("重要度（可选）", min_value=0.0, max_value=1.0, value=None, step=0.1,
                           placeholder="留空则按类型取默认值", key=ADD_IMPORTANCE_KEY)
        st.button("保存记忆", on_click=save_new_memory, args=(assistant, user))
        if error:
            st.error(escape_md(error))


def matches(memory: MemoryHit, query: str) -> bool:
    """The search box filters by words: a memory is listed when its text holds any word of the query."""
    words = [w for w in re.split(r"[\s,，、;；]+", query.lower()) if w]
    return not words or any(w in memory.content.lower() for w in words)


def owner_label(user: str) -> str:
    """Whose memories, as the page draws it: personal data in a name kept before the engine refused such names is masked."""
    return escape_md(Assistant.shown_text(person_name(user)))


def count_heading(user: str, shown: int, total: int) -> str:
    """共 N 条, and 筛选自 M 条 whenever a search or a kind filter hides some."""
    count = f"共 {shown} 条" + (f"（筛选自 {total} 条）" if shown != total else "")
    return f"{owner_label(user)} 的记忆：{count}"


EDIT_CHOICE_KEY = "memory_edit_choice"
EDIT_LAST_KEY = "memory_edit_last"  # (owner, id) last chosen for editing: when it is deleted elsewhere, what was typed is said


def edit_keys(memory_id: str) -> tuple[str, str]:
    """The edit box's key and the key of the text it was filled from (what the person saw and edited)."""
    return f"memory_edit_text_{memory_id}", f"memory_edit_shown_{memory_id}"


def deleted_elsewhere(user: str, active: set[str]) -> None:
    """The memory chosen for editing was deleted since (another tab, an administrator): its box went with it, and
    what was typed in it went unsaved without a word. Say so, with the typed text to copy."""
    last = st.session_state.get(EDIT_LAST_KEY)
    if not last or last[0] != user or last[1] in active:
        return
    st.session_state.pop(EDIT_LAST_KEY, None)
    text_key, shown_key = edit_keys(last[1])
    typed, shown = st.session_state.pop(text_key, None), st.session_state.pop(shown_key, None)
    if typed and typed.strip() and typed != shown:
        st.warning(f"这条记忆已在别处删除，您输入的内容没有保存：{escape_md(typed)}", icon=":material/warning:")


def edit_text_section(assistant: Assistant, memories: list[MemoryHit], user: str) -> None:
    """Correct what a memory says; the engine masks personal data before storing it. The edit is sent with the
    text it started from: one changed elsewhere since (another tab) is refused and the box refilled, never
    overwritten; a box nobody typed in is refilled with the change at once."""
    by_id = {m.id: m for m in memories}
    with st.expander("修改记忆内容", icon=":material/edit_note:"):
        chosen = st.selectbox("选择要修改的记忆", options=list(by_id), index=None, placeholder="请选择",
                              format_func=lambda i: f"{by_id[i].content[:40]}（{kind_label(by_id[i].kind)}）",
                              key=EDIT_CHOICE_KEY)
        if chosen is None:
            return
        st.session_state[EDIT_LAST_KEY] = (user, chosen)
        text_key, shown_key = edit_keys(chosen)
        now = by_id[chosen].content
        state = st.session_state
        if text_key not in state or (state.get(shown_key) != now and state.get(text_key) == state.get(shown_key)):
            state[text_key] = state[shown_key] = now
        text = st.text_area("新的内容", key=text_key,
                            help=f"最多 {MAX_MEMORY_CHARS} 字；手机号、身份证号等个人信息会自动遮盖后再保存。")
        if not st.button("保存修改", type="primary", key="memory_edit_save"):
            return
        if not text.strip():
            st.error("记忆内容不能为空：请填写内容，或用下面的“删除所选”删除这条记忆。")
            return
        if len(text.strip()) > MAX_MEMORY_CHARS:
            st.error(f"记忆内容太长：{len(text.strip())} 字，最多 {MAX_MEMORY_CHARS} 字。")
            return
        try:
            stored = assistant.update_memory_text(chosen, text, shown=state.get(shown_key), actor=actor())
        except RagError as exc:
            if state.get(shown_key) == now:  # not a change made elsewhere: the typed text stays in the box
                st.error(f"保存失败：{escape_md(exc)}")
                return
            announce("memories", f"没有保存：{escape_md(exc)}\n\n您输入的内容：{escape_md(text)}", kind="warning")
            state.pop(text_key, None)  # refilled with the memory as it is now
            st.rerun()
        masked = "（个人信息已遮盖）" if stored != " ".join(text.split()) else ""
        replaced = getattr(stored, "replaced", ())
        gone = (f"；与它重复或冲突的 {len(replaced)} 条记忆已被替换：{escape_md('；'.join(r[:40] for r in replaced))}"
                if replaced else "")
        kept = getattr(stored, "contradicted", ())  # they say more than the edit: kept for the person to fix
        also = (f"\n\n另有 {len(kept)} 条记忆与此冲突但内容更多，没有删除，请一并修改：{escape_md('；'.join(r[:40] for r in kept))}"
                if kept else "")
        announce("memories", f"已保存修改{masked}：{escape_md(stored[:60])}{gone}{also}")
        state.pop(text_key, None)  # the box shows what was kept, not what was typed
        st.rerun()


def edit_importance(assistant: Assistant, memories: list[MemoryHit]) -> None:
    """Editable importance column; only changed rows are written back."""
    frame = memories_frame(memories)
    edited = st.data_editor(
        frame,
        hide_index=True,
        width="stretch",
        row_height=WRAP_ROWS,  # a long memory wraps instead of ending in "…"
        disabled=[c for c in frame.columns if c != "重要度"],
        column_config={
            "重要度": st.column_config.NumberColumn(
                "重要度", min_value=0.0, max_value=1.0, step=0.05, help="可直接修改"
            ),
            "id": None,
            "相关度": None,
        },
        # keyed by the rows shown, so pending edits never slide onto other rows after a search or save
        key="memory_editor_" + hashlib.sha1("|".join(frame["id"]).encode()).hexdigest()[:10],
    )
    changed = [
        (row_id, float(new))
        for row_id, old, new in zip(frame["id"], frame["重要度"], edited["重要度"], strict=True)
        if pd.notna(new) and abs(float(new) - float(old)) > 1e-9
    ]
    if changed and st.button(f"保存重要度修改（{len(changed)} 条）", type="primary"):
        try:
            for row_id, value in changed:
                assistant.update_memory_importance(row_id, value, actor=actor())
        except Exception as exc:
            st.error(f"保存失败：{escape_md(exc)}")
            return
        st.toast("重要度已更新", icon=":material/check_circle:")
        st.rerun()


def delete_section(assistant: Assistant, memories: list[MemoryHit]) -> None:
    """Choose, confirm, delete; then a fresh selector (no chip of a deleted memory stays behind)."""
    by_id = {m.id: m for m in memories}
    round_no = st.session_state.get(DELETE_ROUND_KEY, 0)
    chosen = st.multiselect(
        "选择要删除的记忆（可多选）",
        options=list(by_id),
        format_func=lambda i: f"{by_id[i].content[:40]}（{kind_label(by_id[i].kind)}）",
        key=f"memory_delete_choice_{round_no}",
        placeholder="请选择",
        select_all=False,
    )
    pending = [i for i in st.session_state.get(DELETE_PENDING_KEY, []) if i in by_id]
    if not pending:
        if st.button("删除所选", icon=":material/delete:", disabled=not chosen):
            st.session_state[DELETE_PENDING_KEY] = list(chosen)
            st.rerun()
        return
    st.warning(
        f"确定删除这 {len(pending)} 条记忆吗？删除后助手不再使用它们：\n\n"
        + "\n".join(f"- {escape_md(by_id[i].content[:60])}" for i in pending)
    )
    yes, no = st.columns(2)
    if yes.button("确认删除", type="primary", key="memory_delete_confirm"):
        try:
            removed = assistant.delete_memories(pending, actor=actor())
        except RagError as exc:  # a busy file or a full disk: said in one line, the selection kept to try again
            st.error(f"删除失败：{escape_md(exc)}")
        else:
            if (st.session_state.get(EDIT_LAST_KEY) or ("", ""))[1] in pending:  # deleted here, not elsewhere
                st.session_state.pop(EDIT_LAST_KEY, None)
            st.session_state.pop(DELETE_PENDING_KEY, None)
            st.session_state.pop(PREVIEW_KEY, None)
            st.session_state[DELETE_ROUND_KEY] = round_no + 1
            announce("memories", f"已删除 {removed} 条记忆。")
            st.rerun()
    if no.button("取消", key="memory_delete_cancel"):
        st.session_state.pop(DELETE_PENDING_KEY, None)
        st.rerun()


def purge_section(assistant: Assistant, user: str, total: int) -> None:
    """Everything the assistant remembers about this user, gone after one confirmation."""
    st.subheader("清空全部记忆")
    st.caption(f"删除助手记住的关于 {owner_label(user)} 的全部 {total} 条记忆，不能撤销。"
               "对话里用到的这些记忆会一并删除；问答页的对话记录里您自己说过的话不在其中：要删除它们，请在问答页删除对应的对话。")
    if st.session_state.get(PURGE_PENDING_KEY) != user:  # none, or armed for another person: never applied to this one
        st.session_state.pop(PURGE_PENDING_KEY, None)
        if st.button("清空全部记忆", icon=":material/delete_forever:", disabled=total == 0):
            st.session_state[PURGE_PENDING_KEY] = user
            st.rerun()
        return
    st.warning(f"确定清空 {owner_label(user)} 的全部 {total} 条记忆吗？此操作不能撤销。")
    yes, no = st.columns(2)
    if yes.button("确认清空", type="primary"):
        try:
            done = assistant.purge_memories(user, actor=actor())
        except RagError as exc:  # nothing purged: the confirmation stays, to try again or cancel
            st.error(f"清空失败：{escape_md(exc)}")
        else:
            purged(user, done)
    if no.button("取消", key="memory_purge_cancel"):
        st.session_state.pop(PURGE_PENDING_KEY, None)
        st.rerun()


def purged(user: str, done) -> None:
    """After 确认清空: the confirmation closed and what was done announced (`Assistant.purge_memories`'s answer)."""
    st.session_state.pop(PURGE_PENDING_KEY, None)
    st.session_state.pop(EDIT_LAST_KEY, None)  # emptied here, not elsewhere
    st.session_state.pop(PREVIEW_KEY, None)
    if done.turns_failed:
        announce("memories", f"已清空 {owner_label(user)} 的全部记忆（{done.count} 条），但对话记录读写出错，"
                 "对话里用到的这些记忆未能删除：请在问答页删除相关对话，或联系管理员修复对话记录。", kind="warning")
    else:
        announce("memories", f"已清空 {owner_label(user)} 的全部记忆（{done.count} 条）。")
    st.rerun()


def forgotten_notice(done, kept_n: int) -> str:
    """What 确认遗忘 did (`Assistant.forget_previewed`'s answer), and, when the memories changed after the preview,
    that only the listed ones went."""
    if not done.changed and done.count == done.listed:
        return f"已遗忘 {done.count} 条记忆，保留得分最高的 {kept_n} 条。"
    parts = [f"已遗忘 {done.count} 条记忆：只遗忘了预览中列出的记忆。"]
    if done.kept_changed:
        parts.append(f"预览中有 {done.kept_changed} 条在预览后被修改过（内容、重要度或又被提及），已保留，没有遗忘。")
    if gone := done.listed - done.count - done.kept_changed:
        parts.append(f"预览中另有 {gone} 条在确认前已被删除，没有再处理。")
    if done.changed:
        parts.append(f"预览之后记忆有变化（例如在别的页面新增或修改了记忆），没有列在预览中的记忆都保留着；"
                     f"如果仍要精简到 {kept_n} 条，请重新预览后再确认。")
    return "".join(parts)


def forget_section(assistant: Assistant, user: str, total: int) -> None:
    """Preview which memories would go (lowest score first) and why, then forget on confirm."""
    st.subheader("精简到 N 条")
    st.caption("按当前得分（重要度 × 新鲜度）保留最高的 N 条，其余遗忘。先预览，确认后才执行。")
    keep = st.number_input("保留条数 N", min_value=0, max_value=max(total, 0), value=max(0, total - 1), step=1)
    if st.button("预览将被遗忘的记忆", icon=":material/visibility:"):
        try:
            st.session_state[PREVIEW_KEY] = (user, int(keep), assistant.preview_forget(int(keep), user=user,
                                                                                         actor=actor()))
        except RagError as exc:
            st.error(f"预览失败：{escape_md(exc)}")
    preview = st.session_state.get(PREVIEW_KEY)
    if preview and preview[0] != user:  # made for another person: 确认遗忘 must never apply it to this one
        st.session_state.pop(PREVIEW_KEY, None)
        preview = None
    if not preview:
        return
    _owner, kept_n, doomed = preview
    if not doomed:
        st.info(f"保留 {kept_n} 条时没有需要遗忘的记忆。")
        return
    st.warning(f"保留 {kept_n} 条时，以下 {len(doomed)} 条将被遗忘（得分最低）：")
    frame = memories_frame(doomed).drop(columns=["id", "相关度"])
    frame["原因"] = [
        f"得分 {m.score:.3f} 排在保留线之后（重要度 {m.importance:.2f}，新鲜度 {m.freshness:.2f}）" for m in doomed
    ]
    st.dataframe(frame, hide_index=True, width="stretch", row_height=WRAP_ROWS, height="content")
    yes, no = st.columns(2)
    if yes.button("确认遗忘", type="primary"):
        # exactly the rows listed above, as listed: a memory added or changed since (another tab, a chat turn) was
        # never shown, so the hits go back with what they showed and a changed one stays
        try:
            done = assistant.forget_previewed(doomed, kept_n, user=user, actor=actor())
        except RagError as exc:  # nothing forgotten: the preview stays, to try again or cancel
            st.error(f"遗忘失败：{escape_md(exc)}")
        else:
            st.session_state.pop(PREVIEW_KEY, None)
            announce("memories", forgotten_notice(done, kept_n))
            st.rerun()
    if no.button("取消"):
        st.session_state.pop(PREVIEW_KEY, None)
        st.rerun()


def export_button(assistant: Assistant, user: str, total: int) -> None:
    """All of this person's memories as a JSON file (masked, as stored): theirs to keep or to check."""
    if not total:
        return
    who = actor()

    def data() -> bytes:  # built on the click, not on every run: an administrator's export is one audit row
        exported = export_for_people(assistant.export_memories(user, actor=who))  # local time, 本机用户 (as chat's)
        return json.dumps(exported, ensure_ascii=False, indent=1).encode("utf-8")

    st.download_button(f"导出全部 {total} 条记忆（JSON）", data=data, file_name="我的记忆.json",
                       mime="application/json", icon=":material/download:", key="export_memories")


def main() -> None:
    ensure_chrome()
    assistant = get_assistant()
    st.title("记忆管理")
    show_notice("memories")
    try:
        user = memory_owner(assistant)  # under the title: whose memories these are
    except RagError as exc:  # memory.sqlite3 damaged: one line naming it, the other pages still work
        st.error(escape_md(exc))
        return
    st.caption(f"当前用户：{owner_label(user)}。记忆只用于个性化回答，不作为制度依据。")
    add_memory_form(assistant, user)
    left, right = st.columns([2, 1])
    # bounded far above the engine's limit: a longer paste is dropped whole by the browser box with no word, one
    # below this arrives and the engine's error says how long it is (as the chat box does)
    query = left.text_input("搜索记忆", placeholder="输入关键词（多个用空格分开），只列出含有这些词的记忆",
                            max_chars=Assistant.MAX_QUESTION_CHARS * SEARCH_PASTE_BOUND)
    try:
        all_memories = assistant.list_memories(user, query=query.strip() or None, actor=actor())
    except RagError as exc:
        st.error(escape_md(exc))
        return
    kinds = sorted({m.kind for m in all_memories})
    chosen_kinds = right.multiselect("按类型筛选", options=kinds, format_func=kind_label, placeholder="全部类型",
                                      select_all=False)
    memories = [m for m in all_memories if (not chosen_kinds or m.kind in chosen_kinds) and matches(m, query)]
    st.subheader(count_heading(user, len(memories), len(all_memories)))
    deleted_elsewhere(user, {m.id for m in all_memories})
    if not memories:
        st.info("没有符合条件的记忆。")
    else:
        edit_importance(assistant, memories)
        edit_text_section(assistant, memories, user)
        delete_section(assistant, memories)
    export_button(assistant, user, len(all_memories))
    st.divider()
    total = len(all_memories)
    forget_section(assistant, user, total)
    st.divider()
    purge_section(assistant, user, total)


main()
