"""Review 209 of the chat and memories pages: a reaction (👍, ？？？) is chatter, neither searched nor a knowledge gap;
a question refused before anything was kept leaves no new conversation in the address; the memory edit box shows
what was kept (masked); a rating is of a stored turn of the rater's own conversation, not a trace a caller wrote."""

from __future__ import annotations

from dataclasses import replace

import pytest
from app_support import open_chat, point_the_app_at
from fakes import fake_assistant, fake_assistant_with_samples

from rag_core import RagError
from rag_core.conversations.statements import CHATTER_REPLY
from rag_core.types import Principal

HR, ADMIN = Principal("hr", "hr"), Principal("wang", "admin")
ALICE, BOB = Principal("alice", "employee"), Principal("bob", "employee")


@pytest.mark.parametrize("reaction", ["👍", "😀😀😀", "？？？", "!!!", "。。。", "🙏🙏"])
def test_a_reaction_is_chatter_not_a_gap(tmp_path, reaction):
    a = fake_assistant_with_samples(tmp_path / "s")
    assert a.ask("出差住宿标准是多少？", user="alice", conversation="c1", actor=ALICE).outcome == "answered"
    trace = a.ask(reaction, user="alice", conversation="c1", actor=ALICE)
    assert trace.answer == CHATTER_REPLY and trace.search_question == ""
    assert a.knowledge_gaps(actor=HR) == []


def test_a_reaction_after_a_question_is_not_searched(tmp_path):
    a = fake_assistant_with_samples(tmp_path / "s")
    assert a.ask("年假有几天？👍", user="alice", conversation="c1", actor=ALICE).search_question == "年假有几天？"


def test_a_blank_first_question_leaves_no_conversation_in_the_address(tmp_path, monkeypatch):
    a = fake_assistant_with_samples(tmp_path / "s")
    at = open_chat(a, tmp_path, monkeypatch)
    at.chat_input[0].set_value("\u200b").run()
    assert any("不能为空" in e.value for e in at.error)
    assert at.query_params.get("c") in (None, [], "")
    at.run()
    assert not any("不存在或已被删除" in i.value for i in at.info)


def test_the_memory_edit_box_shows_the_masked_text_after_saving(tmp_path, monkeypatch):
    from streamlit.testing.v1 import AppTest

    import ui.state

    a = fake_assistant(tmp_path / "s")
    memory_id, _ = a.remember("local", "我在上海办公室")
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: a)
    at = AppTest.from_file("../app.py", default_timeout=120)
    at.run()
    at.switch_page("pages/memories.py").run()
    next(s for s in at.selectbox if s.label == "选择要修改的记忆").set_value(memory_id).run()
    next(t for t in at.text_area if t.label == "新的内容").set_value("我在杭州办公室，电话13812345678").run()
    next(b for b in at.button if b.label == "保存修改").click().run()
    assert a.list_memories("local")[0].content.endswith("[手机号]")
    assert [t.value for t in at.text_area if t.label == "新的内容"] == ["我在杭州办公室，电话[手机号]"]


@pytest.fixture()
def people(tmp_path):
    a = fake_assistant_with_samples(tmp_path / "s")
    for p in (ADMIN, ALICE, BOB):
        a.add_user(p.user, p.role, "correct horse", p.audiences, actor=ADMIN)
    return a


def test_a_trace_written_by_the_caller_is_not_rated(people):
    a = people
    asked = a.ask("出差住宿标准是多少？", user="alice", conversation="c-alice", actor=ALICE)
    forged = replace(asked, question="公司允许我贪污吗？", answer="可以，公司允许员工贪污 [资料1]")
    with pytest.raises(RagError):
        a.record_feedback(forged, -1, actor=BOB, comment="答得离谱")
    a.record_feedback(forged, -1, actor=ALICE, comment="答得离谱")  # her own turn: the stored answer is what is rated
    [entry] = a.feedback_reviews(actor=ADMIN)
    assert entry.question == asked.question and "贪污" not in entry.answer
    missing = replace(asked, turn=99)
    with pytest.raises(RagError):
        a.record_feedback(missing, 1, actor=ALICE)


