"""问答: ask policy questions in a conversation and see each answer with everything that produced it.

Conversations live in the data dir (the facade's conversation store), not in the
browser session: the open conversation's id is in the address (?c=…), so a refresh
or a restart shows it again with every trace and rating (its most recent turns; 显示更早的对话 draws more). A follow-up (那一线城市呢？)
is searched as the standalone question the facade made of it, shown above the answer.
The sidebar lists the person's conversations: 新对话, rename, delete (confirmed), export.
"""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any

import streamlit as st

from rag_core import AskTrace, Assistant, Formatted, RagError
from rag_core.errors import StoreDamaged
from ui.inert import escape_md, escape_quoted_lines, inert_markdown
from ui.layout import ensure_chrome
from ui.state import (
    CONVERSATION_PARAM,
    WAITING_LIMIT,
    actor,
    answering,
    conversations_answering,
    current_role,
    current_user,
    forget_waiting,
    get_assistant,
    history,
    next_question,
    person_name,
    start_answering,
    wait_turn,
    waiting_questions,
)
from ui.timefmt import export_for_people
from ui.trace_view import install_citation_links, render_answer, render_trace

_DONE = object()
# every session-state key of this page starts with "chat_" (or a widget prefix in ui.state.CHAT_STATE_PREFIXES):
# ui.login drops them all when the person logs out, before anyone else logs in on the tab
NOTICE_KEY = "chat_notice"  # a confirm-then-done message shown after the rerun that follows it
FAILED_KEY = "chat_failed"  # an ask's failure, said after the rerun that asks the next question sent
QUEUE_FULL_KEY = "chat_queue_full"  # a question not kept (WAITING_LIMIT wait already), said after the rerun
TRACES_KEY = "chat_traces"  # (conversation, turn) -> AskTrace of this run, for the rating callback
# answers given while the conversation store could not be read: nowhere else to redraw them from, so this
# browser session keeps them (a rerun, opening 技术细节, would otherwise wipe them off the screen), by
# (user, conversation): only the asker sees them, only in the conversation they were asked in
UNSAVED_KEY = "chat_unsaved"
UNSAVED_NOTE = "这轮问答没有保存（对话记录暂时无法读取）：刷新或关闭页面后就看不到了，需要的话请先复制答案。"
# (conversation, turn) whose 👎 reason or comment was typed after another tab changed the rating: not recorded,
# kept in its boxes (drawn under whatever rating is stored) until a 👎 given here sends it along
PENDING_REASON_KEY = "chat_reason_pending"
SIDEBAR_LIMIT = 30


# -- which conversation ------------------------------------------------------------
def current_conversation() -> str | None:
    return st.query_params.get(CONVERSATION_PARAM) or None


# the conversation this tab last put in the address, until a run the browser sent names it: a question sent before
# the new address reached the browser comes without it, and was asked in a new conversation, without its context
ADDRESS_SENT_KEY = "chat_address_sent"


def switch_to(conversation_id: str | None) -> None:
    """Open a conversation (None: a new one starts with the next question)."""
    if conversation_id:
        st.session_state[ADDRESS_SENT_KEY] = conversation_id
        st.query_params[CONVERSATION_PARAM] = conversation_id
    else:
        st.session_state.pop(ADDRESS_SENT_KEY, None)
        if CONVERSATION_PARAM in st.query_params:
            del st.query_params[CONVERSATION_PARAM]


def catch_up_address() -> None:
    """A question sent with no address while the one this tab put there had not reached the browser: that one.
    Only for a send (a later visit from the menu opens a new chat, as always)."""
    address = st.session_state.pop(ADDRESS_SENT_KEY, None)
    if address and not current_conversation() and sent_next() is not None:
        st.query_params[CONVERSATION_PARAM] = address


# -- questions read from the box --------------------------------------------------------
# A run is stopped at its next Streamlit call when the browser sends again (fast reruns), and the next run reads only
# what was sent last: a question read from the box by a run stopped before its ask started was lost. The box's
# on_submit puts it here before the page runs; it leaves only when handed over (its ask started, waiting its turn,
# refused), so a stopped run's question is the next run's. UI state: a refresh is a new tab, its box empty.
BOX_KEY = "chat_box"
# [{"question", "typed_in": the conversation open when sent (None: a new chat), "conversation": the new one started
# for it, or None}], oldest first
OUTBOX_KEY = "chat_outbox"


def take_from_box() -> None:
    """on_submit of the box: keep what was sent, and the conversation it was typed in (before any of the page runs:
    a click on another conversation right after the send must not carry it there)."""
    text = (st.session_state.get(BOX_KEY) or "").strip()
    if text:
        typed_in = current_conversation() or st.session_state.get(ADDRESS_SENT_KEY)
        st.session_state.setdefault(OUTBOX_KEY, []).append({"question": text, "conversation": None,
                                                            "typed_in": typed_in})


def sent_next() -> dict[str, Any] | None:
    """The oldest question read from the box and not yet handed over."""
    outbox = st.session_state.get(OUTBOX_KEY)
    return outbox[0] if outbox else None


def handed_over(sent: dict[str, Any] | None) -> None:
    """`sent` has been asked, queued or refused: a later run does not take it again."""
    outbox = st.session_state.get(OUTBOX_KEY) or []
    if sent is not None and sent in outbox:
        outbox.remove(sent)


