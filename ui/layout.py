"""The chrome every page shares: page config and the sidebar (who is asking, which answerer).

`app.py` draws it before running the selected page. Because the repo keeps its pages
in `pages/`, Streamlit can also run a page file directly (its legacy multipage mode
decides this per process: the first request of a fresh server that deep-links to a
page, and every AppTest page switch). `ensure_chrome` lets a page draw the chrome
itself in that case, so the sidebar is never missing and never drawn twice, and the
menu is drawn here with page links so it always shows the Chinese titles.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import streamlit as st

from rag_core import Assistant
from rag_core.errors import StoreDamaged
from ui.inert import escape_md
from ui.login import (
    JUST_LOGGED_IN,
    LEFT_ON,
    LOGOUT_ERROR,
    SHOWN_PAGE,
    clear_session_cookie,
    logout,
    render_login_form,
    resolve_principal,
    write_session_cookie,
)
from ui.mobile import install_sidebar_autoclose
from ui.state import LOCAL_ADMIN, ROLE_NAMES, actor, get_assistant, init_session, person_name

_ENTRY_FLAG = "_chrome_drawn_by_entry"

# (file, title, icon, permission) of every page, in menu order; app.py builds st.navigation
# from it. The permission (see rag_core/facade/access.py) decides who sees the page in the
# menu; the facade checks it again on every action, so hiding is comfort, not control.
PAGES: list[tuple[str, str, str, str]] = [
    ("pages/chat.py", "问答", ":material/chat:", "ask"),
    ("pages/documents.py", "文档管理", ":material/folder_open:", "documents.manage"),
    ("pages/memories.py", "记忆管理", ":material/psychology:", "memories.own"),
    ("pages/retrieval_test.py", "检索测试", ":material/manage_search:", "retrieval.test"),
    ("pages/gaps.py", "知识缺口", ":material/help_center:", "insights"),
    ("pages/feedback_review.py", "反馈审阅", ":material/rate_review:", "insights"),
    ("pages/standard_answers.py", "标准答复", ":material/verified:", "insights"),
    ("pages/usage.py", "使用情况", ":material/bar_chart:", "insights"),
    ("pages/settings.py", "设置", ":material/settings:", "settings"),
    ("pages/users.py", "用户管理", ":material/group:", "users"),
    ("pages/audit.py", "审计日志", ":material/receipt_long:", "audit"),
]
LOGIN_PAGE = "pages/login.py"  # not in the menu; the gate draws the same form on any page
# The tab's icon (favicon): an emoji, which the browser draws itself. A ":material/…:" favicon is fetched from
# fonts.gstatic.com (Streamlit's frontend builds that URL; in-page icons use its bundled font), so offline it fails
# and online it contacts Google. st.navigation makes the current page's st.Page icon the favicon too (app.py).
PAGE_ICON = "📋"


def page_permission(path: str | None) -> str | None:
    """The permission a page file needs (None: the login page or an unknown caller)."""
    for page, _title, _icon, permission in PAGES:
        if path and Path(path).as_posix().endswith(page):
            return permission
    return None


def page_title(path: str | None) -> str:
    """The menu title of a page file (the file name for an unknown one)."""
    for page, title, _icon, _permission in PAGES:
        if path and Path(path).as_posix().endswith(page):
            return title
    return Path(path or "").stem


def render_chrome(page_path: str | None = None) -> Assistant:
    """Page config, the login gate, the cached facade, the sidebar; then the page's permission.

    Nothing of a page runs before the gate: in team mode without a valid session the
    login form is drawn and the script stops; a page the person may not use stops
    with a refusal, whether reached from the menu or typed as a URL.
    """
    st.set_page_config(page_title="HR 制度助手", page_icon=PAGE_ICON, layout="wide")
    init_session()
    assistant = get_assistant()
    try:
        # the Host the browser asked for: the desktop mode answers only to this machine's names (DNS rebinding)
        refusal = assistant.serving_refusal(st.get_option("server.address"), st.context.headers.get("Host"))
        principal = resolve_principal(assistant)
    except StoreDamaged as exc:  # accounts.sqlite3 damaged or lost: nobody gets in, not even as the local admin
        st.error(escape_md(exc), icon=":material/lock:")
        st.stop()
        raise  # unreachable
    if refusal:  # no accounts, and listening beyond this machine (scripts/run.sh refuses earlier) or a foreign Host
        st.error(escape_md(refusal))
        st.stop()
    if principal is None:
        if st.session_state.pop("_logged_out", False):
            clear_session_cookie()
        render_login_form(assistant)
        st.stop()
    write_session_cookie()
    with st.sidebar:
        # Our own menu (Streamlit's is hidden in config.toml): in legacy mode Streamlit would
        # list the raw file names (chat, documents, …) instead of these titles. Only the pages
        # this person may use are listed; the facade checks every action again.
        for path, title, icon, permission in PAGES:
            if assistant.can(principal, permission):
                st.page_link(path, label=title, icon=icon)
        st.divider()
        if assistant.team_mode:
            st.markdown(f"**{escape_md(principal.user)}** · {escape_md(ROLE_NAMES.get(principal.role, principal.role))}")
            st.page_link("pages/account.py", label="我的账户", icon=":material/account_circle:")
            st.button("退出登录", icon=":material/logout:", on_click=logout, args=(assistant, principal))
            if error := st.session_state.pop(LOGOUT_ERROR, None):
                st.error(escape_md(error))
        else:
            st.markdown("**本机管理员** · 桌面模式")
            st.caption("还没有账户：本机使用者即管理员，无需登录。要让同事一起使用，请先按使用说明建立第一个管理员账户。")
        st.divider()
        if assistant.settings.llm_configured and assistant.llm_paused:
            st.warning(escape_md(assistant.llm_status), icon=":material/hourglass_top:")
        elif assistant.settings.llm_configured:
            st.success(escape_md(assistant.llm_status), icon=":material/smart_toy:")  # the model id is set in .env
        else:
            st.info(assistant.llm_status, icon=":material/offline_bolt:")
            st.caption("答案直接摘录制度原文中最相关的句子，并标注出处。")
        install_sidebar_autoclose()  # phones: tapping a menu link closes the sidebar
    permission = page_permission(page_path)
    left_on = st.session_state.pop(LEFT_ON, None)
    if st.session_state.pop(JUST_LOGGED_IN, False) and left_on == page_path and permission is not None \
            and not assistant.can(principal, permission):
        # the tab was on the last person's page (an administrator logged out on 用户管理): this person did not ask
        # for it, so they land on 问答, with no refusal in the audit (the UX walkthrough of stop 58); a page typed
        # or bookmarked while logged out is refused and audited as ever (review 213)
        st.switch_page(PAGES[0][0])
    st.session_state[SHOWN_PAGE] = page_path
    if permission is not None and not assistant.page_allowed(page_title(page_path), permission, actor=principal):
        st.error("没有权限查看此页面。", icon=":material/block:")  # the facade wrote the audit row
        st.stop()
    return assistant


def include_tests_box(key: str) -> bool:
    """The statistics pages' switch: people's questions only, unless eval and retrieval-test traffic is asked for."""
    return st.checkbox(
        "包括评测和检索测试的提问", key=key,
        help="默认只统计员工和 HR 真正问的问题；运行评测集、检索测试时提的问题单独标记，勾选后才一起统计。",
    )


def mark_drawn_by_entry() -> None:
    """Called by app.py right before `page.run()`."""
    st.session_state[_ENTRY_FLAG] = True


def ensure_chrome() -> None:
    """First call of every page: draw the chrome unless app.py already did in this run."""
    if not st.session_state.pop(_ENTRY_FLAG, False):
        render_chrome(inspect.stack()[1].filename)


OWNER_KEY = "memory_owner"
OWNER_BOX_KEY = "memory_owner_box"


def memory_owner(assistant: Assistant) -> str:
    """Whose memories the memories page shows: one's own; an administrator may name anyone.

    The desktop user is shown and may be typed as 本机用户 (stored as "local")."""
    me = actor()
    if not assistant.can(me, "memories.all"):
        return me.user
    known = [assistant.shown_text(person_name(u)) for u in assistant.memory_users(actor=me)]  # older names masked
    if OWNER_BOX_KEY not in st.session_state:  # keyed: the box keeps what was typed across reruns
        st.session_state[OWNER_BOX_KEY] = person_name(st.session_state.get(OWNER_KEY, me.user))
    name = st.text_input(
        "查看谁的记忆", key=OWNER_BOX_KEY,
        help="管理员可以查看和管理任何人的记忆；" + (f"有记忆的用户：{escape_md('、'.join(known[:20]))}" if known else "还没有任何记忆"),
    ).strip() or me.user
    name = LOCAL_ADMIN.user if name == person_name(LOCAL_ADMIN.user) else name
    st.session_state[OWNER_KEY] = name
    return assistant.checked_memory_owner(name)  # a phone number or e-mail as a name: a RagError the page shows
