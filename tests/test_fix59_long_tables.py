"""Long lists are read with the page, not in a box that scrolls by itself (walkthrough 212: an HR user scrolled
inside 文档列表 and the audit table and missed rows): the page's main tables are drawn at their content's height."""

from __future__ import annotations

import streamlit as st
from app_support import open_chat
from fakes import fake_assistant

from rag_core import Principal

LOCAL = Principal(user="local", role="admin")


def test_the_document_list_and_the_audit_trail_grow_with_their_rows(tmp_path, monkeypatch):
    a = fake_assistant(tmp_path / "s")
    for i in range(12):  # more than the ten rows a default table shows
        a.ingest_bytes(f"# 制度{i}\n\n第一条 员工每年享有带薪年假 {i + 1} 天。\n".encode(), f"policy{i}.md", actor=LOCAL)
    drawn: list[dict] = []
    real = st.dataframe

    def recording(data=None, *args, **kwargs):
        drawn.append({"rows": len(data) if data is not None else 0, **kwargs})
        return real(data, *args, **kwargs)

    monkeypatch.setattr(st, "dataframe", recording)
    at = open_chat(a, tmp_path, monkeypatch)
    for page in ("pages/documents.py", "pages/audit.py"):
        drawn.clear()
        at.switch_page(page).run()
        assert not at.exception, [e.value for e in at.exception]
        long = [d for d in drawn if d["rows"] > 10]
        assert long, (page, [d["rows"] for d in drawn])
        assert all(d.get("height") == "content" for d in long), (page, long)
