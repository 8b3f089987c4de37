"""The login gate: who is asking, decided once per browser session before any page draws data.

Desktop mode (no accounts): the person at the machine is the local administrator.
Team mode: a session token from the cookie (a refresh) or the login form; nothing
else of the page runs until one is accepted. The cookie is written by a tiny script
(Streamlit cannot set cookies from Python); it is SameSite=Strict, Secure over
HTTPS, and only a signed, server-side, revocable session id (see SECURITY.md).
"""

from __future__ import annotations

import json
import time

import streamlit as st

from rag_core import Assistant, Principal, RagError
from ui.inert import escape_md
from ui.notices import notice_key, show_notice
from ui.state import (
    CONVERSATION_PARAM,
    LOCAL_ADMIN,
    PRINCIPAL_KEY,
    SESSION_COOKIE,
    STORE_NOTICES_KEY,
    TOKEN_KEY,
    forget_person_state,
)

COOKIE_HOURS = 12
_COOKIE_PENDING = "_session_cookie_pending"
JUST_LOGGED_IN = "_just_logged_in"  # the next run lands on a page the person may use, not the one the tab was on
SHOWN_PAGE = "_shown_page"  # the page this tab last showed (the chrome sets it)
LEFT_ON = "_left_on_page"  # the page the tab showed when the last person logged out: the next one did not choose it
_SSO_TRIED = "_sso_tried"
_SSO_ERROR = "_sso_error"
# all a logout keeps of the browser session: the single sign-on attempt and its error (an ended session does not
# sign the identity provider's person in again unasked) and the store notices already shown (about the store,
# not a person); everything else is the person's
# and the login form's own message (the first account made on the desktop default: review 391 #5)
_KEPT_AT_LOGOUT = frozenset({_SSO_TRIED, _SSO_ERROR, STORE_NOTICES_KEY, notice_key("login")})


def resolve_principal(assistant: Assistant) -> Principal | None:
    """The principal of this browser session, or None when a login is needed (team mode)."""
    if not assistant.team_mode:
        st.session_state[PRINCIPAL_KEY] = LOCAL_ADMIN
        return LOCAL_ADMIN
    principal = st.session_state.get(PRINCIPAL_KEY)
    token = st.session_state.get(TOKEN_KEY)
    if principal is not None and not token:  # LOCAL_ADMIN from before the first account: what this tab kept for the
        forget_login()  # desktop's person (a question sent, a search) is no one's who logs in or is restored here
        principal = None
    if principal is not None and token:
        # re-check each run: a disabled account or an ended session stops at once
        if assistant.session_principal(token) == principal:
            return principal
        forget_login()
        return None
    cookie = _cookie_token()  # a refresh: the app's own session first (no new login, no new audit row)
    restored = assistant.session_principal(cookie) if cookie else None
    if restored is not None:
        st.session_state[PRINCIPAL_KEY], st.session_state[TOKEN_KEY] = restored, cookie
        return restored
    identity = _sso_identity(assistant.settings.sso_trust_unverified_claim)
    if identity is not None:  # the identity provider vouched for this e-mail; an account must hold it
        email, verified = identity
        try:
            token = assistant.login_by_email(email, verified=verified)
        except RagError as exc:  # refused, or accounts.sqlite3 busy: one Chinese line
            st.session_state[_SSO_ERROR] = str(exc)
        else:
            st.session_state[TOKEN_KEY] = token
            st.session_state[PRINCIPAL_KEY] = assistant.session_principal(token)
            st.session_state[_COOKIE_PENDING] = token
            st.session_state[JUST_LOGGED_IN] = True
            return st.session_state[PRINCIPAL_KEY]
    return None


def _cookie_token() -> str | None:
    try:
        return st.context.cookies.get(SESSION_COOKIE)
    except Exception:  # no browser request behind this session (tests)
        return None


def forget_login() -> None:
    """End this browser session's login, and with it everything the pages keep for that person (the next one to
    log in on this tab saw the previous person's unsaved answers, then their retrieval test)."""
    forget_person_state(_KEPT_AT_LOGOUT)


