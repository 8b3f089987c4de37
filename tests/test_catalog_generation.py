"""The catalog's generation moves with the documents only.

Search rebuilds its keyword index and drops its cached rows when the generation moves; a
rating (👍 / 👎) changes no document, so it must not cost the next question that rebuild
(0.3–0.8 s at 10k chunks, seen by the stop-37 search profile).
"""

from __future__ import annotations

from rag_core.documents.catalog import Catalog


def test_a_rating_is_kept_without_moving_the_generation(tmp_path) -> None:
    catalog = Catalog(tmp_path / "catalog.sqlite3")
    before = catalog.generation()
    catalog.add_feedback("2026-12-03T10:00:00+00:00", "local", "年假有几天？", 1, {"question": "年假有几天？"})
    assert catalog.feedback_count() == 1
    assert catalog.generation() == before
    catalog.close()
    reopened = Catalog(tmp_path / "catalog.sqlite3")  # the row was committed
    assert reopened.feedback_count() == 1
    reopened.close()


def test_a_document_change_still_moves_it(tmp_path) -> None:
    catalog = Catalog(tmp_path / "catalog.sqlite3")
    before = catalog.generation()
    catalog.set_status("no-such-doc", 1, "superseded")  # a write through the document transaction
    assert catalog.generation() == before + 1
    catalog.close()
