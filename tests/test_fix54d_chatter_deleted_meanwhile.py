"""A conversation of only chatter (谢谢) deleted while an answer is written is not brought back (review 54d).

The guard asked whether the earlier turns left after dropping chatter were empty; a conversation that held only
chatter looked new, so the answer recreated it under the deleted id."""

from __future__ import annotations

from fakes import fake_assistant

from rag_core.facade.conversations import DELETED_MEANWHILE


def test_chatter_only_conversation_deleted_meanwhile_is_not_brought_back(tmp_path):
    a = fake_assistant(tmp_path / "s")
    a.ask("谢谢", user="u1", conversation="c1")
    fired: list[int] = []

    def delete_once(_: str) -> None:
        if not fired:
            fired.append(a.delete_conversation("c1"))

    t = a.ask("年假有几天？", user="u1", conversation="c1", on_token=delete_once)
    assert fired == [1]
    assert a.conversations.get("c1") is None, t.search.warnings
    assert DELETED_MEANWHILE in t.search.warnings


def test_a_new_conversation_whose_first_turn_is_chatter_is_still_kept(tmp_path):
    a = fake_assistant(tmp_path / "s")
    first = a.ask("谢谢", user="u1", conversation="c2")
    second = a.ask("年假有几天？", user="u1", conversation="c2")
    assert (first.turn, second.turn) == (1, 2)
    assert DELETED_MEANWHILE not in second.search.warnings
