"""用户管理 — accounts for team mode (administrators only; the facade checks every action)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

import pandas as pd
import streamlit as st

from rag_core import Account, Assistant, PermissionDenied, RagError
from ui.inert import escape_md
from ui.layout import ensure_chrome
from ui.notices import announce, show_notice
from ui.state import AUDIENCE_LABELS, ROLE_NAMES, TOKEN_KEY, actor, get_assistant
from ui.timefmt import local_time, parse_time

ROLES = list(ROLE_NAMES)
FORM_ROUND_KEY = "users_add_round"  # part of the form's key: a new round after a save starts with empty boxes
DISABLE_PENDING_KEY = "users_disable_pending"
NO_EXTRA = "无（只读面向全体员工的制度）"  # the empty box said Streamlit's English "Choose options" (review 376 #4)


def account_state(account: Account, now: datetime | None = None) -> str:
    """正常 / 已停用 / 已锁定（至 local time）: a lock that ran out is no lock (the next login unlocks it). An account
    made before its name was reserved (系统) never logs in, enabled or not: said so, with what to do."""
    if Assistant.name_reserved(account.name):
        return Assistant.RESERVED_STATE
    if account.disabled:
        return "已停用"
    until = parse_time(account.locked_until)
    if until is not None and until > (now or datetime.now(UTC)):
        return f"已锁定（至 {local_time(until)}）"
    return "正常"


def users_frame(accounts: list[Account]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "用户名": a.name,
                "角色": ROLE_NAMES.get(a.role, a.role),
                "额外受众": Assistant.audience_names(a.audiences) or "—",
                "邮箱（单点登录）": a.email or "—",
                "状态": account_state(a),
                "连续失败": a.failed_logins,
                "创建时间": local_time(a.created_at),
            }
            for a in accounts
        ]
    )


def add_form(assistant: Assistant) -> None:
    """A refusal keeps what was typed (but the passwords); a new account is listed at once, with a message."""
    with st.form(f"add_user_{st.session_state.get(FORM_ROUND_KEY, 0)}"):
        st.markdown("**新建账户**")
        left, right = st.columns(2)
        name = left.text_input("用户名")
        role = right.selectbox("角色", ROLES, format_func=ROLE_NAMES.__getitem__)
        audiences = left.multiselect("额外可读受众", [a for a in AUDIENCE_LABELS if a != "all"], placeholder=NO_EXTRA,
                                     format_func=AUDIENCE_LABELS.__getitem__, select_all=False)
        email = right.text_input("邮箱（可选，单点登录用）")
        first = left.text_input("初始密码", type="password", help="至少 8 个字符")
        second = right.text_input("再输入一次", type="password")
        if st.form_submit_button("新建", type="primary"):
            if first != second:
                st.error("两次输入的密码不一致")
                return
            desktop = not assistant.team_mode
            try:
                account = assistant.add_user(name, role, first, audiences, email, actor=actor())
            except RagError as exc:  # refused, or accounts.sqlite3 busy: one Chinese line
                st.error(escape_md(exc))
            else:
                st.session_state[FORM_ROUND_KEY] = st.session_state.get(FORM_ROUND_KEY, 0) + 1
                announce("users", f"已新建账户：{escape_md(account.name)}")
                if desktop and assistant.team_mode:  # the next run is the login form: say it there (review 391 #5)
                    announce("login", f"已新建账户：{escape_md(account.name)}（{ROLE_NAMES.get(account.role, account.role)}）。"
                                      "从现在起本助手需要登录，请用这个账户登录。")
                st.rerun()


@contextmanager
def said_here() -> Iterator[None]:
    """A refusal (or a busy accounts.sqlite3) said as one Chinese line where its action is: one try around the row
    stopped the rest of it being drawn, so a refused password reset hid 修改邮箱 (review 391 #4)."""
    try:
        yield
    except RagError as exc:
        st.error(escape_md(exc))


def change_form(assistant: Assistant, accounts: list[Account]) -> None:
    names = [a.name for a in accounts]
    if not names:
        return
    st.markdown("**修改账户**")
    name = st.selectbox("账户", names)
    current = next(a for a in accounts if a.name == name)
    col1, col2, col3, col4 = st.columns(4)
    with said_here():
        if current.disabled:
            if col1.button("启用", icon=":material/check:"):
                assistant.set_user_disabled(name, False, actor=actor())
                announce("users", f"已启用账户：{escape_md(name)}")
                st.rerun()
        elif st.session_state.get(DISABLE_PENDING_KEY) == name:
            col1.warning(f"停用后“{escape_md(name)}”立即退出登录，不能再登录，直到重新启用。")
            if col1.button("确认停用", type="primary"):
                st.session_state.pop(DISABLE_PENDING_KEY, None)
                assistant.set_user_disabled(name, True, actor=actor())
                announce("users", f"已停用账户：{escape_md(name)}")
                st.rerun()
            if col1.button("取消", key="users_disable_cancel"):
                st.session_state.pop(DISABLE_PENDING_KEY, None)
                st.rerun()
        elif col1.button("停用", icon=":material/block:"):
            st.session_state[DISABLE_PENDING_KEY] = name
            st.rerun()
    with col2.popover("修改角色"), said_here():
        role_form(assistant, current)
    # a form per account, emptied when sent: the boxes kept the last password typed, and one click on the next
    # account chosen gave it that password too (the typed password also stayed in the session)
    with col3.popover("重置密码"), said_here(), st.form(f"users_reset_{name}", clear_on_submit=True, border=False):
        own = name == actor().user
        st.caption(f"为账户“{escape_md(name)}”设置新密码：" + ("这是您自己的账户：当前登录保留，您在其他地方的登录会退出。"
                                                        if own else "该账户原有的登录会退出。"))
        first = st.text_input("新密码", type="password", key=f"users_reset_1_{name}")
        second = st.text_input("再输入一次", type="password", key=f"users_reset_2_{name}")
        if st.form_submit_button("重置并解除锁定"):
            if first != second:
                st.error("两次输入的密码不一致")
            else:  # one's own: this browser's session is kept (as 我的账户 keeps it), never ended mid-page
                assistant.reset_user_password(name, first, actor=actor(), keep_token=st.session_state.get(TOKEN_KEY))
                st.success("密码已重置，锁定已解除" + ("；当前登录保留，其他登录已退出" if own else "，原有会话已结束"))
    with col4.popover("修改邮箱"), said_here():
        email_field(assistant, current)


def role_form(assistant: Assistant, current: Account) -> None:
    """New role and extra audiences; saving ends the account's sessions, so nothing changed saves nothing and one's
    own account (role or audiences) asks first. A label the form does not offer (finance, made on the command line)
    is offered too, so the account keeps it."""
    offered = [a for a in AUDIENCE_LABELS if a != "all"]
    offered += [a for a in current.audiences if a not in offered]
    # keyed per account (review 391 #1): unkeyed, a role chosen for one account stayed chosen for the next account of
    # the same role, and one click on 保存角色 gave it that role
    role = st.selectbox("新角色", ROLES, index=ROLES.index(current.role), format_func=ROLE_NAMES.__getitem__,
                        key=f"users_role_{current.name}")
    extra = st.multiselect("额外可读受众", offered, default=list(current.audiences), placeholder=NO_EXTRA,
                           format_func=lambda a: AUDIENCE_LABELS.get(a, a), select_all=False,
                           key=f"users_extra_{current.name}")
    changed = role != current.role or set(extra) != set(current.audiences)
    own = changed and current.name == actor().user
    if not changed:
        st.info("没有改动")
    elif own:
        st.warning("这是您自己的账户：保存后您会退出登录，之后按新的角色和受众使用。")
    sure = st.checkbox("我确认修改自己的角色", key="users_own_role") if own else True
    if st.button("保存角色", disabled=not (changed and sure)):
        assistant.set_user_role(current.name, role, extra, actor=actor())
        announce("users", f"已修改“{escape_md(current.name)}”的角色：{ROLE_NAMES.get(role, role)}")
        st.rerun()


def email_field(assistant: Assistant, current: Account) -> None:
    """The account's single sign-on address: set, changed, or cleared (saved empty); its sessions end."""
    address = st.text_input("单点登录邮箱", value=current.email, key=f"users_email_{current.name}",
                            help="身份提供方确认过这个邮箱的人，单点登录即进入该账户；留空保存即清除。")
    if current.name == actor().user:
        st.warning("这是您自己的账户：改了邮箱并保存后您会退出登录，需要重新登录。")
    st.caption("改了邮箱并保存后，该账户已有的登录都会退出。")
    # never disabled: a box's new text reaches the page when it loses focus, so a click straight after typing
    # would land on a button still disabled
    if st.button("保存邮箱"):
        if unicodedata.normalize("NFKC", address).strip().casefold() == (current.email or "").casefold():
            st.info("没有改动：邮箱和原来一样，该账户的登录不受影响。")
            return
        account = assistant.set_user_email(current.name, address, actor=actor())
        done = f"改为 {escape_md(account.email)}" if account.email else "已清除"
        announce("users", f"“{escape_md(account.name)}”的单点登录邮箱{done}，该账户需要重新登录")
        st.rerun()


def main() -> None:
    ensure_chrome()
    assistant = get_assistant()
    st.title("用户管理")
    show_notice("users")
    try:
        accounts = assistant.list_users(actor=actor())
    except PermissionDenied as exc:
        st.error(escape_md(exc))
        return
    if not accounts:
        st.info("还没有账户：现在是桌面模式（本机使用者即管理员）。新建第一个账户后，所有页面都需要登录——请先为自己建一个管理员账户。")
    else:
        st.dataframe(users_frame(accounts), hide_index=True, width="stretch", height="content")
    add_form(assistant)
    change_form(assistant, accounts)


main()
