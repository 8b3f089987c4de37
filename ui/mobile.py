"""Phone layout: close the sidebar after a menu link is tapped.

On a narrow screen Streamlit draws the sidebar over the page. Its own navigation
closes it after a tap, but our menu is made of `st.page_link`s (for the Chinese
titles, see ui/layout.py), which leave it open over the page just opened. This
static script (no user data in it) closes it the way a person would, with the
sidebar's own collapse button, only below Streamlit's mobile breakpoint.
"""

from __future__ import annotations

import streamlit as st

MOBILE_MAX_WIDTH_PX = 768  # Streamlit overlays the sidebar below this width

_SCRIPT = f"""
<script>
(() => {{
  if (window.__hrSidebarAutoClose) return;
  window.__hrSidebarAutoClose = true;
  document.addEventListener("click", (event) => {{
    if (window.innerWidth >= {MOBILE_MAX_WIDTH_PX}) return;
    const link = event.target.closest && event.target.closest('[data-testid="stSidebar"] a');
    if (!link) return;
    const close = () => {{
      const sidebar = document.querySelector('[data-testid="stSidebar"]');
      if (!sidebar || sidebar.getAttribute("data-collapsed") === "true") return;
      const button = document.querySelector('[data-testid="stSidebarCollapseButton"] button')
        || document.querySelector('[data-testid="stSidebarHeader"] button');
      if (button) button.click();
    }};
    [150, 600].forEach((ms) => setTimeout(close, ms));
  }}, true);
}})();
</script>
"""


def install_sidebar_autoclose() -> None:
    """Once per page: tapping a sidebar link on a phone closes the sidebar."""
    st.html(_SCRIPT, unsafe_allow_javascript=True, width="content")
