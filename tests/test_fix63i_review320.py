"""Review 320 of this stop's last fixes.

- Deleting the last document while the vector clean-up fails: the catalog marks the leftover vectors, so the next start
  drops them instead of taking an empty catalog beside vectors for a lost one (it refused to start).
- Undoing a restatement leaves later turns alone when the memory they used was only replaced, not deleted.
- An assent before a tag (可以，对吧？) checks that the answer holds: a question, as a bare tag is; 好的，是吧 stays chatter.
"""

from __future__ import annotations

import gc

from rag_core.conversations.statements import split_turn
from rag_core.types import Principal
from tests.fakes import fake_assistant
from tests.test_fix52q1_server_support import ANNUAL

ADMIN, HR, LINA = Principal("boss", "admin"), Principal("hr_li", "hr"), Principal("lina", "employee")


def test_a_restart_after_the_last_delete_left_vectors_drops_them(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(ANNUAL.encode(), "nianjia.md", actor=ADMIN).ok
    [doc] = [d.doc_id for d in a.list_documents(actor=ADMIN)]

    def fails(ids):
        raise RuntimeError("disk I/O error")

    a.vectors.delete = fails
    assert a.delete_document(doc, actor=HR) == 1
    assert a.vectors.count() == 1 and a.catalog.chunk_count() == 0
    a.catalog.close()
    a.release_data_dir()
    del a
    gc.collect()
    b = fake_assistant(tmp_path / "store")  # refused before: "catalog.sqlite3 是空的，但 chroma/ 里还有…"
    assert b.vectors.count() == 0 and not b.catalog.get_meta("vectors_left_over")


def test_undoing_a_restatement_keeps_a_turn_whose_memory_was_replaced(tmp_path):
    from rag_core.insights.rows import MEMORIES_DELETED
    from tests.fakes import fake_assistant_with_samples

    a = fake_assistant_with_samples(tmp_path / "s")
    a.ask("我在研发部", user="lina", actor=LINA, conversation="c1")  # turn 0: A told
    a.ask("我在研发部", user="lina", actor=LINA, conversation="c1")  # turn 1: A told again
    asked = a.ask("我们部门加班怎么算？", user="lina", actor=LINA, conversation="c1")  # turn 2 uses A
    assert "研发部" in asked.prompt
    a.ask("我调到了市场部", user="lina", actor=LINA, conversation="c1")  # turn 3: B replaces A
    a.undo_acknowledged("c1", 1, actor=LINA)
    stored = a.conversations.traces("c1")[2].trace
    assert stored["prompt"] != MEMORIES_DELETED and "研发部" in stored["prompt"]


def test_an_assent_before_a_tag_is_a_question_and_an_acknowledgement_is_chatter():
    for turn in ("可以，对吧？", "没问题，是吧？", "不是，是吗？"):
        parts = split_turn(turn)
        assert parts.question == turn and not parts.chatter, turn
    assert split_turn("好的，是吧").chatter and split_turn("我知道了，对吧").chatter


def test_a_full_disk_at_the_last_deletes_vector_step_still_lets_the_next_start_open(tmp_path):
    """Review 321: a full disk is no `LeftOver` (its rows are left for the next start), so the mark must come from the
    vector step itself, or the restart after deleting the last document refused as a lost catalog."""
    import sqlite3

    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(ANNUAL.encode(), "nianjia.md", actor=ADMIN).ok
    [doc] = [d.doc_id for d in a.list_documents(actor=ADMIN)]

    def full(ids):
        raise sqlite3.OperationalError("database or disk is full")

    a.vectors.delete = full
    assert a.delete_document(doc, actor=HR) == 1
    a.catalog.close()
    a.release_data_dir()
    del a
    gc.collect()
    assert fake_assistant(tmp_path / "store").vectors.count() == 0


def test_postponed_work_that_fails_again_after_a_success_is_said_again(caplog):
    from rag_core.search.chroma_server import catch_up_logged

    class Store:
        outcomes = [RuntimeError("busy"), None, RuntimeError("disk I/O error")]

        def catch_up(self):
            if (outcome := self.outcomes.pop(0)) is not None:
                raise outcome

    store = Store()
    with caplog.at_level("WARNING"):
        for _ in range(3):
            catch_up_logged(store)
    assert len([r for r in caplog.records if r.levelname == "WARNING"]) == 2