def announce(message: str) -> None:
    st.session_state.setdefault(NOTICE_KEY, []).append(message)


def show_notice() -> None:
    """What the runs before this one left to say. Kept until a run ends without asking the next question
    (`notices_said`): a run that asks one ends in a rerun, which wiped what it drew (a delete's confirmation)."""
    for failed in st.session_state.get(FAILED_KEY, []):
        st.error(failed)
    for message in st.session_state.get(NOTICE_KEY, []):
        st.success(message, icon=":material/check_circle:")
    for refused in st.session_state.get(QUEUE_FULL_KEY, []):
        st.warning(queue_full(refused), icon=":material/block:")
    show_too_long()


def notices_said() -> None:
    """This run drew the notices and did not rerun: said."""
    for key in (FAILED_KEY, NOTICE_KEY, QUEUE_FULL_KEY, TOO_LONG_KEY):
        st.session_state.pop(key, None)


def queue_full(shown: str) -> str:
    """What a person reads when a question sent meanwhile is not kept: which one, and what to do."""
    return (f"已有 {WAITING_LIMIT} 个问题在排队等待回答，这个问题没有加入：“{escape_md(shown)}”。"
            "请等前面的回答写完后再发送（可以先复制下来）。")


def dropped_note(dropped: int) -> str:
    """The questions that waited their turn in a conversation that went away: not asked, so say so."""
    return f"排队等待回答的 {dropped} 个问题没有提问，需要的话请重新发送。" if dropped else ""


# -- asking ------------------------------------------------------------------------
def ask_streaming(assistant: Assistant, question: str, user: str, role: Any, conversation: str,
                  finished: Callable[[], None] | None = None, started: Callable[[], None] = lambda: None) -> AskTrace:
    """Run `ask` in a worker thread and show its tokens as they come.

    `ask` only reports tokens through a callback; a queue bridges it to the script
    thread without touching Streamlit from the worker. The text so far is redrawn
    inert (a model quoting a link or an image from a policy shows it as text).
    `finished` is called by the worker when the ask has ended: a refresh, Back or a click stops this run
    while the worker goes on answering (and storing the turn). `started` is called once the worker runs
    (it has taken `finished` and the question over; until then the caller still owns them).
    """
    asker = actor()  # read in the script thread: the worker has no session
    tokens: queue.Queue[Any] = queue.Queue()
    outcome: dict[str, Any] = {}

    def work() -> None:
        try:
            outcome["trace"] = assistant.ask(
                question, user=user, role=role, on_token=tokens.put, actor=asker, conversation=conversation
            )
        except Exception as exc:  # re-raised in the script thread below
            outcome["error"] = exc
        finally:
            if finished is not None:  # before _DONE: the rerun that follows must not find the ask still listed
                finished()
            tokens.put(_DONE)

    def stream() -> Iterator[str]:
        while (item := tokens.get()) is not _DONE:
            yield item

    worker = threading.Thread(target=work, name="ask-stream", daemon=True)
    worker.start()
    started()  # no Streamlit call between the two: the worker asks it whatever happens to this run
    shown, runs = st.empty(), []
    shown.caption("⏳ 正在检索制度并等待大模型回答…")  # replaced by the answer's first piece (review 363)
    for piece in stream():
        runs = with_piece(runs, piece)
        shown.markdown(streamed_markdown(runs))
    worker.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["trace"]


def with_piece(runs: list[tuple[bool, str]], piece: str) -> list[tuple[bool, str]]:
    """The streamed text as runs of (keeps its markdown, text): a run goes on while its pieces are of one kind."""
    formatted = isinstance(piece, Formatted)
    if runs and runs[-1][0] == formatted:
        return [*runs[:-1], (formatted, runs[-1][1] + piece)]
    return [*runs, (formatted, str(piece))]


def streamed_markdown(runs: list[tuple[bool, str]]) -> str:
    """The text so far, drawn as the stored turn will be: a model's reply or HR's 标准答复 (`Formatted`) with its
    markdown kept, inert; the engine's quotes, notes and refusals shown as written (trace_view)."""
    out, text = [], ""
    for formatted, run in runs:
        at_line_start = not text or text.endswith("\n")
        out.append(inert_markdown(run) if formatted else escape_quoted_lines(run, at_line_start=at_line_start))
        text += run
    return "".join(out)