def render_login_form(assistant: Assistant) -> None:
    """The Chinese login page; on success the session and the cookie are set and the page reruns."""
    st.title("登录 · HR 制度助手")
    show_notice("login")  # the first account was just made on the desktop default
    st.caption("本助手已开启账户：请用管理员为你开通的账户登录。忘记密码请联系管理员重置。")
    with st.form("login", clear_on_submit=False):
        name = st.text_input("用户名", autocomplete="username")
        password = st.text_input("密码", type="password", autocomplete="current-password")
        submitted = st.form_submit_button("登录", type="primary", use_container_width=True)
    if submitted:
        try:
            token = assistant.login(name, password)
        except RagError as exc:  # refused, or accounts.sqlite3 busy: one Chinese line
            st.error(escape_md(exc), icon=":material/lock:")
        else:
            st.session_state[TOKEN_KEY] = token
            st.session_state[PRINCIPAL_KEY] = assistant.session_principal(token)
            st.session_state[_COOKIE_PENDING] = token
            st.session_state[JUST_LOGGED_IN] = True
            st.rerun()
    if error := st.session_state.pop(_SSO_ERROR, None):
        st.error(escape_md(error), icon=":material/lock:")
    if _sso_configured():
        st.divider()
        st.button("使用单点登录", on_click=st.login, icon=":material/key:")
        if _sso_signed_in():  # a refused identity: let the person leave it at the provider
            st.button("换一个单点登录账号", on_click=st.logout, icon=":material/switch_account:")


def _sso_identity(trust_unverified_claim: bool) -> tuple[str, bool] | None:
    """(e-mail, verified) of a current single sign-on identity (st.login), once per browser session.

    Streamlit keeps the identity in its own cookie for 30 days; an ID token past its
    `exp` is not used to open a new session (the person signs in at the provider again).
    `verified` is the `email_verified` claim read strictly; a provider that sends none is
    trusted only when `RAG_SSO_TRUST_UNVERIFIED_CLAIM` says so.
    """
    if not _sso_configured() or st.session_state.get(_SSO_TRIED) or not _sso_signed_in():
        return None
    try:
        email, claim, expires = st.user.get("email"), st.user.get("email_verified"), st.user.get("exp")
    except Exception:
        return None
    st.session_state[_SSO_TRIED] = True
    if isinstance(expires, int | float) and expires < time.time():
        st.session_state[_SSO_ERROR] = "单点登录已过期，请重新点击“使用单点登录”"
        return None
    verified = trust_unverified_claim if claim is None else (claim is True or str(claim).strip().lower() == "true")
    return (str(email).strip() if email else ""), verified


def _sso_signed_in() -> bool:
    """An st.login identity is present (False without a browser request behind the session, as in tests)."""
    try:
        return bool(st.user.is_logged_in)
    except Exception:
        return False


def _sso_configured() -> bool:
    try:
        return "auth" in st.secrets
    except Exception:  # no secrets.toml at all
        return False


def write_session_cookie() -> None:
    """After a login: store the token in a cookie so a refresh keeps the session."""
    token = st.session_state.pop(_COOKIE_PENDING, None)
    if token:
        _set_cookie(token, COOKIE_HOURS * 3600)


def clear_session_cookie() -> None:
    _set_cookie("", 0)


def _set_cookie(value: str, max_age: int) -> None:
    script = (
        "<script>(function(){var s=location.protocol==='https:'?'; Secure':'';"
        f"document.cookie={json.dumps(SESSION_COOKIE + '=' + value)}+'; path=/; max-age={max_age}; SameSite=Strict'+s;"
        "})();</script>"
    )
    st.html(script, unsafe_allow_javascript=True)


LOGOUT_ERROR = "_logout_error"  # shown in the sidebar: the session is still open (review 380 #4)


def logout(assistant: Assistant, principal: Principal) -> None:
    try:
        assistant.logout(st.session_state.get(TOKEN_KEY), actor=principal)
    except RagError as exc:  # accounts.sqlite3 busy or not writable: still logged in, and told so
        st.session_state[LOGOUT_ERROR] = f"没有退出登录：{exc}"
        return
    left_on = st.session_state.get(SHOWN_PAGE)
    forget_login()
    st.session_state[LEFT_ON] = left_on
    if CONVERSATION_PARAM in st.query_params:  # the open conversation was theirs: the next person starts anew
        del st.query_params[CONVERSATION_PARAM]
    st.session_state["_logged_out"] = True
    if _sso_configured() and _sso_signed_in():
        try:
            st.logout()
        except Exception:  # the identity provider's session is theirs to end
            pass
