"""HR 制度助手 — Streamlit entry point.

Routes to the pages with st.navigation after drawing the shared chrome (page config,
the login gate, the cached facade, the sidebar with the menu this person may use, and
the page's permission). Pages call only the facade, always with `actor=`.
Run: streamlit run app.py
"""

from __future__ import annotations

import streamlit as st

from ui.layout import LOGIN_PAGE, PAGE_ICON, PAGES, mark_drawn_by_entry, render_chrome

ACCOUNT_PAGE = "pages/account.py"  # 我的账户: every logged-in person (own password); no permission of its own

# The menu is hidden (ui.layout draws its own, with the Material icons of PAGES from Streamlit's bundled font): an
# st.Page icon shows only as the tab's favicon, so every page has the app's emoji (a Material one would be fetched).
ENTRIES = [
    (st.Page(path, title=title, icon=PAGE_ICON, default=(i == 0)), path) for i, (path, title, _icon, _permission) in enumerate(PAGES)
] + [(st.Page(LOGIN_PAGE, title="登录", icon=PAGE_ICON), LOGIN_PAGE),
      (st.Page(ACCOUNT_PAGE, title="我的账户", icon=PAGE_ICON), ACCOUNT_PAGE)]
page = st.navigation([entry for entry, _path in ENTRIES], position="hidden")
render_chrome(next((path for entry, path in ENTRIES if entry.url_path == page.url_path), None))  # login gate first
mark_drawn_by_entry()
page.run()