def answer_question(question: str, conversation: str | None, kept: bool = True,
                    finished: Callable[[], None] | None = None, sent: dict[str, Any] | None = None) -> None:
    """Ask the facade in this conversation (a new one on the first question), then redraw from the store.

    `kept` False: the conversation store cannot be read, so the trace `ask` returned is kept in this
    session (UNSAVED_KEY, under the asker and the conversation) and every run in that conversation draws it.
    `finished`: the question waited its turn and is already listed as being answered (ui.state.next_question).
    `sent`: the question read from the box (OUTBOX_KEY), handed over as its ask starts; the new conversation started
    for it is kept with it, so a run stopped before the ask asks it again there.
    """
    assistant = get_assistant()
    started = conversation is None or bool(sent and sent["conversation"] == conversation)
    conversation = conversation or assistant.new_conversation_id()
    if sent is not None and started:
        sent["conversation"] = conversation
        for later in (st.session_state.get(OUTBOX_KEY) or [])[1:]:  # sent in the same new chat: this one, now
            later["typed_in"] = later["typed_in"] or conversation
    if started:
        st.session_state[ADDRESS_SENT_KEY] = conversation  # (no Streamlit call before it)
    shown = assistant.shown_text(question)  # masked, as it will be kept
    # listed before the address names the conversation: a refresh or Back while the answer is written finds it
    # being answered (load_current), not deleted; ended once the ask has (the streaming worker's, if it runs)
    if finished is None:
        finished = start_answering(current_user(), conversation, shown)
    worker: list[bool] = []  # set when the streaming worker has taken `finished` over
    try:
        with st.chat_message("user"):
            st.markdown(escape_md(shown))
        if started:  # a refresh while the answer is written reopens this conversation, not an empty new one
            switch_to(conversation)
        with st.chat_message("assistant"):
            try:
                if assistant.settings.llm_configured:
                    slot = st.empty()
                    with slot.container():
                        def taken_over() -> None:  # (a session ended before the worker: this run ends the ask)
                            worker.append(True)
                            handed_over(sent)

                        trace = ask_streaming(assistant, question, current_user(), current_role(), conversation,
                                              finished, taken_over)
                    slot.empty()
                else:
                    with st.spinner("正在检索制度并组织回答…"):  # (drawn by a timer: no Streamlit call here)
                        asker = actor()  # (may draw a store notice: a point where the run can be stopped)
                        handed_over(sent)
                        trace = assistant.ask(question, user=asker.user, role=current_role(), actor=asker,
                                              conversation=conversation)
            except Exception as exc:  # show the engine's Chinese message instead of a stack trace
                failed = f"回答失败（“{escape_md(shown)}”）：{escape_md(exc)}"
                if started and not kept_as(assistant, conversation):
                    switch_to(None)  # nothing was kept: the next run must not say the new conversation was deleted
                    for later in st.session_state.get(OUTBOX_KEY) or []:  # sent after it: in a new chat still
                        later["typed_in"] = None if later["typed_in"] == conversation else later["typed_in"]
                # kept until a run that does not rerun draws it (`notices_said`): a send meanwhile stops this one
                st.session_state.setdefault(FAILED_KEY, []).append(failed)
                if sent_next() is None and not waiting_questions(current_user(), conversation):
                    st.error(failed)
                    return
                st.rerun()  # asks the questions sent after it (a watcher ran only while one was asked)
            if not kept:  # nothing to redraw from in the store: the session keeps it for every later run
                unsaved = st.session_state.setdefault(UNSAVED_KEY, {})
                unsaved.setdefault((current_user(), conversation), []).append(trace)
    except Exception:  # a page error before the ask: not taken again by every later run
        handed_over(sent)
        raise
    finally:  # this run asked itself, or was stopped before the worker started: the ask has ended
        if not worker:
            finished()
    st.rerun()  # the sidebar lists the new turn's conversation; the turn is drawn from the store


def kept_as(assistant: Assistant, conversation: str) -> bool:
    """Whether a conversation was stored (a question refused before anything was kept, 问题不能为空, left none)."""
    try:
        assistant.get_conversation(conversation, actor=actor())
    except RagError:
        return False
    return True


# -- one stored turn -----------------------------------------------------------------
def record_rating(conversation: str, turn: int) -> None:
    """st.feedback callback: thumbs 1 -> +1, 0 -> -1; kept with the turn and with the trace for review."""
    value = st.session_state.get(f"feedback_{conversation}_{turn}")
    trace = st.session_state.get(TRACES_KEY, {}).get((conversation, turn))
    if trace is None:
        return
    assistant = get_assistant()
    if value is None:  # the thumb clicked again: the rating is taken back
        try:
            assistant.withdraw_feedback(trace, actor=actor())
        except Exception as exc:  # a failed write must not lose the conversation
            st.toast(f"撤回评价失败：{escape_md(exc)}", icon=":material/warning:")
            return
        st.session_state.get(PENDING_REASON_KEY, set()).discard((conversation, turn))
        st.toast("已撤回评价。", icon=":material/undo:")
        return
    rating = 1 if value == 1 else -1
    pending = st.session_state.setdefault(PENDING_REASON_KEY, set())
    said: dict[str, Any] = {}
    if rating < 0 and (conversation, turn) in pending:  # the reason typed after another tab's change goes along
        said = {"reason": st.session_state.get(f"reason_{conversation}_{turn}") or None,
                "comment": st.session_state.get(f"comment_{conversation}_{turn}") or ""}
    try:
        assistant.rate_turn(conversation, turn, rating, actor=actor())
        assistant.record_feedback(trace, rating, actor=actor(), **said)
    except Exception as exc:  # a failed write must not lose the conversation
        st.toast(f"评价保存失败：{escape_md(exc)}", icon=":material/warning:")
        return
    pending.discard((conversation, turn))
    st.toast("已记录评价，谢谢！", icon=":material/check_circle:")


