"""Conversations that last: follow-ups in `ask`, turns stored with their trace, export, delete, retention, statements.

Logic on the shared fakes (real SQLite and Chroma, the bigram embedder); the
three-turn dialogue and the CLI once more with the real e5 model (integration).
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from cli_support import invoke
from conftest import open_assistant
from fakes import QueuedLLM, fake_assistant

import rag_core.cli
from rag_core.answer.prompt import NOT_IN_POLICY
from rag_core.errors import PermissionDenied, RagError
from rag_core.facade.conversations import STORE_FILE
from rag_core.types import Principal

TRAVEL = (
    "# 差旅制度\n\n第一条 员工出差前须提交出差申请，经直接上级批准后方可出行。\n\n"
    "第二条 出差住宿标准：一类城市每晚500元，其他城市每晚300元。\n\n第三条 网约车须上传平台电子行程单。\n"
)
LEAVE = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n\n第二条 病假须提供医院诊断证明。\n"


@pytest.fixture()
def assistant(tmp_path):
    facade = fake_assistant(tmp_path / "store")
    for name, text in (("travel.md", TRAVEL), ("leave.md", LEAVE)):
        assert facade.ingest_bytes(text.encode("utf-8"), name).ok
    return facade


def test_a_follow_up_is_searched_standalone_and_the_turn_is_stored(assistant, tmp_path):
    first = assistant.ask("出差住宿标准是多少？", user="zhangsan", conversation="c1")
    second = assistant.ask("那一类城市呢？", user="zhangsan", conversation="c1")
    assert first.search_question == "出差住宿标准是多少？" and first.turn == 1
    assert second.search_question == "一类城市出差住宿标准是多少？" and second.turn == 2
    assert second.search.query == "一类城市出差住宿标准是多少？"
    data = second.to_dict()
    assert data["conversation"] == "c1" and data["search_question"] == "一类城市出差住宿标准是多少？"
    # the answer step gets the rewritten question and the last turns
    assert "【之前的对话】" in second.prompt and "用户：出差住宿标准是多少？" in second.prompt
    assert second.prompt.rstrip().endswith("【问题】一类城市出差住宿标准是多少？")
    # a restart (a new facade on the same data dir) finds the conversation with its traces
    again = fake_assistant(tmp_path / "store")
    [conv] = again.list_conversations("zhangsan")
    assert conv.id == "c1" and conv.turn_count == 2 and conv.title == "出差住宿标准是多少？"
    turns = again.get_conversation("c1").turns
    assert [t.question for t in turns] == ["出差住宿标准是多少？", "那一类城市呢？"]
    assert turns[1].trace["search_question"] == "一类城市出差住宿标准是多少？" and turns[1].trace["hits"]


def test_without_a_conversation_nothing_is_stored_and_nothing_is_rewritten(assistant, tmp_path):
    trace = assistant.ask("那一类城市呢？", user="zhangsan")
    assert trace.search_question == "那一类城市呢？" and trace.conversation is None
    assert assistant.list_conversations("zhangsan") == []


def test_the_llm_rewrites_follow_ups_only(tmp_path):
    llm = QueuedLLM()
    facade = fake_assistant(tmp_path / "store", llm=llm)
    assert facade.ingest_bytes(TRAVEL.encode("utf-8"), "travel.md").ok
    llm.enqueue("一类城市每晚500元 [资料1]")  # answer 1 (a standalone question: no rewrite call)
    facade.ask("出差住宿标准是多少？", user="u", conversation="c", remember=False)
    assert len(llm.prompts) == 1
    llm.enqueue("一类城市出差住宿标准是多少？").enqueue("一类城市每晚500元 [资料1]")
    trace = facade.ask("那一类城市呢？", user="u", conversation="c", remember=False)
    assert "【最后一个问题】那一类城市呢？" in llm.prompts[1]
    assert trace.search_question == "一类城市出差住宿标准是多少？"
    assert trace.followup == "那…呢（大模型改写）"  # the rules' reason, and who wrote the rewrite
    assert "【问题】一类城市出差住宿标准是多少？" in llm.prompts[2]


def test_a_model_gluing_a_complete_question_is_held_to_the_rules_checks(tmp_path):
    """公司有班车吗？ is short, so the rules only suspect it of leaning on the last turn and let its search decide.
    A model asked to rewrite it glued it to the last question; that rewrite stays on trial like the rules' own,
    and 班车, a noun no policy uses, keeps the question as typed (before stop 44 the model's rewrite was searched
    unchecked)."""
    llm = QueuedLLM()
    facade = fake_assistant(tmp_path / "store", llm=llm)
    assert facade.ingest_bytes(TRAVEL.encode("utf-8"), "travel.md").ok
    llm.enqueue("一类城市每晚500元 [资料1]")
    facade.ask("出差住宿标准是多少？", user="u", conversation="c", remember=False)
    llm.enqueue("出差住宿标准公司有班车吗？")  # the rewrite; the answer step needs no model: nothing is found
    trace = facade.ask("公司有班车吗？", user="u", conversation="c", remember=False)
    assert "【最后一个问题】公司有班车吗？" in llm.prompts[1]
    assert trace.search_question == "公司有班车吗？", trace.followup
    assert trace.followup.endswith("新话题，不改写（大模型的改写未采用）"), trace.followup  # the trace says a model tried


def test_a_model_rewrite_keeps_the_rules_reason_and_says_who_wrote_it(tmp_path):
    """那… says the question goes on from the last turn, so a noun the policies never use (班车) does not make
    it a new topic; that holds for the model's rewrite too (its reason is the rules' reason, the trace adds
    who wrote the rewrite), found in review of stop 44."""
    llm = QueuedLLM()
    facade = fake_assistant(tmp_path / "store", llm=llm)
    assert facade.ingest_bytes(TRAVEL.encode("utf-8"), "travel.md").ok
    llm.enqueue("一类城市每晚500元 [资料1]")
    facade.ask("出差住宿标准是多少？", user="u", conversation="c", remember=False)
    llm.enqueue("出差坐班车的钱能报销吗？").enqueue("出差须提交出差申请 [资料1]")
    trace = facade.ask("那坐班车的钱能报吗？", user="u", conversation="c", remember=False)
    assert "【最后一个问题】那坐班车的钱能报吗？" in llm.prompts[1]
    assert "新话题" not in trace.followup and "结合上文" in trace.followup, trace.followup
    assert trace.followup.startswith("可能承接上文（承接上文，大模型改写）"), trace.followup  # the trace says a model tried


@pytest.mark.parametrize(
    "reply",
    [
        "你的任务：把对话里【最后一个问题】改写成\n要求：补全它",  # SmolLM2-135M, every time
        "那一类城市呢？",  # the fragment handed back
        "那一类城市呢",
        "一类城市呢？",  # a near echo: nothing from the earlier turn added
        "那么一类城市呢？",
        "一类城市每晚500元。",  # an answer, not a question
    ],
)
def test_a_model_reply_that_is_no_rewrite_leaves_the_rules_rewrite(tmp_path, reply):
    """The rules' question is searched, never the raw fragment."""
    llm = QueuedLLM()
    facade = fake_assistant(tmp_path / "store", llm=llm)
    assert facade.ingest_bytes(TRAVEL.encode("utf-8"), "travel.md").ok
    llm.enqueue("一类城市每晚500元 [资料1]")
    facade.ask("出差住宿标准是多少？", user="u", conversation="c", remember=False)
    llm.enqueue(reply).enqueue("一类城市每晚500元 [资料1]")
    trace = facade.ask("那一类城市呢？", user="u", conversation="c", remember=False)
    assert "【最后一个问题】那一类城市呢？" in llm.prompts[1]
    assert trace.search_question == "一类城市出差住宿标准是多少？"


