"""HR 制度助手 — Streamlit entry point.

Routes to the pages with st.navigation after drawing the shared chrome (page config,
the cached facade, the sidebar with the menu and who is asking). Pages call only the facade.
Run: streamlit run app.py
"""

from __future__ import annotations

import streamlit as st

from ui.layout import PAGES, mark_drawn_by_entry, render_chrome

page = st.navigation(
    [st.Page(path, title=title, icon=icon, default=(i == 0)) for i, (path, title, icon, _permission) in enumerate(PAGES)],
    position="hidden",
)
render_chrome()
mark_drawn_by_entry()
page.run()
