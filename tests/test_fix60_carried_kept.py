"""A turn keeps what it carries (review 250 #5): judging whether a reader may still read a turn read every trace of
the whole conversation at each question (200 turns: 77-140 ms an ask against 15-17 ms before the hiding rule). Each
stored turn now keeps the audiences and documents it carries (its own and those of the turns in its prompt, back),
so the next question and a reopened conversation read the recent turns only, and judge them the same."""

from __future__ import annotations

from fakes import fake_assistant_with_samples
from test_audience_leaks import ADMIN, BONUS_POLICY, QUESTION, SECRET, _Repeating

from rag_core.conversations.store import ConversationStore
from rag_core.facade.turn_access import CARRIED_KEY, HIDDEN_TURN
from rag_core.types import Principal

MANAGER = Principal("mgr_zhou", "employee", ("managers",))
DEMOTED = Principal("mgr_zhou", "employee", ())


def _long_manager_conversation(tmp_path, turns: int):
    a = fake_assistant_with_samples(tmp_path / "s", llm=_Repeating())
    assert a.ingest_bytes(BONUS_POLICY, "管理层绩效奖金办法.txt", audience=("managers",), actor=ADMIN).ok
    a.add_user("boss", "admin", "correct horse", actor=ADMIN)
    a.add_user("mgr_zhou", "employee", "correct horse", ["managers"], actor=ADMIN)
    assert SECRET in a.ask(QUESTION, user="mgr_zhou", actor=MANAGER, conversation="m1").answer
    for _ in range(turns - 1):  # each answer repeats the one before it: every turn carries the managers' clause
        assert SECRET in a.ask("年假有几天？", user="mgr_zhou", actor=MANAGER, conversation="m1").answer
    return a


def test_a_stored_turn_keeps_what_it_carries(tmp_path):
    a = _long_manager_conversation(tmp_path, 2)
    stored = a.conversations.turns("m1", masked_traces=False)
    assert all(["managers"] in t.trace[CARRIED_KEY]["audiences"] for t in stored), [t.trace.get(CARRIED_KEY) for t in stored]


def test_the_next_question_reads_the_recent_turns_only_and_still_hides_what_they_carry(tmp_path, monkeypatch):
    a = _long_manager_conversation(tmp_path, 8)
    a.set_user_role("mgr_zhou", "employee", [], actor=ADMIN)
    read: list[int | None] = []
    real = ConversationStore.turns

    def turns(self, conversation_id, last=None, **kwargs):
        read.append(last)
        return real(self, conversation_id, last, **kwargs)

    monkeypatch.setattr(ConversationStore, "turns", turns)
    nxt = a.ask("病假怎么请？", user="mgr_zhou", actor=DEMOTED, conversation="m1")
    assert SECRET not in nxt.prompt and SECRET not in nxt.answer
    assert read and None not in read, read  # never the whole history
    _, recent = a.open_conversation("m1", actor=DEMOTED, last=3)
    assert [t.answer for t in recent][:2] == [HIDDEN_TURN, HIDDEN_TURN], [t.answer for t in recent]
