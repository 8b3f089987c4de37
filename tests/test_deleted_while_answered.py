"""A conversation deleted while its answer is written is not brought back when the answer is stored.

The chat page's delete (or another tab's, or the CLI's) used to be undone by the answer in progress: the turn was
stored under the deleted id and the conversation came back with it."""

from __future__ import annotations

from fakes import fake_assistant

from rag_core.facade.conversations import DELETED_MEANWHILE
from rag_core.types import Principal


def test_an_answer_finished_after_its_conversation_was_deleted_is_not_stored(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.ask("年假有几天？", user="u", conversation="c1")
    search = a._search_turn

    def delete_meanwhile(*args, **kwargs):  # the person deletes the conversation while it is answered
        a.delete_conversation("c1", actor=Principal("u"))
        return search(*args, **kwargs)

    a._search_turn = delete_meanwhile
    trace = a.ask("那病假呢？", user="u", conversation="c1")
    assert trace.answer and DELETED_MEANWHILE in trace.search.warnings
    assert [c.id for c in a.list_conversations("u")] == []


def test_a_new_conversation_is_still_made_by_its_first_answer(tmp_path):
    a = fake_assistant(tmp_path / "store")
    trace = a.ask("年假有几天？", user="u", conversation="c2")
    assert trace.turn == 1 and [c.id for c in a.list_conversations("u")] == ["c2"]