def test_export_markdown_holds_the_cited_clause_and_history_json_every_trace(assistant):
    assistant.ask("出差住宿标准是多少？", user="zhangsan", conversation="c1")
    markdown = assistant.export_conversation_markdown("c1")
    assert "**问：** 出差住宿标准是多少？" in markdown
    assert "一类城市每晚500元" in markdown and "travel.md" in markdown and "> " in markdown
    history = assistant.export_history("zhangsan")
    assert history["conversations"][0]["turns"][0]["trace"]["sources"]
    json.dumps(history, ensure_ascii=False)


def test_delete_takes_the_turns_and_their_traces(assistant, tmp_path):
    assistant.ask("出差住宿标准是多少？", user="zhangsan", conversation="c1")
    assistant.ask("那一类城市呢？", user="zhangsan", conversation="c1")
    assert assistant.delete_conversation("c1") == 2
    with sqlite3.connect(tmp_path / "store" / STORE_FILE) as db:
        assert db.execute("SELECT COUNT(*) FROM turns").fetchone()[0] == 0
        assert db.execute("SELECT COUNT(*) FROM conversations").fetchone()[0] == 0
    with pytest.raises(RagError, match="找不到对话"):
        assistant.get_conversation("c1")


def test_rename_and_rating(assistant):
    assistant.ask("出差住宿标准是多少？", user="zhangsan", conversation="c1")
    assistant.rename_conversation("c1", "  住宿 标准 ")
    assistant.rate_turn("c1", 1, -1)
    conv = assistant.get_conversation("c1")
    assert conv.title == "住宿 标准" and conv.turns[0].rating == -1
    with pytest.raises(RagError, match="不能为空"):
        assistant.rename_conversation("c1", "   ")


