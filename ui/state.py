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

import itertools
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import streamlit as st

from rag_core import Assistant, Principal, Settings, SettingsError
from rag_core.assistant import SAMPLES_DIR
from rag_core.errors import PermissionDenied
from rag_core.types import ROLE_NAMES
from ui.inert import escape_md
from ui.progress import FileSteps

# Audience labels -> what a person reads (the retrieval test can preview one audience's view).
ROLE_LABELS: dict[str, str] = {"all": "员工", "hr": "HR", "managers": "管理者"}
AUDIENCE_LABELS: dict[str, str] = Assistant.AUDIENCE_LABELS  # the engine's names, as its messages say them

PRINCIPAL_KEY = "principal"
TOKEN_KEY = "session_token"
HISTORY_KEY = "chat_history"
CONVERSATION_PARAM = "c"  # the 问答 page's open conversation id in the address (?c=…): a refresh finds it
SESSION_COOKIE = "hr_assistant_session"
LOCAL_ADMIN = Principal(user="local", role="admin")  # the facade's desktop default, named for the pages


ENGINE_NAMES = Assistant.audit_actor_names()  # local → 本机用户, system → 系统（示例制度导入）: reserved, no account holds them


def person_name(user: str) -> str:
    """How a page names a person: the desktop default's technical name "local" reads as 本机用户, the first start's
    import of the samples ("system") as 系统."""
    return ENGINE_NAMES.get(user, user)


def role_name(role: str) -> str:
    """管理员 / HR / 员工 for a stored role code ("—" for none)."""
    return ROLE_NAMES.get(role, role) if role else "—"


_ENV_FILES_READ: set[Path] = set()  # each `.env` is read once per process, at start


def app_settings() -> Settings:
    """The settings the CLI would use here: environment first, then `.env`, data dir made absolute.

    `.env` is read at the first run only (its values stay in the environment): a line added while the app runs waits
    for the restart the settings page asks for; read at every run, a typo in it stopped every page at the next click
    and a valid line built a second assistant beside the first (review 357)."""
    env_file = Path(".env").resolve()
    settings = Settings.from_env(env_file=None if env_file in _ENV_FILES_READ else env_file)
    _ENV_FILES_READ.add(env_file)  # once read: a file that failed to read is read again at the next run (review 360)
    return settings.with_changes(data_dir=settings.data_dir.resolve())


@st.cache_resource(show_spinner="正在加载嵌入模型（首次启动需要一点时间）…")
def open_assistant(settings: Settings) -> Assistant:
    """Build the facade; its sample policies are indexed by `index_samples`, with a progress bar."""
    assistant = Assistant(settings)
    _SAMPLES_PENDING.add(id(assistant))
    return assistant


# Facades built by open_assistant whose samples may still need indexing (a fresh store). Indexing
# runs outside the cached function: a bar drawn inside it would be replayed on every later run.
_SAMPLES_PENDING: set[int] = set()
_SAMPLES_LOCK = threading.Lock()


def sample_names() -> list[str]:
    """The bundled sample files, in the order ensure_samples indexes them."""
    return sorted(p.name for p in SAMPLES_DIR.glob("*") if p.is_file() and not p.name.startswith("."))


def index_samples(assistant: Assistant) -> None:
    """First start: index the sample policies with a bar (file k of n, and the step); later: nothing."""
    if id(assistant) not in _SAMPLES_PENDING:
        return
    if not _SAMPLES_LOCK.acquire(blocking=False):  # another session is indexing them: wait for it
        with st.spinner("正在首次索引示例制度，请稍候…"):
            _SAMPLES_LOCK.acquire()
    try:
        if id(assistant) not in _SAMPLES_PENDING:
            return
        bar = st.progress(0.0, text="正在索引示例制度…")
        try:
            names = sample_names()
            steps = FileSteps(bar, len(names), "首次启动，正在索引示例制度", names)
            assistant.ensure_samples(progress=steps, on_progress=steps.file)
        finally:
            bar.empty()
        _SAMPLES_PENDING.discard(id(assistant))
    finally:
        _SAMPLES_LOCK.release()


STORE_NOTICES_KEY = "store_notices_shown"


