"""The one facade instance per configuration, and the session-state keys every page shares.

The facade holds the embedding model, the Chroma client and the BM25 index, so it is
built once per process with `st.cache_resource`. Its key is the `Settings` object that
`Settings.from_env` builds (environment, then `.env`) — the same rule as the CLI — so
a data dir set only in `.env` is the store the app opens on its first and every
later run, and tests that point `RAG_DATA_DIR` at a temp dir get their own facade.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from rag_core import Assistant, Settings

# Roles as the engine knows them (audience labels) -> what a person reads.
ROLE_LABELS: dict[str, str] = {"all": "员工", "hr": "HR", "managers": "管理者"}
AUDIENCE_LABELS: dict[str, str] = {"all": "全体员工", "hr": "HR", "managers": "管理者"}

USER_KEY = "user_name"
ROLE_KEY = "role"
HISTORY_KEY = "chat_history"
DEFAULT_USER = "default"


def app_settings() -> Settings:
    """The settings the CLI would use here: environment first, then `.env`, data dir made absolute."""
    settings = Settings.from_env()
    return settings.with_changes(data_dir=settings.data_dir.resolve())


@st.cache_resource(show_spinner="正在加载嵌入模型并索引示例制度（首次启动需要一点时间）…")
def open_assistant(settings: Settings) -> Assistant:
    """Build the facade and index the sample policies on a fresh store (no-op otherwise)."""
    assistant = Assistant(settings)
    assistant.ensure_samples()
    return assistant


STORE_NOTICES_KEY = "store_notices_shown"


def get_assistant() -> Assistant:
    """The facade for the current configuration; stops the page with a readable error if it fails."""
    try:
        assistant = open_assistant(app_settings())
    except Exception as exc:  # any startup failure must reach the user as text (a damaged store: one line)
        st.error(f"助手启动失败：{exc}")
        st.stop()
        raise  # unreachable; keeps type checkers happy
    if assistant.store_notices and not st.session_state.get(STORE_NOTICES_KEY):
        st.session_state[STORE_NOTICES_KEY] = True  # a cache set aside and rebuilt: said once per session
        for line in assistant.store_notices:
            st.warning(line, icon=":material/build:")
    return assistant


def init_session() -> None:
    """Defaults for the keys the sidebar and the pages read."""
    st.session_state.setdefault(USER_KEY, DEFAULT_USER)
    st.session_state.setdefault(ROLE_KEY, "all")
    st.session_state.setdefault(HISTORY_KEY, [])


def current_user() -> str:
    """The name memories are stored under; blank falls back to the default user."""
    return (st.session_state.get(USER_KEY) or "").strip() or DEFAULT_USER


def current_role() -> str:
    role = st.session_state.get(ROLE_KEY)
    return role if role in ROLE_LABELS else "all"


def history() -> list[dict[str, Any]]:
    """Chat messages of this browser session: {"role", "content", "trace"?, "turn"?, "rating"?}."""
    return st.session_state.setdefault(HISTORY_KEY, [])


def mask_secret(secret: str) -> str:
    """Show that a key is set without revealing it (last 4 characters at most)."""
    if not secret:
        return "（未设置）"
    tail = secret[-4:] if len(secret) > 8 else ""
    return "•" * 8 + tail
