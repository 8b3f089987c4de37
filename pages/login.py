"""登录 — reached by URL; the login gate in the chrome draws the form before any page when needed."""

from __future__ import annotations

import streamlit as st

from ui.inert import escape_md
from ui.layout import ensure_chrome
from ui.state import ROLE_NAMES, actor

ensure_chrome()
me = actor()
st.title("登录")
st.success(f"已登录：{escape_md(me.user)}（{ROLE_NAMES.get(me.role, me.role)}）", icon=":material/check_circle:")
st.page_link("pages/chat.py", label="去问答", icon=":material/chat:")
st.page_link("pages/account.py", label="我的账户（修改密码）", icon=":material/account_circle:")
