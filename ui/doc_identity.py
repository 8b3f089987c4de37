"""A file whose different name maps onto an existing document's id: ask, never guess.

"员工手册 v2.md" then "员工手册(v2).md" normalise to the same doc id. The engine refuses
the second (`IngestReport.conflict_doc_id`); this page asks whether it is a new version
of that document and, on yes, uploads it again with the doc id given explicitly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

from rag_core import Assistant, IngestReport
from ui.inert import escape_md

CONFLICTS_KEY = "doc_identity_conflicts"


def remember_conflicts(files: Sequence[tuple[str, bytes]], reports: Sequence[IngestReport], **options: Any) -> None:
    """Keep the bytes and upload options of each refused-for-identity file until the user answers.

    Keyed by the file's position in the batch (its report's position): two files of one name in a batch
    once shared one key, so the second's bytes replaced the first's and its button clashed with the first's."""
    st.session_state[CONFLICTS_KEY] = {
        position: (name, data, options)
        for position, ((name, data), report) in enumerate(zip(files, reports, strict=False))
        if report.conflict_doc_id
    }


def forget_conflicts() -> None:
    """A new batch starts: the questions about the last one's files (keyed by position) no longer apply."""
    st.session_state.pop(CONFLICTS_KEY, None)


def still_asked(position: int) -> bool:
    """Is the question about the file at `position` of the batch shown now still open? A new batch since, or the
    answer given, closes it: a position kept from then would point at another file's report (review 352)."""
    return position in st.session_state.get(CONFLICTS_KEY, {})


def drop_conflict(position: int) -> None:
    """The file at `position` was imported as a new version: its question is answered."""
    st.session_state.get(CONFLICTS_KEY, {}).pop(position, None)


def ask_about_conflict(assistant: Assistant, position: int, report: IngestReport,
                       start: Callable[[dict, int], None]) -> None:
    """The question and the button for the refused file at `position` in the batch; a yes hands it to `start` as a
    batch of one with the doc id given explicitly, the way the page starts any upload: estimated, and asked first
    when it is long or changes who may read the document (review 347: one click widened an HR-only policy to
    全体员工, with no bar and no 取消导入)."""
    pending = st.session_state.get(CONFLICTS_KEY, {}).get(position)
    if not report.conflict_doc_id or pending is None:
        return
    name, data, options = pending
    target = report.conflict_doc_id
    st.warning(f"{escape_md(report.filename)} 和已有文档 {escape_md(target)} 对应同一个文档ID。它是那份文档的新版本吗？")
    if st.button(f"是新版本：作为 {escape_md(target)} 的下一版导入", key=f"identity_yes_{position}"):
        start({"files": [(name, data)], "doc_id": target, **options}, position)
