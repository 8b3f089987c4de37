"""Tables whose long text can be read: cells wrap, and any row opens in full.

Streamlit's table grid draws one line per row and ends a long cell in "…". It wraps
text once a row is taller than 4rem (64 px, the grid's own rule in Streamlit 1.67), so
tables with titles, sections, notes or clause text are drawn with `row_height` from here.
A cell longer than those lines still ends in "…": `full_text_picker` lets HR pick a row
and read its long columns whole, with `st.text` (plain text: inert, wraps).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

WRAP_ROWS = 72  # px: three lines of wrapped text (the grid wraps above 64 px)
WRAP_ROWS_TALL = 120  # px: about five lines, for clause text


def full_text_picker(frame: pd.DataFrame, title: Sequence[str], columns: Sequence[str], *, key: str,
                     label: str = "查看某一行的全文") -> None:
    """A selectbox of the table's rows (named by the `title` columns); the chosen row's `columns` in full below."""
    if frame.empty:
        return
    names = [" · ".join(str(row[c]) for c in title if str(row[c]).strip()) for _, row in frame.iterrows()]
    chosen = st.selectbox(label, options=range(len(frame)), index=None, placeholder="选择一行，显示它的全部文字",
                          format_func=lambda i: f"{i + 1}. {names[i]}"[:80], key=key)
    if chosen is None:
        return
    row = frame.iloc[chosen]
    for column in columns:
        value = row[column]
        if value is None or (isinstance(value, float) and pd.isna(value)) or not str(value).strip():
            continue
        st.caption(column)
        st.text(str(value))
