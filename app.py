"""HR 制度助手 — Streamlit entry point.

Routes to the pages with st.navigation after drawing the shared chrome (page config,
the login gate, the cached facade, the sidebar with the menu this person may use, and
the page's permission). Pages call only the facade, always with `actor=`.
Run: streamlit run app.py
"""

from __future__ import annotations

import streamlit as st

from ui.layout import LOGIN_PAGE, PAGES, mark_drawn_by_entry, render_chrome

ACCOUNT_PAGE = "pages/account.py"  # 我的账户: every logged-in person (own password); no permission of its own

ENTRIES = [
    (st.Page(path, title=title, icon=icon, default=(i == 0)), path) for i, (path, title, icon, _permission) in enumerate(PAGES)
] + [(st.Page(LOGIN_PAGE, title="登录", icon=":material/login:"), LOGIN_PAGE),
      (st.Page(ACCOUNT_PAGE, title="我的账户", icon=":material/account_circle:"), ACCOUNT_PAGE)]
page = st.navigation([entry for entry, _path in ENTRIES], position="hidden")
render_chrome(next((path for entry, path in ENTRIES if entry.url_path == page.url_path), None))  # login gate first
mark_drawn_by_entry()
page.run()