FEEDBACK_COMMENT_CHARS = 500  # the engine's bound on a comment (a longer one is refused)
# the boxes' own bound, far above the engine's: at max_chars Streamlit's browser box drops a longer paste whole, with no
# word; below this one a long text arrives and the engine's Chinese error says how long it is and what to do. 10× (5,000
# characters) still lost a pasted e-mail of 6,600 (review 376 #2): 200× takes any paste a person makes
PASTE_BOUND = 200


def stored_rating(assistant: Assistant, conversation: str, turn: int) -> int | None:
    """The rating kept with a turn now (another tab may have changed it since this one drew it)."""
    return assistant.turn_rating(conversation, turn, actor=actor())


def changed_elsewhere(rating: int | None) -> str:
    now = "改成了 👍" if (rating or 0) > 0 else "撤回了"
    return f"这条回答的评价已在另一个窗口{now}，原因和说明没有提交，仍留在框里；要提交请在这里再点一次 👎。"


def record_reason(conversation: str, turn: int) -> None:
    """The optional reason and comment of a 👎: update the rating stored for review — only while the stored rating
    is still that 👎 (a stale tab wrote a 👎 for HR over the 👍 another tab gave; the text then waits in its box)."""
    reason = st.session_state.get(f"reason_{conversation}_{turn}") or ""
    comment = st.session_state.get(f"comment_{conversation}_{turn}") or ""
    trace = st.session_state.get(TRACES_KEY, {}).get((conversation, turn))
    if (reason or comment.strip()) and trace is not None:
        assistant = get_assistant()
        pending = st.session_state.setdefault(PENDING_REASON_KEY, set())
        try:
            rating = stored_rating(assistant, conversation, turn)
            if (rating or 0) >= 0:
                pending.add((conversation, turn))
                st.toast(changed_elsewhere(rating), icon=":material/sync_problem:")
                return
            assistant.record_feedback(trace, -1, actor=actor(), reason=reason or None, comment=comment)
        except Exception as exc:  # a failed write must not lose the conversation
            st.toast(f"原因保存失败：{escape_md(exc)}", icon=":material/warning:")
            return
        pending.discard((conversation, turn))
        st.toast("已记录，谢谢！HR 会在“反馈审阅”里看到。", icon=":material/check_circle:")


def undo_statement(conversation: str, turn: int) -> None:
    """Forget what a statement turn remembered (button callback)."""
    try:
        undone = get_assistant().undo_acknowledged(conversation, turn, actor=actor())
    except Exception as exc:
        st.toast(f"撤销失败：{escape_md(exc)}", icon=":material/warning:")
        return
    announce(undone_notice(undone.deleted, undone.kept_before, undone.edited))


def undone_notice(deleted: int, kept_before: int, edited: int = 0) -> str:
    """What an undo did: a restatement's facts were told before and stay stored, so they are not called deleted;
    facts the person edited on the memories page after the turn stay as edited."""
    if not kept_before and not edited:
        return f"已撤销：刚才记住的 {deleted} 条信息已删除。"
    also = f"另外 {deleted} 条是这次新记住的，已删除。" if deleted else ""
    kept = [f"{kept_before} 条以前就记住了，仍然保留"] if kept_before else []
    kept += [f"{edited} 条在撤销前已由您手动修改过，按修改后的内容保留"] if edited else []
    return f"已撤销：这次说的没有保存；其中 {'；'.join(kept)}，可在“记忆管理”页删除。{also}"


def render_exchange(trace: AskTrace, prefix: str, footer: Callable[[], None], conversation: str | None = None,
                    at: str | None = None) -> None:
    """The question, then the answer with its trace, the statement's undo (a stored turn: `conversation`) and
    `footer` in the answer's bubble. `at`: when a stored turn was answered (its memories' ages are of then)."""
    with st.chat_message("user"):
        st.markdown(escape_md(trace.question))
    with st.chat_message("assistant"):
        if trace.search_question and trace.search_question != trace.question:
            st.caption(f"原问题：{escape_md(trace.question)} → 检索用的问题：{escape_md(trace.search_question)}")
        if trace.memory_search:  # the asker's memories picked the clauses: say so, with what was searched
            st.caption(f"检索时加上了记住的个人信息：{escape_md(trace.memory_search)}")
        render_answer(trace, prefix)  # then render_trace: the one verdict (answered, weak, refused, 标准答复)
        if trace.acknowledged and conversation:
            st.button("撤销：不要记住这些", key=f"undo_{conversation}_{trace.turn}", icon=":material/undo:",
                      on_click=undo_statement, args=(conversation, trace.turn))
        if trace.search.query or trace.hit_count:  # a statement searched nothing: no evidence to show
            render_trace(trace, prefix, at)
        elif trace.answer != Assistant.HIDDEN_TURN:  # a turn hidden from its reader now says only that
            st.caption("这句话是关于您的信息，没有检索制度；记住的内容可以在“记忆管理”里查看和删除。")
        footer()


def render_unsaved(user: str, conversation: str | None) -> None:
    """The answers `user` was given in `conversation` that the store could not keep: shown as given, each saying
    it was not saved (another person's, or another conversation's, are not drawn)."""
    if conversation is None:
        return
    for index, trace in enumerate(st.session_state.get(UNSAVED_KEY, {}).get((user, conversation), [])):
        render_exchange(trace, f"u{index}", lambda: st.caption(UNSAVED_NOTE))


