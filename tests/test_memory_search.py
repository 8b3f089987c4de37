"""A question about the asker is also searched with what memory holds about them (Assistant.ask, stop 45).

The question alone (我一个月通讯费能补多少) names no post, so its search finds the clauses on the allowance in
general; what the person told (我是做客户服务的) picks the line written for their post. Real e5 and Chroma
(a copy of the sample store), real memory.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from conftest import open_assistant

from rag_core.errors import StoreDamaged
from rag_core.evaluation.sessions import first_sentence
from rag_core.facade.memories import keeps_memory_search
from rag_core.memory.asked_with import with_facts
from rag_core.types import Chunk, Hit, HitScores, Principal, SearchResult

POLICY = Path(__file__).parent / "data" / "sessions" / "uploads" / "通讯补贴管理规定.md"
QUESTION = "我一个月通讯费能补多少？"


def test_facts_are_added_to_the_question_in_the_first_person():
    assert with_facts("我每个月能补多少", ["用户在销售部工作", "用户老婆没工作，用户下个月要当爸爸了"]) == (
        "我每个月能补多少（在销售部工作；老婆没工作，我下个月要当爸爸了）")
    assert with_facts("我每个月能补多少", []) == "我每个月能补多少"
    assert with_facts("Q", ["用户在用户运营部工作", "用户所在的厂三班倒"]) == "Q（在用户运营部工作；厂三班倒）"  # a word keeps its 用户


def test_a_question_that_does_not_say_i_is_searched_with_its_memories_too(tmp_path):
    """Recall already judged the memories relevant to the question: 回来以后多久内要报完 leans on 经常要出差 as much."""
    from fakes import fake_assistant_with_samples

    from rag_core.types import MemoryHit

    assistant = fake_assistant_with_samples(tmp_path / "store")
    question = "出差回来以后多久内要报完？"
    own = assistant.search(question)
    memory = MemoryHit(id="m1", content="用户经常要去上海出差", kind="profile", importance=0.8, relevance=0.5,
                       freshness=1.0, score=0.4, created_at="", last_accessed="", access_count=1)
    timings: dict[str, float] = {}
    assistant._search_with_memories(question, [memory], own, role=None, actor=Principal("u1", "employee"),
                                    timings=timings)
    assert "memory_search_ms" in timings  # searched again with 经常要去上海出差


def test_the_retrieval_test_search_masks_the_question_and_leaves_a_statement_out(tmp_path):
    """`search_as_chat` searches what chat searches: personal data masked, the asker's statement left out."""
    from fakes import fake_assistant_with_samples

    assistant = fake_assistant_with_samples(tmp_path / "store")
    found = assistant.search_as_chat("我常驻杭州，手机13812345678，出差住宿标准是多少？", actor=Principal("u1", "employee"))
    assert "13812345678" not in found.question and "常驻杭州" not in found.question
    assert "出差住宿标准是多少" in found.question and found.result.query == found.question
    assert found.result.hits


def test_the_retrieval_test_search_does_what_chat_does_with_a_statement_and_a_standard_answer(tmp_path):
    """A turn that only tells searches nothing; a question HR answered is named with that answer, not counted;
    the page's recall leaves the memories' last use alone (found by review)."""
    from fakes import fake_assistant_with_samples

    assistant = fake_assistant_with_samples(tmp_path / "store")
    tester = Principal("u1", "employee")
    told = assistant.search_as_chat("我在郑州上班", actor=tester)
    assert told.told_only and not told.result.hits and told.result.query == ""
    assistant.ask("我是销售部的", actor=tester, conversation="c1")
    before = [(m.last_accessed, m.access_count) for m in assistant.list_memories("u1", actor=tester)]
    found = assistant.search_as_chat("我出差住宿标准是多少？", actor=tester)
    assert found.memories and "memory_ms" in found.timings_ms
    assert [(m.last_accessed, m.access_count) for m in assistant.list_memories("u1", actor=tester)] == before
    assistant.add_standard_answer("我出差住宿标准是多少？", "一线城市每晚500元。")
    standard = assistant.search_as_chat("我出差住宿标准是多少？", actor=tester)
    assert standard.standard_answer["question"] == "我出差住宿标准是多少？" and not standard.memories
    assert assistant.standard_answers()[0].hits == 0  # only looked at, not served
    chat = assistant.ask("我出差住宿标准是多少？", actor=tester)
    assert chat.standard_answer and not chat.memories and assistant.standard_answers()[0].hits == 1


def test_a_second_search_that_fails_leaves_the_first(tmp_path):
    """The search with memories is extra: if it fails, the question's own search answers (found by review)."""
    from fakes import fake_assistant_with_samples

    assistant = fake_assistant_with_samples(tmp_path / "store")
    assistant.ask("我是销售部的", user="u1", conversation="c1")
    search = assistant.search

    def failing(question, **kwargs):
        if "（" in question:
            raise StoreDamaged("检索库损坏")
        return search(question, **kwargs)

    assistant.search = failing
    trace = assistant.ask("我出差住宿标准是多少？", user="u1", conversation="c1")
    assert trace.memories and trace.memory_search == "" and trace.hit_count
    assert any("只按问题本身检索" in w for w in trace.search.warnings)


