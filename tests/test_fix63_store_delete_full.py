"""Deleting a document on a full disk (review 63, defect 3): one Chinese line saying nothing was deleted, and the
in-memory statistics (the corpus centroid) still match what is stored.

The delete used to subtract the document from the centroid first and save it to the catalog: on a full disk that
save failed, the page showed "删除失败：database or disk is full", and the in-memory centroid had already lost the
document that was still there. The catalog's delete now goes first, in one transaction: it fails whole.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from fakes import fake_assistant_with_samples

from rag_core.errors import RagError
from rag_core.facade.access import LOCAL_ADMIN

DOC = "08_remote_work"


def _full(*_: object, **__: object) -> None:
    exc = sqlite3.OperationalError("database or disk is full")
    exc.sqlite_errorcode = sqlite3.SQLITE_FULL
    raise exc


def test_a_delete_on_a_full_disk_says_so_and_deletes_nothing(tmp_path: Path, monkeypatch):
    a = fake_assistant_with_samples(tmp_path / "data")
    try:
        before = {d.doc_id for d in a.list_documents(actor=LOCAL_ADMIN)}
        assert DOC in before
        count = a.centroid.count()
        chunks = a.catalog.chunk_count()
        monkeypatch.setattr(a.catalog, "set_meta", _full)
        monkeypatch.setattr(a.catalog, "delete_document", _full)
        with pytest.raises(RagError) as caught:
            a.delete_document(DOC, actor=LOCAL_ADMIN)
        said = str(caught.value)
        assert "磁盘空间已满" in said and "没有删除" in said
        assert "database or disk is full" not in said
        monkeypatch.undo()
        assert {d.doc_id for d in a.list_documents(actor=LOCAL_ADMIN)} == before
        assert a.catalog.chunk_count() == chunks
        assert a.centroid.count() == count  # in memory as stored: the document is still counted
        assert a.vectors.count() == chunks
        assert a.delete_document(DOC, actor=LOCAL_ADMIN) > 0  # room again: the delete goes through whole
        assert DOC not in {d.doc_id for d in a.list_documents(actor=LOCAL_ADMIN)}
        assert a.vectors.count() == a.catalog.chunk_count() < chunks
        assert a.centroid.count() < count
    finally:
        a.release_data_dir()
        a.catalog.close()