def render_turn(conversation: str, trace: AskTrace, rating: int | None, kept: Any = None, at: str | None = None) -> None:
    """A stored turn: its exchange, with the 👍/👎 under the answer (and `kept`, the reason given with a 👎)."""
    render_exchange(trace, f"t{trace.turn}", lambda: render_rating(conversation, trace, rating, kept), conversation,
                    at)
    st.session_state.setdefault(TRACES_KEY, {})[(conversation, trace.turn)] = trace


def own_feedback(assistant: Assistant, conversation: Any) -> dict[int, Any]:
    """The reasons and comments the asker gave with this conversation's 👎s (none read when there is no 👎).

    A refresh starts a new session: without them the boxes under a kept 👎 came back empty, as if lost."""
    if not any((turn.rating or 0) < 0 for turn in conversation.turns):
        return {}
    try:
        return assistant.turn_feedback(conversation.id, actor=actor())
    except Exception:  # the insights store damaged (main shows its notice): the 👎 still shows, its reason not
        return {}


def render_rating(conversation: str, trace: AskTrace, rating: int | None, kept: Any = None) -> None:
    """The 👍/👎 of a stored turn and, under a 👎, its optional reason and comment.

    The thumbs show the stored rating on every run, not only on the first: another tab on this conversation
    may have rated or taken it back since (and a rating whose write failed shows what was kept). The reason
    and comment boxes start from what was kept (`kept`) when this session has not drawn them yet."""
    key = f"feedback_{conversation}_{trace.turn}"
    stored = None if not rating else 1 if rating > 0 else 0  # st.feedback's thumbs: 1 is 👍, 0 is 👎
    if st.session_state.get(key) != stored:
        st.session_state[key] = stored
    st.feedback("thumbs", key=key, on_change=record_rating, args=(conversation, trace.turn))
    waiting = (conversation, trace.turn) in st.session_state.get(PENDING_REASON_KEY, set())
    if waiting and stored != 0:  # typed after another tab changed the rating: kept in the boxes, not recorded
        st.caption(changed_elsewhere(rating))
    if st.session_state.get(key) == 0 or waiting:
        reasons = get_assistant().feedback_reasons
        if kept is not None and kept.rating < 0:
            reason_key, comment_key = f"reason_{conversation}_{trace.turn}", f"comment_{conversation}_{trace.turn}"
            if reason_key not in st.session_state and kept.reason in reasons:
                st.session_state[reason_key] = kept.reason
            if comment_key not in st.session_state and kept.comment:
                st.session_state[comment_key] = kept.comment[:FEEDBACK_COMMENT_CHARS]  # a text box, so inert
        st.selectbox("👎 原因（可选）", reasons, index=None, placeholder="选择原因",
                     key=f"reason_{conversation}_{trace.turn}", on_change=record_reason,
                     args=(conversation, trace.turn))
        st.text_input("补充说明（可选）", key=f"comment_{conversation}_{trace.turn}",
                      max_chars=FEEDBACK_COMMENT_CHARS * PASTE_BOUND,
                      placeholder="例如：我问的是子女结婚，回答讲的是本人婚假", on_change=record_reason,
                      args=(conversation, trace.turn))


# -- the sidebar -------------------------------------------------------------------
SHOWN_KEY = "chat_conversations_shown"  # how many conversations the sidebar lists (UI state: more on request)


def show_more() -> None:
    st.session_state[SHOWN_KEY] = st.session_state.get(SHOWN_KEY, SIDEBAR_LIMIT) + SIDEBAR_LIMIT


def render_sidebar(assistant: Assistant, conversations: list, current: Any | None) -> None:
    """新对话, the conversation list, and rename / delete / export for the open one."""
    with st.sidebar:
        st.divider()
        st.subheader("我的对话")
        st.button("新对话", icon=":material/add_comment:", key="new_conversation", on_click=switch_to, args=(None,),
                  width="stretch")
        shown = st.session_state.get(SHOWN_KEY, SIDEBAR_LIMIT)
        listed = conversations[:shown]
        if current is not None and all(conv.id != current.id for conv in listed):
            listed.append(current)  # the open one is always listed, however old
        for conv in listed:
            is_open = current is not None and conv.id == current.id
            st.button(escape_md(conv.title), key=f"open_{conv.id}", type="primary" if is_open else "secondary", width="stretch",
                      on_click=switch_to, args=(conv.id,), help=f"共 {conv.turn_count} 轮")
        if len(conversations) > shown:  # every conversation can be opened, renamed and deleted (review 209)
            st.button(f"显示更早的对话（还有 {len(conversations) - shown} 个）", key="more_conversations",
                      icon=":material/expand_more:", width="stretch", on_click=show_more)
        if current is not None:
            render_current_actions(assistant, current)
        if conversations:
            st.download_button("导出我的全部对话（JSON）", data=history_export(assistant, current_user(), actor()),
                               file_name="我的对话记录.json", mime="application/json", icon=":material/download:",
                               key="export_history", width="stretch")
        days = assistant.settings.conversation_retention_days
        keep = f"超过 {days:g} 天没有使用的对话会自动删除。" if days else "对话会一直保留，直到您删除。"
        st.caption(f"对话保存在本机的数据目录里，刷新或重启后仍在。{keep}")


