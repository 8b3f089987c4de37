"""The chrome every page shares: page config and the sidebar (who is asking, which answerer).

`app.py` draws it before running the selected page. Because the repo keeps its pages
in `pages/`, Streamlit can also run a page file directly (its legacy multipage mode
decides this per process: the first request of a fresh server that deep-links to a
page, and every AppTest page switch). `ensure_chrome` lets a page draw the chrome
itself in that case, so the sidebar is never missing and never drawn twice, and the
menu is drawn here with page links so it always shows the Chinese titles.
"""

from __future__ import annotations

import streamlit as st

from rag_core import Assistant
from ui.state import (
    DEFAULT_USER,
    ROLE_KEY,
    ROLE_LABELS,
    USER_KEY,
    current_role,
    current_user,
    get_assistant,
    init_session,
)

_ENTRY_FLAG = "_chrome_drawn_by_entry"

# (file, title, icon, permission) of every page, in menu order; app.py builds st.navigation
# from it. The permission (see rag_core/facade/access.py) decides who sees the page in the
# menu; the facade checks it again on every action, so hiding is comfort, not control.
PAGES: list[tuple[str, str, str, str]] = [
    ("pages/chat.py", "问答", ":material/chat:", "ask"),
    ("pages/documents.py", "文档管理", ":material/folder_open:", "documents.manage"),
    ("pages/memories.py", "记忆管理", ":material/psychology:", "memories.own"),
    ("pages/retrieval_test.py", "检索测试", ":material/manage_search:", "retrieval.test"),
    ("pages/settings.py", "设置", ":material/settings:", "settings"),
]


def render_chrome() -> Assistant:
    """Page config, session defaults, the cached facade and the sidebar."""
    st.set_page_config(page_title="HR 制度助手", page_icon=":material/policy:", layout="wide")
    init_session()
    assistant = get_assistant()
    with st.sidebar:
        # Our own menu (Streamlit's is hidden in config.toml): in legacy mode Streamlit would
        # list the raw file names (chat, documents, …) instead of these titles.
        for path, title, icon, _permission in PAGES:
            st.page_link(path, label=title, icon=icon)
        st.divider()
        st.subheader("当前提问人")
        # Key-less widgets fed from plain session keys: a keyed widget's identity includes
        # the script that draws it, so its value would reset whenever a page draws the chrome.
        st.session_state[USER_KEY] = st.text_input(
            "用户名", value=st.session_state[USER_KEY], help=f"记忆按用户名分别保存；留空则使用 {DEFAULT_USER}。"
        )
        roles = list(ROLE_LABELS)
        st.session_state[ROLE_KEY] = st.selectbox(
            "身份",
            options=roles,
            index=roles.index(current_role()),
            format_func=ROLE_LABELS.__getitem__,
            help="决定能检索到哪些文档：员工只看全员可见的制度，HR 和管理者还能看到面向自己的制度。",
        )
        st.caption(f"记忆归属：{current_user()}")
        st.divider()
        if assistant.settings.llm_configured:
            st.success(assistant.llm_status, icon=":material/smart_toy:")
        else:
            st.info(assistant.llm_status, icon=":material/offline_bolt:")
            st.caption("答案直接摘录制度原文中最相关的句子，并标注出处。")
    return assistant


def mark_drawn_by_entry() -> None:
    """Called by app.py right before `page.run()`."""
    st.session_state[_ENTRY_FLAG] = True


def ensure_chrome() -> None:
    """First call of every page: draw the chrome unless app.py already did in this run."""
    if not st.session_state.pop(_ENTRY_FLAG, False):
        render_chrome()
