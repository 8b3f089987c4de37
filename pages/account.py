"""我的账户 — every logged-in person changes their own password here (an administrator need not know it).

The facade checks the current password, the password rules and who acts; this page only collects the three boxes.
"""

from __future__ import annotations

import streamlit as st

from rag_core import RagError
from ui.inert import escape_md
from ui.layout import ensure_chrome
from ui.state import ROLE_NAMES, TOKEN_KEY, actor, get_assistant

ensure_chrome()
assistant = get_assistant()
me = actor()
st.title("我的账户")
if not assistant.team_mode:
    st.info("桌面模式：还没有账户，本机使用者即管理员，无需密码。建立账户后，每个人登录后都可以在这里修改自己的密码。",
            icon=":material/info:")
    st.stop()
st.markdown(f"**{escape_md(me.user)}** · {escape_md(ROLE_NAMES.get(me.role, me.role))}")
st.subheader("修改密码")
with st.form("change_own_password", clear_on_submit=True):
    old = st.text_input("当前密码", type="password")
    new = st.text_input("新密码", type="password", help="至少 8 个字符；不能全是数字、不能包含用户名、不能是常见密码")
    again = st.text_input("再次输入新密码", type="password")
    submitted = st.form_submit_button("修改密码", icon=":material/key:")
if submitted:
    if not old or not new:
        st.error("请填写当前密码和新密码")
    elif new != again:
        st.error("两次输入的新密码不一致，请重新输入")
    else:
        try:
            assistant.change_own_password(old, new, actor=me, keep_token=st.session_state.get(TOKEN_KEY))
        except RagError as exc:  # refused, or accounts.sqlite3 busy: one Chinese line
            st.error(escape_md(exc))
        else:
            st.success("密码已修改。其他设备和浏览器上的登录已退出，下次请用新密码登录。", icon=":material/check_circle:")