def history_export(assistant: Assistant, user: str, asker: Any):
    """The JSON of every conversation, built only when 导出 is clicked: built on every rerun, 100 conversations
    of 10 turns cost 1.4 s and 15 MB per click anywhere on the page."""

    def build() -> str:
        history = export_for_people(assistant.export_history(user, actor=asker))
        return json.dumps(history, ensure_ascii=False, indent=1)

    return build


RENAME_ERROR_KEY = "chat_rename_error"


def rename(assistant: Assistant, conversation_id: str) -> None:
    """The 保存标题 callback: rename, then close the popover and say so (an error keeps it open, with the reason)."""
    title = st.session_state.get(f"title_{conversation_id}", "")
    try:
        assistant.rename_conversation(conversation_id, title, actor=actor())
        stored = assistant.get_conversation(conversation_id, actor=actor()).title  # masked: 李娜 [手机号] 的报销
    except Exception as exc:
        st.session_state[RENAME_ERROR_KEY] = str(exc)
        return
    st.session_state[f"rename_popover_{conversation_id}"] = False
    st.session_state[f"title_{conversation_id}"] = stored  # the box shows what was kept, not what was typed
    announce(f"已重命名为“{escape_md(stored)}”。")


def render_current_actions(assistant: Assistant, current: Any) -> None:
    st.caption(f"当前对话：{escape_md(current.title)}")
    # the popover tracks its open state so a successful save can close it (set in the button's callback)
    with st.popover("重命名", icon=":material/edit:", width="stretch", key=f"rename_popover_{current.id}",
                    on_change="rerun"):
        st.text_input("新标题", value=current.title, key=f"title_{current.id}", max_chars=60)
        st.button("保存标题", key=f"rename_{current.id}", on_click=rename, args=(assistant, current.id))
        if error := st.session_state.pop(RENAME_ERROR_KEY, None):
            st.error(escape_md(error))
    with st.popover("删除", icon=":material/delete:", width="stretch"):
        # the questions leave HR's question log too (`delete_conversation`); HR's review keeps its own copy of every
        # rated turn (`record_feedback`), which the delete leaves (a 👎 is also listed under 知识缺口)
        st.warning("删除后，这个对话的问答和依据记录会一起删除，HR 的提问记录（知识缺口、使用统计）里也不再保留这些问题，"
                   "无法恢复。已经给出的评价（👍/👎）不会删除：被评价的那一问一答会保留在“反馈审阅”里"
                   "（👎 也列在“知识缺口”里），供 HR 查看。")
        if st.button("确认删除", type="primary", key=f"delete_{current.id}"):
            gone = assistant.delete_conversation(current.id, actor=actor())
            # asked later (by this tab or another still on its address), they stored it again under its id
            dropped = forget_waiting(current_user(), current.id)
            switch_to(None)
            announce(f"已删除对话“{escape_md(current.title)}”（{gone} 轮问答）。{dropped_note(dropped)}")
            st.rerun()
    asker = actor()

    def markdown() -> str:  # built when clicked, on Streamlit's thread for it (no session there: asker is read here)
        text = assistant.export_conversation_markdown(current.id, actor=asker)
        # the engine writes the stored name; the desktop default reads 本机用户 (see person_name)
        return text.replace(f"- 用户：{current.user}\n", f"- 用户：{person_name(current.user)}\n", 1)

    # "ignore": a click needs no rerun, and a rerun while the file is built replaced its deferred id (CI, stop 69)
    st.download_button("导出本对话（Markdown）", data=markdown, file_name=f"对话-{current.id}.md", mime="text/markdown",
                       icon=":material/download:", key="export_markdown", width="stretch", on_click="ignore")


# -- the page ------------------------------------------------------------------------
ANSWERING_NOTE = "正在回答上一个问题…请稍候再刷新：回答写完后会自动显示在这里，也可以点“刷新”。"
WAITING_NOTE = "上一个问题还在回答，这个问题会接着回答："


def render_answering(user: str, conversation: str | None, in_flight: bool = True) -> bool:
    """The questions still being answered in the open conversation (a refresh, Back, another tab or a question sent
    meanwhile), then those waiting their turn: shown with a notice, redrawn from the store once their turns land.
    True while any is (`in_flight` False: this run is asking the next one itself, drawn by answer_question)."""
    questions = answering(user, conversation) if conversation and in_flight else []
    waiting = waiting_questions(user, conversation) if conversation else []
    if not questions and not waiting:
        return False
    for question in questions:  # masked when listed
        with st.chat_message("user"):
            st.markdown(escape_md(question))
    if questions:
        with st.chat_message("assistant"):
            st.info(ANSWERING_NOTE, icon=":material/hourglass_top:")
            st.button("刷新", key="chat_answering_refresh", icon=":material/refresh:")
    for question in waiting:  # masked when kept
        with st.chat_message("user"):
            st.markdown(escape_md(question))
        with st.chat_message("assistant"):
            st.info(WAITING_NOTE + escape_md(question), icon=":material/schedule:")
    if in_flight:  # (a run asking one itself reruns when it ends: watching, it reran before asking, for good)
        watch_answering(user, conversation)  # also after a waiting question whose ask failed: the next one is asked
    return True


