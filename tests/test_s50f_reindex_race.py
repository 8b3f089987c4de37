"""重新索引 never writes a stale text over a version another process wrote meanwhile.

Reindex reads the live versions, then cuts and writes them one document at a time; a CLI ingest or a second
app process may store a new version of a document in between. Writing the old text then made it the newest
version: HR's update (60天) was replaced by the stale policy (30天) and the report said nothing. Real SQLite
and Chroma, the fake embedder, two facades on one data dir.
"""

from __future__ import annotations

from fakes import fake_assistant

import rag_core.facade.reindex as documents_facade  # where reindex cuts (rechunk) since review 52q3
from rag_core.types import Principal

ADMIN = Principal("boss", "admin")
OLD = "# 加班管理制度\n\n第一条 加班申请须在 30天 内提交。\n"
NEW = "# 加班管理制度\n\n第一条 加班申请须在 60天 内提交。\n"
OTHER = "# 考勤制度\n\n第一条 员工每日打卡两次。\n"


def _live_text(assistant, doc_id: str) -> str:
    return "".join(c.text for c in assistant.document_chunks(doc_id, actor=ADMIN))


def test_a_version_updated_by_another_process_during_reindex_is_skipped_and_named(tmp_path, monkeypatch):
    store = tmp_path / "store"
    app = fake_assistant(store)
    cli = fake_assistant(store)
    assert app.ingest_bytes(OTHER.encode(), "a.md", actor=ADMIN).ok
    assert app.ingest_bytes(OLD.encode(), "b.md", actor=ADMIN).ok
    real = documents_facade.rechunk

    def rechunk_then_update(chunks, settings):
        prepared = real(chunks, settings)
        if chunks[0].doc_id == "b":  # the other process stores HR's update after reindex has read b
            assert cli.ingest_bytes(NEW.encode(), "b.md", actor=ADMIN).ok
        return prepared

    monkeypatch.setattr(documents_facade, "rechunk", rechunk_then_update)
    app.update_settings(chunk_size=300, chunk_overlap=30, actor=ADMIN)
    report = app.reindex(actor=ADMIN)
    assert "60天" in _live_text(app, "b") and "30天" not in _live_text(app, "b")
    assert "60天" in _live_text(cli, "b")
    assert report.documents == 1  # a was cut again
    assert len(report.failed) == 1 and "文档在重建期间被更新，已跳过，请再重建一次" in report.failed[0]
    assert "加班管理制度" in report.failed[0]
