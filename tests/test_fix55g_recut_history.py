"""重新切块 records each version it writes in the version history (review 55g #3): the re-cut copies were written
straight through the indexer, so their text was never recorded, and when the next upload retired the copy (its chunks
deleted) the history could no longer show what that upload changed."""

from __future__ import annotations

from fakes import fake_assistant

from rag_core.types import Principal

HR, ADMIN = Principal("li", "hr"), Principal("wang", "admin")
FIVE = "# 考勤制度\n\n第一条 员工每年享有 5 天带薪年假，需提前三天申请。\n".encode()
SEVEN = "# 考勤制度\n\n第一条 员工每年享有 7 天带薪年假，需提前三天申请。\n".encode()


def test_fix55g_the_upload_after_a_recut_shows_what_it_changed(tmp_path):
    a = fake_assistant(tmp_path / "store")
    first = a.ingest_bytes(FIVE, "考勤.md", actor=HR)
    assert first.ok
    a.update_settings(chunk_size=300, chunk_overlap=30, actor=ADMIN)
    assert a.reindex(actor=ADMIN).documents == 1
    assert a.ingest_bytes(SEVEN, "考勤.md", actor=HR).version == 3
    changes = a.document_changes(first.doc_id, actor=HR)
    assert [(c.version, c.status) for c in changes][:2] == [(3, "current"), (2, "retired")]
    assert changes[0].known and changes[1].known
    assert any("7 天" in line for line in changes[0].diff) and any("5 天" in line for line in changes[0].diff)
