"""问答: ask a policy question and see the answer with everything that produced it.

The history lives in session_state so each answer keeps its own trace and rating
across reruns; the facade does all the work.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from typing import Any

import streamlit as st

from rag_core import AskTrace, Assistant
from ui.layout import ensure_chrome
from ui.state import current_role, current_user, get_assistant, history
from ui.trace_view import escape_md, install_citation_links, render_answer, render_trace

_DONE = object()


def ask_streaming(assistant: Assistant, question: str, user: str, role: str) -> AskTrace:
    """Run `ask` in a worker thread and stream its tokens with st.write_stream.

    `ask` only reports tokens through a callback, while st.write_stream wants an
    iterator; a queue bridges the two without touching Streamlit from the worker.
    """
    tokens: queue.Queue[Any] = queue.Queue()
    outcome: dict[str, Any] = {}

    def work() -> None:
        try:
            outcome["trace"] = assistant.ask(question, user=user, role=role, on_token=tokens.put)
        except Exception as exc:  # re-raised in the script thread below
            outcome["error"] = exc
        finally:
            tokens.put(_DONE)

    def stream() -> Iterator[str]:
        while (item := tokens.get()) is not _DONE:
            yield item

    worker = threading.Thread(target=work, name="ask-stream", daemon=True)
    worker.start()
    st.write_stream(stream())
    worker.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["trace"]


def record_rating(turn: int) -> None:
    """st.feedback callback: thumbs 1 -> +1, 0 -> -1; stored with the trace through the facade."""
    value = st.session_state.get(f"feedback_{turn}")
    message = next((m for m in history() if m.get("turn") == turn and m["role"] == "assistant"), None)
    if value is None or message is None or message.get("rating") == value:
        return
    rating = 1 if value == 1 else -1
    try:
        get_assistant().record_feedback(message["trace"], rating, message.get("user") or current_user())
    except Exception as exc:  # a failed write must not lose the conversation
        st.toast(f"评价保存失败：{exc}", icon=":material/warning:")
        return
    message["rating"] = value
    st.toast("已记录评价，谢谢！", icon=":material/check_circle:")


def render_assistant_message(message: dict[str, Any]) -> None:
    """Answer, badge, trace expanders and the 👍/👎 for one stored turn."""
    trace: AskTrace = message["trace"]
    prefix = f"t{message['turn']}"
    render_answer(trace, prefix)
    render_trace(trace, prefix)
    st.feedback("thumbs", key=f"feedback_{message['turn']}", on_change=record_rating, args=(message["turn"],))


def answer_question(question: str) -> None:
    """Ask the facade (streaming when an LLM is configured), render and store the turn."""
    assistant = get_assistant()
    user, role = current_user(), current_role()
    turns = history()
    turn = 1 + max((m.get("turn", 0) for m in turns), default=0)
    turns.append({"role": "user", "content": question, "turn": turn})
    with st.chat_message("user"):
        st.markdown(escape_md(question))
    with st.chat_message("assistant"):
        try:
            if assistant.settings.llm_configured:
                slot = st.empty()
                with slot.container():
                    trace = ask_streaming(assistant, question, user, role)
                slot.empty()
            else:
                with st.spinner("正在检索制度并组织回答…"):
                    trace = assistant.ask(question, user=user, role=role)
        except Exception as exc:  # show the engine's Chinese message instead of a stack trace
            st.error(f"回答失败：{exc}")
            turns.append({"role": "error", "content": f"回答失败：{exc}", "turn": turn})
            return
        message = {"role": "assistant", "content": trace.answer, "trace": trace, "turn": turn, "user": user}
        turns.append(message)
        render_assistant_message(message)


def main() -> None:
    ensure_chrome()
    st.title("制度问答")
    st.caption(
        "回答只来自已导入的公司制度；制度里没有的，会直接说“制度里没有写这一条”。点开答案下方的折叠栏可以看到依据。"
    )
    for message in history():
        if message["role"] == "user":
            with st.chat_message("user"):
                st.markdown(escape_md(message["content"]))
        elif message["role"] == "assistant":
            with st.chat_message("assistant"):
                render_assistant_message(message)
        else:
            with st.chat_message("assistant"):
                st.error(message["content"])
    if history() and st.sidebar.button("清空对话", icon=":material/delete_sweep:"):
        history().clear()
        st.rerun()
    install_citation_links()
    question = st.chat_input("输入制度问题，例如：打车费能报吗？")
    if question and question.strip():
        answer_question(question.strip())


main()