def get_assistant() -> Assistant:
    """The facade for the current configuration; stops the page with a readable error if it fails."""
    try:
        assistant = open_assistant(app_settings())
        index_samples(assistant)
    except Exception as exc:  # any startup failure must reach the user as text (a damaged store: one line)
        restart = "（改好 .env 后请重启助手：运行中的助手不会重新读入已读过的值）" if isinstance(exc, SettingsError) else ""
        st.error(f"助手启动失败：{escape_md(exc)}{restart}")
        st.stop()
        raise  # unreachable; keeps type checkers happy
    # a cache set aside and rebuilt, a damaged store found later (the audit trail, the version history):
    # each line said once per session, on the first page run after it appeared
    shown = st.session_state.setdefault(STORE_NOTICES_KEY, [])
    for line in list(assistant.store_notices):
        if line not in shown:
            shown.append(line)
            st.warning(escape_md(line), icon=":material/build:")
    return assistant


def init_session() -> None:
    """Defaults for the keys the sidebar and the pages read."""
    st.session_state.setdefault(HISTORY_KEY, [])


def forget_person_state(keep: frozenset[str] = frozenset()) -> None:
    """Drop everything this browser session keeps except the keys in `keep` (what the login gate itself needs).

    Whatever a page keeps belongs to the person logged in: unsaved answers, a retrieval test's question, clauses
    and memories, a pending settings change, boxes being typed in. A list of page prefixes missed each new page's
    keys (the next person on the tab saw the previous one's retrieval test, managers-only clauses included)."""
    for key in [k for k in st.session_state if k not in keep]:
        st.session_state.pop(key, None)


def owned_by_actor(value: Any, owner_at: int) -> Any:
    """`value` (a tuple a page keeps across reruns) when the principal stored at `owner_at` is the one logged in
    now, else None: a second guard after logout's clearing, so one person's results never show for another.
    A tuple too short to hold an owner (a value drawn in before owners were stored) is taken as it is."""
    if not isinstance(value, tuple) or len(value) <= owner_at:
        return value
    return value if value[owner_at] == current_principal() else None


def current_principal() -> Principal | None:
    """Who is logged in on this browser session (the local administrator in desktop mode); None before login."""
    return st.session_state.get(PRINCIPAL_KEY)


def actor() -> Principal:
    """The principal every facade call passes as `actor=`, its session checked again at each call.

    The login gate checks the session at the top of each run, but a button's callback runs before it: a session
    ended since the page was drawn (logged out in another tab, the password reset, the account disabled or given
    another role; a desktop tab still open after the first account was made) acted once more. That is refused
    with one Chinese line (a `RagError`, which the callbacks show); the run that follows shows the login form."""
    principal = current_principal()
    if principal is None:  # a page reached without the chrome: show nothing
        st.stop()
    if not _still_logged_in(principal):  # type: ignore[arg-type]
        raise PermissionDenied(STALE_LOGIN)
    return principal  # type: ignore[return-value]


STALE_LOGIN = "登录已失效（已退出登录、密码已重置，或账户已被停用或修改），这次操作没有执行；请重新登录"


def _still_logged_in(principal: Principal) -> bool:
    """The session of this browser tab still stands for `principal` (one signed token and two indexed rows)."""
    assistant = get_assistant()
    token = st.session_state.get(TOKEN_KEY)
    if token:
        return assistant.session_principal(token) == principal
    return not assistant.team_mode  # the desktop's person at the machine, while no account exists


def current_user() -> str:
    """The name memories and conversations are stored under: the logged-in person's."""
    return actor().user


def current_role() -> None:
    """Search reads what the logged-in person may read (None: no narrowing to one audience)."""
    return None


def history() -> list[dict[str, Any]]:
    """Chat messages of this browser session: {"role", "content", "trace"?, "turn"?, "rating"?}."""
    return st.session_state.setdefault(HISTORY_KEY, [])


# -- answers being written ------------------------------------------------------------------
# (user, conversation) -> {ask number: the masked question}: the asks this server process is answering now. A
# conversation is stored only when its first answer is, and a refresh or Back meanwhile runs the page again (a
# refresh in a new session: st.session_state is gone) — without this it took the conversation for a deleted one.
_ANSWERING: dict[tuple[str, str], dict[int, str]] = {}
_ANSWERING_LOCK = threading.Lock()
_ASK_NUMBERS = itertools.count()