@st.fragment(run_every=2)
def watch_unlisted(user: str, unlisted: tuple[str, ...]) -> None:
    """Every 2 s: a conversation left while its first answer was written is stored, and listed, only when that ends;
    then the whole page runs again and lists it (review 393 #2: it looked lost until another click)."""
    if not conversations_answering(user) & set(unlisted):
        st.rerun()


@st.fragment(run_every=2)
def watch_answering(user: str, conversation: str | None) -> None:
    """Every 2 s: once the ask has ended, the whole page runs again and draws the stored turn."""
    if conversation and not answering(user, conversation):
        st.rerun()


def mirror_history(traces: list[AskTrace], ratings: dict[int, int | None]) -> None:
    """The open conversation as session-state messages too (what other pages and tests read)."""
    messages = history()
    messages.clear()
    for trace in traces:
        rating = ratings.get(trace.turn)
        messages.append({"role": "user", "content": trace.question, "turn": trace.turn})
        messages.append({"role": "assistant", "content": trace.answer, "trace": trace, "turn": trace.turn,
                         "rating": None if rating is None else int(rating > 0)})


TOO_LONG_KEY = "chat_too_long"  # (the engine's refusal, the masked text) until a run draws them and does not rerun


def too_long(assistant: Assistant, question: str, *, rerun_follows: bool) -> bool:
    """A question the engine would refuse for its length: say why in its words and show what was typed to shorten
    (the box has been cleared). Kept for the next run when this one ends in a rerun (a waiting question answered
    next), which would wipe what it drew."""
    problem = assistant.question_too_long(question)
    if not problem:
        return False
    # masked, as every echo of a question; a list: two pastes refused in a row are both shown back
    refused = (problem, assistant.shown_text(question))
    st.session_state.setdefault(TOO_LONG_KEY, []).append(refused)
    if not rerun_follows:
        show_refused(*refused)
    return True


def show_too_long() -> None:
    for problem, shown in st.session_state.get(TOO_LONG_KEY, []):  # kept until a run that does not rerun
        show_refused(problem, shown)


def show_refused(problem: str, shown: str) -> None:
    st.error(f"{problem}：您输入的内容在下面，可以复制后删短再发送。", icon=":material/error:")
    st.code(shown, language=None, wrap_lines=True)


GONE_NOTE = "这个对话不存在或已被删除，已为您开始一个新对话。"
# said after the rerun that follows the answer: a follow-up typed in a tab whose conversation went away
ASKED_AFTER_GONE = ("原来的对话已不存在（可能已在其他窗口删除），刚才的问题已在新对话里回答，没有参考之前的对话内容；"
                    "如果它是接着之前问的，请把要问的内容说完整后再问一次。")


TURNS_SHOWN = 50  # a conversation opens on its most recent turns: thousands drawn on every run took minutes
TURNS_SHOWN_KEY = "chat_turns_shown"  # (conversation, how many of its recent turns are drawn): UI state only


def turns_shown(conversation_id: str) -> int:
    """How many recent turns of the open conversation are drawn (more after 显示更早的对话; a refresh: the recent)."""
    shown = st.session_state.get(TURNS_SHOWN_KEY)
    return shown[1] if shown and shown[0] == conversation_id else TURNS_SHOWN


def show_earlier(conversation_id: str) -> None:
    st.session_state[TURNS_SHOWN_KEY] = (conversation_id, turns_shown(conversation_id) + TURNS_SHOWN)


def render_earlier(current: Any, drawn: int) -> None:
    """Above the drawn turns: how many earlier ones are not drawn, and the button that draws more of them."""
    if current is None or drawn >= current.turn_count:
        return
    left = current.turn_count - drawn
    st.caption(f"这个对话共 {current.turn_count} 轮问答，下面是最近的 {drawn} 轮。")
    st.button(f"显示更早的对话（还有 {left} 轮）", key="chat_earlier_turns", icon=":material/expand_less:",
              on_click=show_earlier, args=(current.id,))


def load_current(assistant: Assistant) -> tuple[Any | None, list[AskTrace], str | None]:
    """The conversation the address names, with its most recent traces (`turns_shown`); a stale or foreign id
    starts a new one. The third part is None, or (the id was gone) what was dropped with it: a question asked in
    this run says so after its rerun."""
    conversation_id = current_conversation()
    if not conversation_id:
        return None, [], None
    # read first: an ask ends after its turn is stored, so an id neither stored nor listed here is gone
    sent = sent_next()  # or started by this tab for a question whose run was stopped before its ask: asked now
    being_answered = bool(answering(current_user(), conversation_id)) or bool(sent and sent["conversation"]
                                                                           == conversation_id)
    try:
        return *assistant.open_conversation(conversation_id, actor=actor(), last=turns_shown(conversation_id)), None
    except StoreDamaged:  # shown once by main; the conversation may well still be there after a repair
        return None, [], None
    except Exception:  # deleted, purged by retention, or another person's: say so and start afresh
        if being_answered:  # its first answer is still being written (a refresh or Back meanwhile): stored then
            return None, [], None
        # deleted in another replica or by the CLI, or its first ask failed: what waited its turn there is not asked
        dropped = forget_waiting(current_user(), conversation_id)
        switch_to(None)
        st.info(f"{GONE_NOTE}{dropped_note(dropped)}", icon=":material/info:")  # the page opened on a gone address
        return None, [], dropped_note(dropped)