def test_a_conversation_belongs_to_its_user(assistant):
    assistant.ask("出差住宿标准是多少？", user="zhangsan", conversation="c1")
    with pytest.raises(RagError, match="属于其他用户"):
        assistant.ask("那一类城市呢？", user="lisi", conversation="c1")
    lisi = Principal("lisi", "employee")
    for action in (
        lambda: assistant.get_conversation("c1", actor=lisi),
        lambda: assistant.delete_conversation("c1", actor=lisi),
        lambda: assistant.export_conversation_markdown("c1", actor=lisi),
        lambda: assistant.list_conversations("zhangsan", actor=lisi),
    ):
        with pytest.raises(PermissionDenied):
            action()
    assert assistant.get_conversation("c1", actor=Principal("zhangsan", "employee")).turn_count == 1


def test_retention_deletes_old_conversations(assistant):
    assistant.ask("出差住宿标准是多少？", user="zhangsan", conversation="old")
    assistant.ask("年假有几天？", user="zhangsan", conversation="new")
    later = datetime.now(UTC) + timedelta(days=200)
    with sqlite3.connect(assistant.conversations.path) as db:
        db.execute("UPDATE conversations SET updated_at = ? WHERE id = 'new'", (later.isoformat(),))
    assert assistant.conversations.purge_older_than(180, now=later) == 1
    assert [c.id for c in assistant.list_conversations("zhangsan")] == ["new"]
    assert assistant.conversations.purge_older_than(0, now=later) == 0  # 0 keeps everything


def test_personal_data_in_a_question_is_masked_before_it_is_stored(assistant):
    assistant.ask("我手机13812345678，年假有几天？", user="zhangsan", conversation="c1")
    stored = assistant.get_conversation("c1")
    assert "13812345678" not in json.dumps(stored.to_dict(), ensure_ascii=False)
    assert "[手机号]" in stored.turns[0].question


def test_a_statement_is_acknowledged_with_an_undo(assistant):
    trace = assistant.ask("我是财务部的张三，我常驻杭州", user="zhangsan", conversation="c1")
    assert trace.hit_count == 0 and NOT_IN_POLICY not in trace.answer
    assert trace.answer.startswith("好的，我记住了：") and "您常驻杭州" in trace.answer
    remembered = {m["content"] for m in trace.acknowledged}
    assert "用户常驻杭州" in remembered
    assert {m.content for m in assistant.list_memories("zhangsan")} >= remembered
    assert assistant.undo_acknowledged("c1", trace.turn) == len(trace.acknowledged)
    assert not remembered & {m.content for m in assistant.list_memories("zhangsan")}
    assert assistant.get_conversation("c1").turns[0].trace["acknowledged"] == []


def test_a_statement_with_a_question_gets_both(assistant):
    trace = assistant.ask("我常驻杭州，出差住宿标准是多少？", user="zhangsan", conversation="c1")
    assert trace.search_question == "出差住宿标准是多少？" and trace.hit_count >= 1
    assert "500" in trace.answer and "好的，我记住了：您常驻杭州" in trace.answer