def start_answering(user: str, conversation: str, question: str) -> Callable[[], None]:
    """List `question` (masked) as being answered for `user` in `conversation`, until the returned function is called
    (once the ask has ended, stored or failed; calling it again does nothing)."""
    with _ANSWERING_LOCK:
        return _listed((user, conversation), question)


def _listed(key: tuple[str, str], question: str) -> Callable[[], None]:
    """List an ask (the caller holds _ANSWERING_LOCK); the function returned ends it."""
    number = next(_ASK_NUMBERS)
    _ANSWERING.setdefault(key, {})[number] = question

    def done() -> None:
        with _ANSWERING_LOCK:
            asks = _ANSWERING.get(key, {})
            asks.pop(number, None)
            if not asks:
                _ANSWERING.pop(key, None)

    return done


def conversations_answering(user: str) -> set[str]:
    """The conversations `user` has an answer being written in right now (in any tab)."""
    with _ANSWERING_LOCK:
        return {conversation for (who, conversation), asks in _ANSWERING.items() if who == user and asks}


def answering(user: str, conversation: str) -> list[str]:
    """The questions `user` is being answered in `conversation` right now (in any tab), oldest first."""
    with _ANSWERING_LOCK:
        return list(_ANSWERING.get((user, conversation), {}).values())


# (user, conversation) -> [(question, masked question)]: questions asked while an answer in that conversation was
# still being written (Streamlit's fast reruns run the page again mid-ask). Each waits its turn — a follow-up needs
# the answer before it — and is asked by the next page run that finds no ask in flight, in this tab or any other (a
# refresh keeps them: they live in the server process, as the asks in flight do).
_WAITING: dict[tuple[str, str], list[tuple[str, str]]] = {}
# at most this many wait in one conversation: a person pasting 100 questions while one is answered is told to wait
# (each is answered in turn, one ask at a time; the list lives in server memory)
WAITING_LIMIT = 5


def wait_turn(user: str, conversation: str, question: str, shown: str, first: bool = False) -> bool:
    """Keep `question` (`shown`: masked) to be asked in `conversation` once the answers before it are written
    (`first`: before the others — one taken by next_question whose run was stopped before asking it, always kept).
    False, and nothing kept, when WAITING_LIMIT questions already wait there."""
    with _ANSWERING_LOCK:
        queue = _WAITING.setdefault((user, conversation), [])
        if not first and len(queue) >= WAITING_LIMIT:
            return False
        queue.insert(0 if first else len(queue), (question, shown))
        return True


def forget_waiting(user: str, conversation: str) -> int:
    """Drop the questions waiting in `conversation` (deleted, or found gone): asked later, they stored the deleted
    conversation again under its id. Returns how many were dropped."""
    with _ANSWERING_LOCK:
        return len(_WAITING.pop((user, conversation), []))


def waiting_questions(user: str, conversation: str) -> list[str]:
    """The masked questions waiting their turn in `conversation`, oldest first."""
    with _ANSWERING_LOCK:
        return [shown for _question, shown in _WAITING.get((user, conversation), [])]


def next_question(user: str, conversation: str) -> tuple[str, str, Callable[[], None]] | None:
    """The oldest waiting question (and its masked text), now listed as being answered, with the function that ends
    that — None while an ask in `conversation` is in flight or none waits. Taken and listed at once: two tabs never
    both ask it."""
    key = (user, conversation)
    with _ANSWERING_LOCK:
        queue = _WAITING.get(key)
        if _ANSWERING.get(key) or not queue:
            return None
        question, shown = queue.pop(0)
        if not queue:
            _WAITING.pop(key, None)
        return question, shown, _listed(key, shown)


def mask_secret(secret: str) -> str:
    """Show that a key is set without revealing it (last 4 characters at most)."""
    if not secret:
        return "（未设置）"
    tail = secret[-4:] if len(secret) > 8 else ""
    return "•" * 8 + tail
