"""Review 56 (conversations): an id two people start at once, a deleted conversation's insights rows, an undo of a
turn that told nothing, C1 control characters and a pasted-book title."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core.conversations.store import ConversationError, ConversationStore
from rag_core.facade.access import LOCAL_ADMIN
from rag_core.text.inputs import checked
from rag_core.types import Principal

TRAVEL = "# 差旅制度\n\n第一条 员工出差前须提交出差申请。\n\n第二条 出差住宿标准：一类城市每晚500元，其他城市每晚300元。\n"
ZS = Principal("zhangsan", "employee")


@pytest.fixture
def a(tmp_path):
    assistant = fake_assistant(tmp_path / "store")
    assert assistant.ingest_bytes(TRAVEL.encode(), "travel.md").ok
    return assistant


def test_a_second_person_on_the_same_new_id_does_not_write_into_the_first_ones_conversation(a):
    alice, bob = Principal("alice", "employee"), Principal("bob", "employee")
    search, started = a.search, []

    def alice_meanwhile(*args, **kwargs):  # alice's first question takes the same new id while bob's is answered
        if kwargs.get("actor") is not None and kwargs["actor"].user == "bob" and not started:
            started.append(a.ask("年假有几天？", user="alice", conversation="c-new", actor=alice))
        return search(*args, **kwargs)

    a.search = alice_meanwhile
    trace = a.ask("出差住宿标准是多少？", user="bob", conversation="c-new", actor=bob)
    assert trace.answer and trace.conversation is None and trace.turn == 0
    assert any("没有保存" in w for w in trace.search.warnings)
    conv = a.get_conversation("c-new", actor=alice)
    assert conv.user == "alice" and [t.question for t in conv.turns] == ["年假有几天？"]


def test_the_store_refuses_a_turn_for_someone_elses_conversation(tmp_path):
    store = ConversationStore(tmp_path / "c.sqlite3")
    store.ensure("c1", "alice", "年假有几天？")
    with pytest.raises(ConversationError):
        store.add_turn("c1", "q", "q", "a", {"turn": 0}, user="bob")
    assert store.turns("c1") == []
    assert store.add_turn("c1", "q", "q", "a", {"turn": 0}, user="alice") == 1


def test_a_deleted_conversations_ratings_stay_with_hr_and_do_not_attach_to_a_new_one_with_its_id(a):
    first = a.ask("出差住宿标准是多少？", user="zhangsan", conversation="c1", actor=ZS)
    a.rate_turn("c1", 1, -1, actor=ZS)
    a.record_feedback(first, -1, actor=ZS, reason=a.feedback_reasons[0], comment="我问的是别的")
    a.delete_conversation("c1", actor=ZS)
    again = a.ask("年假有几天？", user="zhangsan", conversation="c1", actor=ZS)
    assert again.turn == 1 and a.turn_feedback("c1", actor=ZS) == {}  # the old reason is not shown on the new turn
    a.rate_turn("c1", 1, -1, actor=ZS)
    a.record_feedback(again, -1, actor=ZS)
    rows = {r.question: a.feedback_detail(r.id, actor=LOCAL_ADMIN) for r in a.feedback_reviews(actor=LOCAL_ADMIN)}
    assert sorted(rows) == ["出差住宿标准是多少？", "年假有几天？"]  # HR's kept row is not overwritten
    kept = rows["出差住宿标准是多少？"]
    assert kept.comment == "我问的是别的" and kept.trace.get("question") == "出差住宿标准是多少？"
    assert set(a.turn_feedback("c1", actor=ZS)) == {1}
    a.withdraw_feedback(again, actor=ZS)  # taking back the new turn's 👎 leaves the old conversation's row
    assert [r.question for r in a.feedback_reviews(actor=LOCAL_ADMIN)] == ["出差住宿标准是多少？"]


def test_deleting_a_conversation_takes_its_questions_out_of_the_question_log(a):
    a.ask("试用期怀孕了会被辞退吗？", user="zhangsan", conversation="c1", actor=ZS)
    a.ask("出差住宿标准是多少？", user="zhangsan", conversation="c2", actor=ZS)
    assert a.knowledge_gaps(actor=LOCAL_ADMIN)
    a.delete_conversation("c1", actor=ZS)
    assert a.knowledge_gaps(actor=LOCAL_ADMIN) == []
    assert [r["question"] for r in a.insight_log.question_rows()] == ["出差住宿标准是多少？"]  # another stays


def test_undo_of_a_turn_that_told_nothing_is_refused_and_changes_nothing(a):
    trace = a.ask("出差住宿标准是多少？", user="zhangsan", conversation="c1", actor=ZS)
    with pytest.raises(ConversationError, match="没有可撤销"):
        a.undo_acknowledged("c1", 1, actor=ZS)
    assert a.get_conversation("c1", actor=ZS).turns[0].answer == trace.answer
    assert "已撤销" not in a.export_conversation_markdown("c1", actor=ZS)


def test_c1_control_characters_become_spaces():
    assert checked("a\x9bb[31m红色\x85x\x80") == "a b[31m红色 x"
    assert checked("标题\x9b", what="对话标题", max_chars=None) == "标题"


def test_a_pasted_book_as_a_title_is_refused_before_it_is_masked(a, monkeypatch):
    import rag_core.facade.conversations as facade

    a.ask("你好", user="zhangsan", conversation="c1", actor=ZS)
    masked: list[int] = []
    redact = facade.redact_text
    monkeypatch.setattr(facade, "redact_text", lambda text: masked.append(len(text)) or redact(text))
    with pytest.raises(ConversationError, match="最多 60 个字"):
        a.rename_conversation("c1", "1" * 1_000_000, actor=ZS)
    assert masked == []
    a.rename_conversation("c1", "差旅" + " " * 100 + "报销", actor=ZS)  # spaces collapse: a title within the limit
    assert a.get_conversation("c1", actor=ZS).title == "差旅 报销"
