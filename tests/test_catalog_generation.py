"""The catalog's generation moves with the documents only.

Search rebuilds its keyword index and drops its cached rows when the generation moves; a
rating (👍 / 👎) changes no document, so it must not cost the next question that rebuild
(0.3–0.8 s at 10k chunks, seen by the stop-37 search profile).
"""

from __future__ import annotations

from rag_core.documents.catalog import Catalog


def test_a_rating_is_kept_without_moving_the_generation(tmp_path) -> None:
    from fakes import fake_assistant_with_samples

    assistant = fake_assistant_with_samples(tmp_path / "store")
    before = assistant.catalog.generation()
    trace = assistant.ask("年假有几天？", conversation="c1")
    assistant.record_feedback(trace, -1, reason="答非所问")
    assert assistant.catalog.generation() == before
    assert len(assistant.feedback_reviews()) == 1  # kept, in the insights log


def test_a_rating_leaves_no_copy_outside_the_question_retention(tmp_path) -> None:
    """Ratings were also copied into catalog.sqlite3, with the question and trace, where neither the question
    retention nor a purge reached them; the insights log is now their only home (and drops the old table)."""
    import sqlite3

    from fakes import fake_assistant

    store = tmp_path / "store"
    old = sqlite3.connect(store / "catalog.sqlite3") if store.mkdir() is None else None
    old.execute("CREATE TABLE feedback (id INTEGER PRIMARY KEY, question TEXT)")  # as an older data dir has it
    old.execute("INSERT INTO feedback (question) VALUES ('我怀孕了产检假怎么请')")
    old.commit()
    old.close()
    assistant = fake_assistant(store, question_retention_days=0)
    assistant.ensure_samples()
    trace = assistant.ask("病假需要什么证明？我下个月做手术", conversation="c1")
    assistant.record_feedback(trace, -1, reason="答非所问", comment="我下个月做手术")
    assistant.catalog.close()
    for path in store.glob("catalog.sqlite3*"):
        blob = path.read_bytes()
        assert "产检假".encode() not in blob and "做手术".encode() not in blob, path.name


def test_a_document_change_still_moves_it(tmp_path) -> None:
    catalog = Catalog(tmp_path / "catalog.sqlite3")
    before = catalog.generation()
    catalog.set_status("no-such-doc", 1, "superseded")  # a write through the document transaction
    assert catalog.generation() == before + 1
    catalog.close()
