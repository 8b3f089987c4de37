"""Rating a turn reads the turns from it on, not a whole long conversation (review 254: ~2 s a 👍 at 10k turns)."""

from __future__ import annotations

from fakes import fake_assistant_with_samples

from rag_core.conversations.store import ConversationStore
from rag_core.types import Principal

ME = Principal("local", "admin")


def test_a_rating_reads_only_the_turns_from_the_rated_one_on(tmp_path, monkeypatch):
    a = fake_assistant_with_samples(tmp_path / "s")
    traces = [a.ask(q, user="local", actor=ME, conversation="c1") for q in ["年假有几天？", "病假怎么请？"] * 6]
    read: list[int | None] = []
    real = ConversationStore.get

    def get(self, conversation_id, *args, **kwargs):
        if kwargs.get("with_turns"):
            read.append(kwargs.get("last"))
        return real(self, conversation_id, *args, **kwargs)

    monkeypatch.setattr(ConversationStore, "get", get)
    a.rate_turn("c1", traces[-2].turn, 1, actor=ME)
    a.record_feedback(traces[-2], 1, actor=ME)
    assert read and None not in read and max(read) <= 2, read
    read.clear()
    a.record_feedback(traces[0], -1, actor=ME, reason="答非所问")  # the first turn: every turn is read, once
    assert len(a.feedback_reviews(actor=ME)) == 2


def test_an_administrator_rating_someone_elses_turn_leaves_one_read_row(tmp_path):
    """Review 260: the windowed read audited the conversation two or three times for one rating."""
    employee, admin = Principal("zhang", "employee"), Principal("wang", "admin")
    a = fake_assistant_with_samples(tmp_path / "s")
    traces = [a.ask(q, user="zhang", actor=employee, conversation="c1") for q in ["年假有几天？", "病假怎么请？", "加班费怎么算？"]]
    before = len(a.audit_log.entries())
    a.record_feedback(traces[1], -1, user="zhang", actor=admin, reason="答非所问")
    rows = a.audit_log.entries()[: len(a.audit_log.entries()) - before]
    assert sum(r.action == "conversation.read" for r in rows) == 1, rows
