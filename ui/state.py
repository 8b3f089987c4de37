"""The one facade instance per configuration, and the session-state keys every page shares.

The facade holds the embedding model, the Chroma client and the BM25 index, so it is
built once per process with `st.cache_resource`. Its key is the `Settings` object that
`Settings.from_env` builds (environment, then `.env`) — the same rule as the CLI — so
a data dir set only in `.env` is the store the app opens on its first and every
later run, and tests that point `RAG_DATA_DIR` at a temp dir get their own facade.

Who is asking is the logged-in principal (team mode) or the local administrator
(desktop mode, no accounts): never a name typed into a box. A browser refresh starts
a new Streamlit session; the signed session token in a cookie brings the login back.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from rag_core import Assistant, Principal, Settings
from ui.inert import escape_md

# Audience labels -> what a person reads (the retrieval test can preview one audience's view).
ROLE_LABELS: dict[str, str] = {"all": "员工", "hr": "HR", "managers": "管理者"}
AUDIENCE_LABELS: dict[str, str] = {"all": "全体员工", "hr": "HR", "managers": "管理者"}
ROLE_NAMES: dict[str, str] = {"employee": "员工", "hr": "HR", "admin": "管理员"}

PRINCIPAL_KEY = "principal"
TOKEN_KEY = "session_token"
HISTORY_KEY = "chat_history"
SESSION_COOKIE = "hr_assistant_session"
LOCAL_ADMIN = Principal(user="local", role="admin")  # the facade's desktop default, named for the pages


def person_name(user: str) -> str:
    """How a page names a person: the desktop default's technical name "local" reads as 本机用户."""
    return "本机用户" if user == LOCAL_ADMIN.user else user


def role_name(role: str) -> str:
    """管理员 / HR / 员工 for a stored role code ("—" for none)."""
    return ROLE_NAMES.get(role, role) if role else "—"


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
        st.error(f"助手启动失败：{escape_md(exc)}")
        st.stop()
        raise  # unreachable; keeps type checkers happy
    if assistant.store_notices and not st.session_state.get(STORE_NOTICES_KEY):
        st.session_state[STORE_NOTICES_KEY] = True  # a cache set aside and rebuilt: said once per session
        for line in assistant.store_notices:
            st.warning(escape_md(line), icon=":material/build:")
    return assistant


def init_session() -> None:
    """Defaults for the keys the sidebar and the pages read."""
    st.session_state.setdefault(HISTORY_KEY, [])


def current_principal() -> Principal | None:
    """Who is logged in on this browser session (the local administrator in desktop mode); None before login."""
    return st.session_state.get(PRINCIPAL_KEY)


def actor() -> Principal:
    """The principal every facade call passes as `actor=` (the login gate ran before any page)."""
    principal = current_principal()
    if principal is None:  # a page reached without the chrome: show nothing
        st.stop()
    return principal  # type: ignore[return-value]


def current_user() -> str:
    """The name memories and conversations are stored under: the logged-in person's."""
    return actor().user


def current_role() -> None:
    """Search reads what the logged-in person may read (None: no narrowing to one audience)."""
    return None


def history() -> list[dict[str, Any]]:
    """Chat messages of this browser session: {"role", "content", "trace"?, "turn"?, "rating"?}."""
    return st.session_state.setdefault(HISTORY_KEY, [])


def mask_secret(secret: str) -> str:
    """Show that a key is set without revealing it (last 4 characters at most)."""
    if not secret:
        return "（未设置）"
    tail = secret[-4:] if len(secret) > 8 else ""
    return "•" * 8 + tail
