"""Tables whose long text can be read: cells wrap, and any row opens in full.

Streamlit's table grid draws one line per row and ends a long cell in "…". It wraps
text once a row is taller than 4rem (64 px, the grid's own rule in Streamlit 1.67), so
tables with titles, sections, notes or clause text are drawn with `row_height` from here.
A cell longer than those lines still ends in "…": `full_text_picker` lets HR pick a row
and read its long columns whole, with `st.text` (plain text: inert, wraps).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import altair as alt
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


LABEL_CHARS = 14  # the longest label chart_labels gives; the axis is drawn wide enough for it (label_limit_px)
# Streamlit's chart theme draws axis labels at 12 px and cuts them at 100 px (labelLimit): about 7 Chinese characters,
# so 星河科技有限公司… titles all read 星河科技有限公…. A CJK glyph is 1 em wide; a pixel each of slack.
AXIS_LABEL_PX = 13
_PREFIX_ENDS = ("公司", "集团", "有限公司", "股份", "中心", "：", ":", " ", "·", "-", "—", "_")


def label_limit_px() -> int:
    """The axis labelLimit that shows a label of LABEL_CHARS whole."""
    return LABEL_CHARS * AXIS_LABEL_PX


def _name_prefixes(title: str) -> set[str]:
    """Each start of `title` that ends where a name ends (星河科技有限公司|…, 人力资源部：|…)."""
    return {title[: i + len(end)] for end in _PREFIX_ENDS for i in range(len(title)) if title.startswith(end, i)}


def _shared_prefix(titles: list[str]) -> str:
    """The start most titles share, only up to where a name ends (星河科技有限公司|考勤…), never inside a word: one
    document uploaded without the company's name (员工宠物友好办公制度) must not bring the name back on all others.
    Shared by at least two titles and by more than half; the most shared, then the longest."""
    counts = Counter(prefix for title in titles for prefix in _name_prefixes(title))
    shared = [(n, len(prefix), prefix) for prefix, n in counts.items() if n >= 2 and n * 2 > len(titles)]
    return max(shared)[2] if shared else ""


def _cut_end(text: str) -> str:
    return text if len(text) <= LABEL_CHARS else text[: LABEL_CHARS - 1] + "…"


def _cut_middle(text: str) -> str:
    """Head and tail of a long title (员工考勤…2024年修订版）): versions and years are told apart at the end."""
    if len(text) <= LABEL_CHARS:
        return text
    head = LABEL_CHARS // 3
    return text[:head] + "…" + text[-(LABEL_CHARS - 1 - head):]


def _numbered(label: str, n: int) -> str:
    """`label` with （n） on the end, cut first so that the whole stays within LABEL_CHARS."""
    suffix = f"（{n}）"
    if len(label) + len(suffix) <= LABEL_CHARS:
        return label + suffix
    return label[: max(LABEL_CHARS - len(suffix) - 1, 1)] + "…" + suffix


def chart_labels(titles: list[str]) -> list[str]:
    """The part of each title that tells it from the others (星河科技有限公司考勤与休假管理制度 → 考勤与休假管理制度): the
    chart cut every full title of one company to the same 星河科技有限公… (the prefix most titles share goes, from
    the titles that have it). Long titles that would still be cut to the
    same label keep head and tail instead (…2023年修订版） / …2024年修订版）). A label that would repeat one already
    given, or another document's title, is numbered until it is unique, within LABEL_CHARS."""
    prefix = _shared_prefix(titles)
    taken = set(titles)
    rests = [(title[len(prefix):].strip() if prefix and title.startswith(prefix) else title) or title for title in titles]
    cut_alike = Counter(_cut_end(rest) for rest in set(rests))
    labels: list[str] = []
    for title, rest in zip(titles, rests, strict=True):
        label = _cut_end(rest) if cut_alike[_cut_end(rest)] == 1 else _cut_middle(rest)
        n, unique = 1, label
        while unique in labels or (unique != title and unique in taken):
            n += 1
            unique = _numbered(label, n)
        labels.append(unique)
    return labels


def labelled_bar_chart(frame: pd.DataFrame, label: str, value: str) -> alt.Chart:
    """Horizontal bars of a count `value`, one per row, named by `label` (from chart_labels), in the frame's order, the
    axis wide enough for a whole label: st.bar_chart keeps the theme's 100 px, which cut distinct labels to the same.
    The count axis ticks whole numbers (one question read 0.00–1.00 in steps of 0.05)."""
    return alt.Chart(frame).mark_bar().encode(
        x=alt.X(f"{value}:Q", title=value, axis=alt.Axis(format="d", tickMinStep=1)),  # counts: no 0.05 steps
        y=alt.Y(f"{label}:N", title=label, sort=None, axis=alt.Axis(labelLimit=label_limit_px())),
        tooltip=[alt.Tooltip(f"{label}:N"), alt.Tooltip(f"{value}:Q")],
    )
