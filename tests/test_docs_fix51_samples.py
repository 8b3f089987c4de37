"""The bundled sample policies are indexed once, on a store's very first start, never again.

`ensure_samples` seeded whenever the library was empty: once HR deleted the eight fictional
samples in a team install, the next restart brought them back for everyone. The catalog now
keeps a `samples_seeded` meta row. Fake embedder, real Chroma, SQLite and jieba.
"""

from __future__ import annotations

from fakes import fake_assistant

from rag_core import Principal

ADMIN = Principal("wang", "admin")
POLICY = "# 休假制度\n\n第一条 年假 5 天。\n".encode()


def delete_all(a) -> None:
    for doc in a.list_documents(actor=ADMIN):
        a.delete_document(doc.doc_id, actor=ADMIN)


def test_a_fresh_store_has_its_samples_at_once(tmp_path):
    a = fake_assistant(tmp_path / "s")
    reports = a.ensure_samples(pack=None)
    assert reports and all(r.ok for r in reports)
    assert len(a.list_documents()) == len(reports)


def test_samples_hr_deleted_stay_deleted_after_a_restart(tmp_path):
    d = tmp_path / "s"
    a = fake_assistant(d)
    a.ensure_samples(pack=None)
    a.add_user("wang", "admin", "correct horse", actor=ADMIN)
    delete_all(a)
    assert a.ensure_samples(pack=None) == []  # the same process
    a.release_data_dir()
    b = fake_assistant(d)  # the app restarts
    assert b.ensure_samples(pack=None) == []
    assert b.list_documents(actor=ADMIN) == []


def test_a_store_used_before_this_version_is_never_seeded(tmp_path):
    d = tmp_path / "s"
    a = fake_assistant(d)
    assert a.ingest_bytes(POLICY, "leave.md").ok
    delete_all(a)  # HR emptied the library under the version without the flag
    a.catalog._db.execute("DELETE FROM meta WHERE key='samples_seeded'")
    a.catalog._db.commit()
    a.release_data_dir()
    b = fake_assistant(d)  # first open under this version
    assert b.ensure_samples(pack=None) == []
    assert b.list_documents() == []


def test_a_library_in_use_counts_as_seeded(tmp_path):
    d = tmp_path / "s"
    a = fake_assistant(d)
    assert a.ingest_bytes(POLICY, "leave.md").ok
    assert a.ensure_samples(pack=None) == []
    delete_all(a)
    assert a.ensure_samples(pack=None) == []


def test_a_seeding_that_indexed_nothing_is_tried_again(tmp_path):
    d = tmp_path / "s"
    a = fake_assistant(d)
    empty = tmp_path / "no-samples"
    empty.mkdir()
    assert a.ensure_samples(empty, pack=None) == []
    a.release_data_dir()
    b = fake_assistant(d)
    assert b.ensure_samples(pack=None)
    assert b.list_documents()