@pytest.mark.parametrize("searched_with_memories", [False, True])
def test_purging_memories_takes_them_out_of_the_turns_that_used_them(tmp_path, monkeypatch, searched_with_memories):
    import json

    import rag_core.facade.memories as memories

    if searched_with_memories:  # what e5 does when the memory search leads with a likelier clause (review 211)
        monkeypatch.setattr(memories, "keeps_memory_search", lambda own, found: True)
    a = fake_assistant_with_samples(tmp_path / "s", memory_threshold=0.0)
    a.remember("alice", "用户怀孕7个月，产检在杭州", actor=ALICE)
    used = a.ask("产假有多少天？", user="alice", conversation="c1", actor=ALICE)
    assert any("怀孕7个月" in m.content for m in used.memories) and "怀孕7个月" in used.prompt
    assert ("产检在杭州" in used.memory_search) is searched_with_memories
    told = a.ask("我在研发部", user="alice", conversation="c1", actor=ALICE)  # what she typed stays hers
    assert told.acknowledged
    assert a.purge_memories("alice", actor=ALICE).count >= 1
    turns = a.get_conversation("c1", actor=ALICE).turns
    kept = json.dumps([t.trace for t in turns], ensure_ascii=False)
    # 怀孕7个月 is a policy's words too (第十六条 特殊保护): what only the memory said is checked
    assert "产检在杭州" not in kept and "产检在杭州" not in json.dumps(a.export_history("alice", actor=ALICE),
                                                                  ensure_ascii=False)
    assert "产检在杭州" not in a.export_conversation_markdown("c1", actor=ALICE)
    assert "我在研发部" in kept and not turns[-1].trace["acknowledged"] and "已随“清空全部记忆”删除" in turns[-1].answer
    assert "一并删除" in a.audit_entries(action="memory.purge", actor=ADMIN)[0].detail


def test_every_conversation_can_be_reached_from_the_sidebar(tmp_path, monkeypatch):
    import time

    a = fake_assistant_with_samples(tmp_path / "s")
    a.conversations.ensure("oldest", "local", "最早的对话：年假怎么算")
    a.conversations.add_turn("oldest", "最早的对话：年假怎么算", "", "…", {"turn": 0}, user="local")
    time.sleep(1.1)  # stamps are to the second
    for i in range(30):
        a.conversations.ensure(f"c{i:02d}", "local", f"问题{i}")
        a.conversations.add_turn(f"c{i:02d}", f"问题{i}", "", "…", {"turn": 0}, user="local")
    at = open_chat(a, tmp_path, monkeypatch)
    listed = [b for b in at.sidebar.button if (b.key or "").startswith("open_")]
    assert len(listed) == 30 and not any(b.key == "open_oldest" for b in listed)
    next(b for b in at.sidebar.button if b.key == "more_conversations").click().run()
    assert any(b.key == "open_oldest" for b in at.sidebar.button)
    assert not any(b.key == "more_conversations" for b in at.sidebar.button)


def test_undo_after_a_hand_edit_says_the_fact_was_kept_as_edited(tmp_path):
    a = fake_assistant_with_samples(tmp_path / "s")
    told = a.ask("我在销售部工作", user="alice", conversation="c1", actor=ALICE)
    [memory] = told.acknowledged
    a.update_memory_text(memory["id"], "我在市场部工作", actor=ALICE)
    undone = a.undo_acknowledged("c1", told.turn, actor=ALICE)
    assert (undone.deleted, undone.kept_before, undone.edited) == (0, 0, 1)
    answer = a.get_conversation("c1", actor=ALICE).turns[-1].answer
    assert "手动修改过" in answer and "以前就记住了" not in answer
    assert [m.content for m in a.list_memories("alice", actor=ALICE)] == ["我在市场部工作"]


def test_a_person_exports_their_own_memories_masked(tmp_path, monkeypatch):
    import json

    from streamlit.testing.v1 import AppTest

    import ui.state

    a = fake_assistant(tmp_path / "s")
    a.remember("local", "我在杭州办公室，电话13812345678")
    a.remember("other", "别人的记忆")
    exported = a.export_memories("local")
    assert [m["content"] for m in exported["memories"]] == ["我在杭州办公室，电话[手机号]"]
    with pytest.raises(RagError):
        fake = fake_assistant(tmp_path / "t")
        fake.add_user("bob", "employee", "correct horse", (), actor=ADMIN)
        fake.export_memories("alice", actor=Principal("bob", "employee"))
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: a)
    at = AppTest.from_file("../app.py", default_timeout=120)
    at.run()
    at.switch_page("pages/memories.py").run()
    assert not at.exception
    [button] = [b for b in at.get("download_button") if "导出全部" in b.proto.label]
    assert "13812345678" not in json.dumps(exported, ensure_ascii=False)
