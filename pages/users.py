"""用户管理 — accounts for team mode (administrators only; the facade checks every action)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from rag_core import Account, AccountError, Assistant, PermissionDenied
from ui.inert import escape_md
from ui.layout import ensure_chrome
from ui.state import AUDIENCE_LABELS, ROLE_NAMES, actor, get_assistant
from ui.timefmt import local_time

ROLES = list(ROLE_NAMES)


def users_frame(accounts: list[Account]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "用户名": a.name,
                "角色": ROLE_NAMES.get(a.role, a.role),
                "额外受众": "、".join(AUDIENCE_LABELS.get(x, x) for x in a.audiences) or "—",
                "邮箱（单点登录）": a.email or "—",
                "状态": "已停用" if a.disabled else ("已锁定" if a.locked_until else "正常"),
                "连续失败": a.failed_logins,
                "创建时间": local_time(a.created_at),
            }
            for a in accounts
        ]
    )


def add_form(assistant: Assistant) -> None:
    with st.form("add_user", clear_on_submit=True):
        st.markdown("**新建账户**")
        left, right = st.columns(2)
        name = left.text_input("用户名")
        role = right.selectbox("角色", ROLES, format_func=ROLE_NAMES.__getitem__)
        audiences = left.multiselect("额外可读受众", [a for a in AUDIENCE_LABELS if a != "all"],
                                     format_func=AUDIENCE_LABELS.__getitem__, select_all=False)
        email = right.text_input("邮箱（可选，单点登录用）")
        first = left.text_input("初始密码", type="password", help="至少 8 个字符")
        second = right.text_input("再输入一次", type="password")
        if st.form_submit_button("新建", type="primary"):
            if first != second:
                st.error("两次输入的密码不一致")
                return
            try:
                account = assistant.add_user(name, role, first, audiences, email, actor=actor())
            except (AccountError, PermissionDenied) as exc:
                st.error(escape_md(exc))
            else:
                st.success(f"已新建账户：{escape_md(account.name)}")


def change_form(assistant: Assistant, accounts: list[Account]) -> None:
    names = [a.name for a in accounts]
    if not names:
        return
    st.markdown("**修改账户**")
    name = st.selectbox("账户", names)
    current = next(a for a in accounts if a.name == name)
    col1, col2, col3 = st.columns(3)
    try:
        if current.disabled:
            if col1.button("启用", icon=":material/check:"):
                assistant.set_user_disabled(name, False, actor=actor())
                st.rerun()
        elif col1.button("停用", icon=":material/block:"):
            assistant.set_user_disabled(name, True, actor=actor())
            st.rerun()
        with col2.popover("修改角色"):
            role = st.selectbox("新角色", ROLES, index=ROLES.index(current.role), format_func=ROLE_NAMES.__getitem__)
            extra = st.multiselect("额外可读受众", [a for a in AUDIENCE_LABELS if a != "all"], default=list(current.audiences),
                                   format_func=AUDIENCE_LABELS.__getitem__, select_all=False)
            if st.button("保存角色"):
                assistant.set_user_role(name, role, extra, actor=actor())
                st.rerun()
        with col3.popover("重置密码"):
            first = st.text_input("新密码", type="password", key="reset_1")
            second = st.text_input("再输入一次", type="password", key="reset_2")
            if st.button("重置并解除锁定"):
                if first != second:
                    st.error("两次输入的密码不一致")
                else:
                    assistant.reset_user_password(name, first, actor=actor())
                    st.success("密码已重置，锁定已解除，原有会话已结束")
    except (AccountError, PermissionDenied) as exc:
        st.error(escape_md(exc))


def main() -> None:
    ensure_chrome()
    assistant = get_assistant()
    st.title("用户管理")
    try:
        accounts = assistant.list_users(actor=actor())
    except PermissionDenied as exc:
        st.error(escape_md(exc))
        return
    if not accounts:
        st.info("还没有账户：现在是桌面模式（本机使用者即管理员）。新建第一个账户后，所有页面都需要登录——请先为自己建一个管理员账户。")
    else:
        st.dataframe(users_frame(accounts), hide_index=True, use_container_width=True)
    add_form(assistant)
    change_form(assistant, accounts)


main()
