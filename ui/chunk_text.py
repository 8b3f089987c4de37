"""A chunk's text as a person reads it: as written, or a table chunk's rows as a small table again.

Shared by the evidence cards (ui/trace_view.py) and the documents page's chunk preview
(ui/reading_view.py). Chunk text is shown with `st.text`, so it stays inert.
"""

from __future__ import annotations

import re

import pandas as pd
import streamlit as st

_RECORD_FIELD = re.compile(r"^([^：，；\n]{1,40})：(.*)$")


def _record_fields(line: str) -> dict[str, str] | None:
    """"城市：兰州，住宿（元/晚）：380" as a dict, as the engine writes table rows (a piece without
    "header：" continues the value before it); None for a line that is not a row."""
    fields: dict[str, str] = {}
    last = None
    for part in line.split("，"):
        match = _RECORD_FIELD.match(part)
        if match:
            last = match.group(1)
            fields[last] = match.group(2)
        elif last is None:
            return None
        else:
            fields[last] += "，" + part
    return fields if len(fields) >= 2 else None


def records_frame(text: str) -> tuple[str, pd.DataFrame] | None:
    """A table chunk ("城市：兰州，住宿标准（元/晚）：380" per row, as the engine writes table rows)
    as the lines before its rows and the rows as a small table; None for ordinary text."""
    lead: list[str] = []
    rows: list[dict[str, str]] = []
    for line in text.strip("\n").split("\n"):
        fields = _record_fields(line)
        if fields is not None:
            rows.append(fields)
        elif rows and line.strip():
            return None  # prose after the rows: show the text as it is
        elif not rows:
            lead.append(line)
    return ("\n".join(lead).strip(), pd.DataFrame(rows).fillna("")) if rows else None


def render_chunk_text(text: str) -> None:
    """Chunk text as written, or a table chunk's rows as a small table again."""
    table = records_frame(text)
    if table is None:
        st.text(text)
        return
    lead, frame = table
    if lead:
        st.text(lead)
    st.dataframe(frame, hide_index=True, width="stretch")