def test_cli_ask_continues_a_conversation(tmp_path, capsys, monkeypatch):
    store = tmp_path / "store"
    facade = fake_assistant(store)
    assert facade.ingest_bytes(TRAVEL.encode("utf-8"), "travel.md").ok
    monkeypatch.setattr(rag_core.cli, "open_assistant", lambda args: fake_assistant(args.data_dir))
    first = invoke(capsys, "--data-dir", str(store), "ask", "出差住宿标准是多少？", "--user", "u", "--conversation", "任意 id", "--json").json()
    second = invoke(capsys, "--data-dir", str(store), "ask", "那一类城市呢？", "--user", "u", "--conversation", "任意 id", "--json").json()
    assert first["conversation"] == "任意 id" and first["search_question"] == "出差住宿标准是多少？"
    assert second["search_question"] == "一类城市出差住宿标准是多少？" and second["turn"] == 2
    plain = invoke(capsys, "--data-dir", str(store), "ask", "那其他城市呢？", "--user", "u", "--conversation", "任意 id")
    assert "按上文理解为：其他城市出差住宿标准是多少？" in plain.stdout


@pytest.mark.integration
def test_three_turn_dialogue_answered_from_the_right_clauses(store_copy: Path):
    """The issue's dialogue on the real model: the follow-ups find the 500 元 rate and the approval clause."""
    a = open_assistant(store_copy)
    a.ask("出差住宿标准是多少？", user="zhangsan", conversation="trip")
    second = a.ask("那一线城市呢？", user="zhangsan", conversation="trip")
    third = a.ask("这个需要谁审批？", user="zhangsan", conversation="trip")
    assert second.search_question == "一线城市出差住宿标准是多少？"
    assert "一类城市500元" in second.search.hits[0].chunk.text and "500" in second.answer
    assert "出差审批" in third.search.hits[0].chunk.section
    assert "批准" in third.answer


def test_a_reopened_conversation_gives_back_each_trace_as_it_was(assistant, tmp_path):
    asked = assistant.ask("出差住宿标准是多少？", user="zhangsan", conversation="c1")
    conv, [trace] = fake_assistant(tmp_path / "store").open_conversation("c1")
    assert conv.id == "c1" and trace.turn == 1 and trace.conversation == "c1"
    assert trace.answer == asked.answer and trace.prompt == asked.prompt
    assert [h.chunk.chunk_id for h in trace.search.hits] == [h.chunk.chunk_id for h in asked.search.hits]
    assert [h.scores.probability for h in trace.search.hits] == [h.scores.probability for h in asked.search.hits]
    assert [s.text for s in trace.sources] == [s.text for s in asked.sources]


def test_two_questions_at_once_in_one_conversation_are_both_kept(assistant):
    """The turn number was read when the question came and written with the answer: two questions at once
    took the same number, one was lost and reported as a damaged file (helper-40 4). Both now land, in order."""
    import threading

    assistant.ask("年假有几天？", conversation="c-two")
    traces = []
    askers = [threading.Thread(target=lambda q=q: traces.append(assistant.ask(q, conversation="c-two")))
              for q in ("病假要什么证明？", "出差住宿标准是多少？")]
    for asker in askers:
        asker.start()
    for asker in askers:
        asker.join(30)
    _, turns = assistant.open_conversation("c-two")
    assert [t.turn for t in turns] == [1, 2, 3]
    assert sorted(t.turn for t in traces) == [2, 3]
    assert not [w for t in traces for w in t.search.warnings if "损坏" in w]


