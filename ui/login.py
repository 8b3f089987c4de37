"""The login gate: who is asking, decided once per browser session before any page draws data.

Desktop mode (no accounts): the person at the machine is the local administrator.
Team mode: a session token from the cookie (a refresh) or the login form; nothing
else of the page runs until one is accepted. The cookie is written by a tiny script
(Streamlit cannot set cookies from Python); it is SameSite=Strict, Secure over
HTTPS, and only a signed, server-side, revocable session id (see SECURITY.md).
"""

from __future__ import annotations

import json

import streamlit as st

from rag_core import AccountError, Assistant, Principal
from ui.state import LOCAL_ADMIN, PRINCIPAL_KEY, SESSION_COOKIE, TOKEN_KEY

COOKIE_HOURS = 12
_COOKIE_PENDING = "_session_cookie_pending"


def resolve_principal(assistant: Assistant) -> Principal | None:
    """The principal of this browser session, or None when a login is needed (team mode)."""
    if not assistant.team_mode:
        st.session_state[PRINCIPAL_KEY] = LOCAL_ADMIN
        return LOCAL_ADMIN
    principal = st.session_state.get(PRINCIPAL_KEY)
    token = st.session_state.get(TOKEN_KEY)
    if principal is not None and token:
        # re-check each run: a disabled account or an ended session stops at once
        if assistant.session_principal(token) == principal:
            return principal
        forget_login()
        return None
    sso_email, verified = _sso_email()
    if sso_email:  # the identity provider vouched for this e-mail; an account must hold it
        try:
            token = assistant.login_by_email(sso_email, verified=verified)
        except AccountError as exc:
            st.session_state["_sso_error"] = str(exc)
        else:
            st.session_state[TOKEN_KEY] = token
            st.session_state[PRINCIPAL_KEY] = assistant.session_principal(token)
            st.session_state[_COOKIE_PENDING] = token
            return st.session_state[PRINCIPAL_KEY]
    cookie = _cookie_token()
    restored = assistant.session_principal(cookie) if cookie else None
    if restored is not None:
        st.session_state[PRINCIPAL_KEY], st.session_state[TOKEN_KEY] = restored, cookie
    else:
        st.session_state.pop(PRINCIPAL_KEY, None)  # e.g. LOCAL_ADMIN from before the first account
    return restored


def _cookie_token() -> str | None:
    try:
        return st.context.cookies.get(SESSION_COOKIE)
    except Exception:  # no browser request behind this session (tests)
        return None


def forget_login() -> None:
    for key in (PRINCIPAL_KEY, TOKEN_KEY):
        st.session_state.pop(key, None)


def render_login_form(assistant: Assistant) -> None:
    """The Chinese login page; on success the session and the cookie are set and the page reruns."""
    st.title("登录 · HR 制度助手")
    st.caption("本助手已开启账户：请用管理员为你开通的账户登录。忘记密码请联系管理员重置。")
    with st.form("login", clear_on_submit=False):
        name = st.text_input("用户名", autocomplete="username")
        password = st.text_input("密码", type="password", autocomplete="current-password")
        submitted = st.form_submit_button("登录", type="primary", use_container_width=True)
    if submitted:
        try:
            token = assistant.login(name, password)
        except AccountError as exc:
            st.error(str(exc), icon=":material/lock:")
        else:
            st.session_state[TOKEN_KEY] = token
            st.session_state[PRINCIPAL_KEY] = assistant.session_principal(token)
            st.session_state[_COOKIE_PENDING] = token
            st.rerun()
    if error := st.session_state.pop("_sso_error", None):
        st.error(error, icon=":material/lock:")
    if _sso_configured():
        st.divider()
        st.button("使用单点登录", on_click=st.login, icon=":material/key:")


def _sso_email() -> tuple[str | None, bool]:
    """The e-mail of a single sign-on identity (st.login) and whether the provider verified it, once per session."""
    if not _sso_configured() or st.session_state.get("_sso_tried"):
        return None, False
    try:
        if not st.user.is_logged_in:
            return None, False
        email = st.user.get("email")
        verified = st.user.get("email_verified")
    except Exception:
        return None, False
    st.session_state["_sso_tried"] = True
    # a provider that sends no email_verified claim vouches by sending the address; an explicit "no" does not
    return (str(email) if email else None), verified not in (False, "false", "False")


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


def logout(assistant: Assistant, principal: Principal) -> None:
    assistant.logout(st.session_state.get(TOKEN_KEY), actor=principal)
    forget_login()
    st.session_state["_logged_out"] = True
    if _sso_configured():
        try:
            if st.user.is_logged_in:
                st.logout()
        except Exception:  # the identity provider's session is theirs to end
            pass