def main() -> None:
    ensure_chrome()
    assistant = get_assistant()
    st.title("制度问答")
    st.caption(
        "回答只来自已导入的公司制度；制度里没有的，会直接说“制度里没有写这一条”。可以接着上一句追问，"
        "例如先问“出差住宿标准是多少？”再问“那一线城市呢？”。点开答案下方的折叠栏可以看到依据。"
    )
    catch_up_address()
    show_notice()
    sent = sent_next()
    # asked where it was typed: in the conversation then open, or the new one started for it by a run stopped before
    # its ask (the address missed it); a click on another conversation right after the send waits for the answer
    if sent is not None and (sent["conversation"] or sent["typed_in"]) != current_conversation():
        switch_to(sent["conversation"] or sent["typed_in"])
    try:
        conversations, kept = assistant.list_conversations(current_user(), actor=actor()), True
    except StoreDamaged as exc:  # conversations.sqlite3: answers still work, they are only not kept
        st.warning(f"{escape_md(exc)}。对话记录暂时无法读取：仍然可以提问，但这次的问答不会保存。",
                   icon=":material/warning:")
        conversations, kept = [], False
    current, traces, gone = load_current(assistant) if kept else (None, [], None)
    render_sidebar(assistant, conversations, current)
    # only one this tab has left: the one it is in, or put in an address the browser has not sent back yet, is
    # watched by its own page run (watch_answering); two watchers reran the page twice as its answer ended
    listed = {c.id for c in conversations} | {current_conversation(), st.session_state.get(ADDRESS_SENT_KEY)}
    if unlisted := tuple(sorted(conversations_answering(current_user()) - listed)):
        watch_unlisted(current_user(), unlisted)
    # the turns drawn are the recent ones read (`load_current`): their ratings and kept reasons come with them
    ratings = {t.turn: t.rating for t in current.turns} if current is not None else {}
    answered_at = {t.turn: t.created_at for t in current.turns} if current is not None else {}
    st.session_state[TRACES_KEY] = {}
    mirror_history(traces, ratings)
    given = own_feedback(assistant, current) if current is not None else {}
    render_earlier(current, len(traces))
    for trace in traces:
        render_turn(current.id, trace, ratings.get(trace.turn), given.get(trace.turn), answered_at.get(trace.turn))
    render_unsaved(current_user(), current.id if current is not None else current_conversation())
    address = current_conversation()
    # a question that waited its turn (sent while the answer before it was written) is asked by this run — only in a
    # conversation found stored now (its first ask ended since load_current looked: the next run looks again)
    follow = next_question(current_user(), address) if kept and address and current is not None else None
    try:
        asks_here = follow is not None or bool(sent and sent["conversation"])  # (the one started for it: below)
        waiting = render_answering(current_user(), address, not asks_here) if kept else False
        install_citation_links()
        # never disabled: a disabled box returns None, and Streamlit's fast reruns run the page again while an answer
        # is written, so a question sent then was cleared from the box and lost; it waits its turn instead
        st.chat_input("输入制度问题，或告诉我关于您的信息，例如：打车费能报吗？", key=BOX_KEY, on_submit=take_from_box,
                      max_chars=Assistant.MAX_QUESTION_CHARS * PASTE_BOUND)
    except BaseException:  # this run stopped (a click, a refresh): the question taken waits again, first in line
        if follow is not None:
            wait_turn(current_user(), address, follow[0], follow[1], first=True)
            follow[2]()
        raise
    # the store unreadable, or the first answer still written: the conversation the address names
    conversation = current.id if current is not None else address if not kept or waiting or follow else None
    # `sent`: taken from the box before this run, or by a run stopped before it was handed over
    if sent is not None and sent["conversation"]:
        conversation = sent["conversation"]  # the new conversation started for it
    question = sent["question"] if sent is not None else ""
    # too long: refused here, before a conversation is started for it or it waits its turn
    more = len(st.session_state.get(OUTBOX_KEY) or []) > 1  # sent after it: asked by the rerun, the refusal kept
    if question and too_long(assistant, question, rerun_follows=follow is not None or more):
        handed_over(sent)
        if more and follow is None:
            st.rerun()
    elif question:
        # asked after the answers before it (a follow-up needs them); one a new conversation was started for is
        # the first there: asked now
        if conversation and (waiting or follow) and not sent["conversation"]:
            masked = assistant.shown_text(question)
            if not wait_turn(current_user(), conversation, question, masked):
                st.session_state.setdefault(QUEUE_FULL_KEY, []).append(masked)
            handed_over(sent)
            if follow is None:
                st.rerun()  # drawn waiting its turn, with the notice
        else:
            if gone is not None:  # the address named a conversation gone meanwhile: the notice outlives the rerun
                announce(f"{ASKED_AFTER_GONE}{gone}")
            answer_question(question, conversation, kept, sent=sent)
    if follow is not None:
        answer_question(follow[0], address, kept, follow[2])
    notices_said()

main()