def test_two_processes_adding_turns_to_one_conversation_lose_none(tmp_path):
    """Two stores on one file stand for the app and the CLI, each with its own lock: the number is read under
    the database's write lock (BEGIN IMMEDIATE), so the other waits instead of taking the same one. Without
    it and without the retry, 2–7 of these 300 turns were refused in every one of five runs; with the retry
    alone, one of them was in a loaded CI run."""
    import threading

    from rag_core.conversations.store import ConversationStore

    stores = [ConversationStore(tmp_path / "c.sqlite3"), ConversationStore(tmp_path / "c.sqlite3")]
    stores[0].ensure("c1", "u1", "第一个问题")
    errors: list[Exception] = []

    def add(store: ConversationStore, who: int) -> None:
        for i in range(150):
            try:
                store.add_turn("c1", f"问题{who}-{i}", "", "回答", {"turn": 0})
            except Exception as exc:  # collected: a thread's exception would not fail the test
                errors.append(exc)

    workers = [threading.Thread(target=add, args=(store, who)) for who, store in enumerate(stores)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    assert errors == []
    turns = stores[1].turns("c1")
    assert [t.turn for t in turns] == list(range(1, 301)) and all(t.trace["turn"] == t.turn for t in turns)


def test_a_long_follow_up_is_searched_as_typed_rather_than_refused(assistant):
    """A follow-up of up to 500 characters is a valid question; glued to the previous one it went past the
    limit and was refused as 问题太长 (helper-41 6)."""
    assistant.ask("年假有几天？", conversation="c-long")
    follow_up = ("那病假呢？" + "病假期间工资怎么发放" * 60)[:500]
    trace = assistant.ask(follow_up, conversation="c-long")
    assert trace.search_question == follow_up
    assert trace.turn == 2


def test_retention_is_applied_while_the_app_runs(assistant, monkeypatch):
    """The purge ran only when the store was first opened, and the app keeps one facade for its lifetime:
    a conversation idle past the retention stayed listed and exportable (helper-40 3)."""
    import rag_core.facade.stores as stores

    assistant.ask("年假有几天？", conversation="old")
    assistant.ask("病假要什么证明？", conversation="new")
    long_ago = (datetime.now(UTC) - timedelta(days=400)).isoformat(timespec="seconds")
    with sqlite3.connect(Path(assistant.settings.data_dir) / STORE_FILE) as db:
        db.execute("UPDATE conversations SET updated_at = ? WHERE id = 'old'", (long_ago,))
    assert {c.id for c in assistant.list_conversations("local")} == {"old", "new"}  # within the hour: not yet
    monkeypatch.setattr(stores, "SWEEP_SECONDS", 0.0)
    assert [c.id for c in assistant.list_conversations("local")] == ["new"]


def test_deleted_memories_are_purged_while_the_app_runs(assistant, monkeypatch):
    """A deleted memory is kept for undo, then purged after the retention; that too ran only at first open."""
    import rag_core.facade.stores as stores

    memory_id, _ = assistant.remember("local", "我在上海办公室工作")
    assistant.delete_memories([memory_id])
    long_ago = (datetime.now(UTC) - timedelta(days=400)).isoformat(timespec="seconds")
    with sqlite3.connect(Path(assistant.settings.data_dir) / "memory.sqlite3") as db:
        db.execute("UPDATE memories SET deleted_at = ?", (long_ago,))
    monkeypatch.setattr(stores, "SWEEP_SECONDS", 0.0)
    assistant.list_memories("local")
    with sqlite3.connect(Path(assistant.settings.data_dir) / "memory.sqlite3") as db:
        assert db.execute("SELECT COUNT(*) FROM memories").fetchone()[0] == 0


def test_one_damaged_turn_costs_its_evidence_not_the_conversation(assistant):
    """A trace that no longer reads raised a raw JSONDecodeError from open, ask and export (helper-44 8)."""
    assistant.ask("年假有几天？", conversation="c-bad")
    assistant.ask("病假要什么证明？", conversation="c-bad")
    with sqlite3.connect(Path(assistant.settings.data_dir) / STORE_FILE) as db:
        db.execute("UPDATE turns SET trace = '{\"answer\": ' WHERE conversation_id = 'c-bad' AND turn = 1")
    _, traces = assistant.open_conversation("c-bad")
    assert [t.question for t in traces] == ["年假有几天？", "病假要什么证明？"]
    assert any("已损坏" in w for w in traces[0].search.warnings)
    assert assistant.ask("那事假呢？", conversation="c-bad").turn == 3
    assert len(assistant.export_history("local")["conversations"][0]["turns"]) == 3