@pytest.mark.integration
def test_what_the_asker_told_picks_the_line_written_for_them(store_copy):
    assistant = open_assistant(store_copy)
    assert assistant.ingest_file(POLICY).ok
    plain = assistant.ask(QUESTION, user="u2", conversation="c2")
    assert plain.memory_search == ""  # nothing told: the question alone
    assert assistant.ask("我是做客户服务的", user="u1", conversation="c1").acknowledged
    trace = assistant.ask(QUESTION, user="u1", conversation="c1")
    assert trace.memory_search == with_facts(QUESTION, [m.content for m in trace.memories])
    assert trace.search.query == trace.memory_search  # the trace shows what was searched
    assert trace.search_question == QUESTION  # the question itself is not rewritten
    assert "客户服务岗位员工，每人每月200元" in first_sentence(trace.answer), trace.answer
    assert "客户服务岗位员工" not in first_sentence(plain.answer), plain.answer
    # the retrieval test page runs chat's search: the tester's own memories pick the same clauses
    tester = Principal("u1", "employee")
    asked = assistant.ask(QUESTION, actor=tester, conversation="c3")
    same = assistant.search_as_chat(QUESTION, actor=tester)
    assert same.memory_search == asked.memory_search == trace.memory_search
    assert [h.chunk.chunk_id for h in same.result.hits] == [h.chunk.chunk_id for h in asked.search.hits]
    general = assistant.search_as_chat(QUESTION, actor=tester, with_memories=False)
    assert general.memory_search == "" and not general.memories
    assert [h.chunk.chunk_id for h in general.result.hits[:1]] != [h.chunk.chunk_id for h in same.result.hits[:1]]
    # HR reviewing a 👎 sees the question and its clauses, not what the asker's memories hold
    assistant.record_feedback(trace, -1, reason="答非所问")
    [entry] = assistant.feedback_reviews(rating=-1)
    detail = assistant.feedback_detail(entry.id)
    assert "memory_search" not in detail.trace and detail.trace["query"] == QUESTION
    assert "客户服务的" not in str(detail.trace)
    with sqlite3.connect(store_copy / "catalog.sqlite3") as db:  # and the catalog keeps no copy of a rating
        assert not db.execute("SELECT name FROM sqlite_master WHERE name = 'feedback'").fetchall()


def test_hr_reviews_no_text_the_memory_search_derived():
    """Found by review: the second reading, warnings, unknown words and why each clause matched all came from the
    question with the memories added; HR's copy of a rated turn keeps the clauses and the numbers only."""
    from rag_core.insights.rows import reviewed_trace
    from rag_core.types import AskTrace

    private = "刚做完手术在住院"
    query = f"我请假需要什么材料？（{private}）"
    hit = Hit(Chunk(chunk_id="leave@v1#2", doc_id="leave", version=1, index=2, text="病假须提交医院证明。", source="leave.md",
                    title="请假制度", section="第九条 病假"),
              HitScores(probability=0.8, verdict="依据充分", why=f"关键词：请假；条款里没有：{private}", missing=["手术"]))
    search = SearchResult(query=query, hits=[hit], near_misses=[hit], second_reading=query, unknown_words=["手术"],
                          warnings=["问题里的「手术」在制度里没有出现"], thesaurus=["住院 → 住院治疗"], answerable=0.9)
    trace = AskTrace(question="我请假需要什么材料？", answer="病假须提交医院证明。[资料1]", search=search, memories=[],
                     prompt=private, sources=[], prompt_tokens=0, token_budget=0, dropped_hits=0, answerer="extractive",
                     search_question="我请假需要什么材料？", memory_search=query)
    kept = reviewed_trace(trace)
    assert "手术" not in str(kept) and "住院" not in str(kept)
    assert kept["query"] == "我请假需要什么材料？" and kept["hits"][0]["text"] == "病假须提交医院证明。"
    assert kept["answerable"] == 0.9
    plain = reviewed_trace(AskTrace(**{**trace.__dict__, "memory_search": ""}))
    assert plain["second_reading"] == query  # without a memory search, nothing is taken away



def _found(chunk_id: str, probability: float, warnings=(), foreign=()) -> SearchResult:
    chunk = Chunk(chunk_id=chunk_id, doc_id="d", version=1, index=0, text="", source="d.md", title="", section="")
    return SearchResult(query="q", hits=[Hit(chunk, HitScores(probability=probability))], warnings=list(warnings),
                        foreign_subjects=list(foreign))


def test_the_memory_search_is_kept_only_when_it_finds_a_likelier_other_clause_and_warns_of_nothing_new():
    own = _found("d@v1#1", 0.6)
    assert keeps_memory_search(own, _found("d@v1#2", 0.8))
    assert keeps_memory_search(SearchResult(query="q", hits=[]), _found("d@v1#2", 0.3))  # the question found nothing
    assert not keeps_memory_search(own, _found("d@v1#1", 0.9))  # the same clause first: the question's own judges it
    assert not keeps_memory_search(own, _found("d@v1#2", 0.5))  # less likely to answer
    assert not keeps_memory_search(own, SearchResult(query="q", hits=[]))
    # found by review: a memory's 手术, a word no policy uses, hedges every clause 依据较弱
    assert not keeps_memory_search(own, _found("d@v1#2", 0.8, warnings=["问题里的「手术」在制度里没有出现"]))
    assert not keeps_memory_search(own, _found("d@v1#2", 0.8, foreign=["宠物补贴"]))
