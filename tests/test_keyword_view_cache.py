"""Counts kept per role's view between questions (KeywordIndex.doc_freq) follow every upload and deletion."""

from __future__ import annotations

from fakes import fake_assistant


def test_doc_freq_of_a_view_follows_uploads_and_deletions(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.ingest_bytes("# 休假\n\n第一条 年假 员工每年享有年假五天。".encode(), "leave.md")
    a.ingest_bytes("# 薪酬\n\n第一条 年假 折算 HR 内部口径。".encode(), "pay.md", audience=["hr"])
    employees = a.retriever.visible("all")
    assert a.keywords.doc_freq("年假", employees) == 1
    a.ingest_bytes("# 加班\n\n第一条 加班 可以换年假。".encode(), "overtime.md")
    employees = a.retriever.visible("all")
    assert a.keywords.doc_freq("年假", employees) == 2
    assert a.search("年假", role="all").hits
    a.delete_document("overtime")
    assert a.keywords.doc_freq("年假", a.retriever.visible("all")) == 1
