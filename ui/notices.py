"""Confirm-then-done messages that survive the rerun a destructive action ends with.

A page that deletes something calls `st.rerun()` so every list is redrawn without
the deleted item; a toast or a success box drawn before that rerun is lost. The
message is parked in session state under the page's key and shown at the top of
the next run instead.
"""

from __future__ import annotations

import streamlit as st

_PREFIX = "done_notice_"


def notice_key(page: str) -> str:
    """Where `announce` keeps a page's message (a logout keeps the login form's: it is about no one's data)."""
    return _PREFIX + page


def announce(page: str, message: str, kind: str = "success") -> None:
    """Keep `message` for the next run of `page` (call right before st.rerun()); `kind` "warning" for an action
    that was done only in part."""
    st.session_state[notice_key(page)] = (kind, message)


def show_notice(page: str) -> None:
    """Show and clear the message `announce` kept for this page, if any."""
    kept = st.session_state.pop(notice_key(page), None)
    if not kept:
        return
    kind, message = kept if isinstance(kept, tuple) else ("success", kept)
    if kind == "warning":
        st.warning(message, icon=":material/warning:")
    else:
        st.success(message, icon=":material/check_circle:")
