"""The answer step (review 59, rev-llm): at the smallest prompt budget the settings allow, a long question no longer
turns a found clause into 制度里没有写这一条, and a model's reply that is only a citation is no answer."""

from __future__ import annotations

import pytest
from fakes import QueuedLLM, fake_assistant

from rag_core.answer.answering import MODEL_DOWN_NOTE, compose_answer
from rag_core.answer.prompt import CUT_NOTE, NOT_IN_POLICY, BuiltPrompt, build_prompt, estimate_tokens
from rag_core.settings import LIMITS
from rag_core.types import Chunk, Hit, HitScores, SourceRef

TRAVEL = "# 差旅制度\n\n第一条 国内出差住宿凭发票实报实销，一线城市每晚上限 600 元。\n\n第二条 网约车须上传平台电子行程单。\n"
FOUND = "一线城市住宿上限是多少？"
LONG_QUESTION = "我下个月要去北京出差，" + "我想先说明一下背景情况，" * 36 + FOUND  # 455 characters (the limit is 500)


def _hit(n: int, text: str) -> Hit:
    chunk = Chunk(chunk_id=f"d@v1#{n}", doc_id="d", version=1, index=n, text=text, source="制度.md", title="制度",
                  section="第一章 > 第一条")
    return Hit(chunk, HitScores(bm25=1.0, fused=0.1))


# -- 2: the best clause at an allowed budget ---------------------------------------------------------------------


@pytest.mark.parametrize("budget", [int(LIMITS["token_budget"][0]), 900])
def test_a_long_question_at_an_allowed_budget_keeps_the_found_clause(tmp_path, budget):
    a = fake_assistant(tmp_path / "s", llm=QueuedLLM("一线城市每晚上限600元[资料1]。"), token_budget=budget)
    assert a.ingest_bytes(TRAVEL.encode(), "travel.md").ok
    t = a.ask(LONG_QUESTION, user="")
    assert t.search.hits and t.sources, (t.answerer, t.dropped_hits)
    assert t.answer != NOT_IN_POLICY and "无命中" not in t.answerer, (t.answer, t.answerer)


def test_the_best_clause_is_kept_even_when_the_budget_has_no_room_and_only_it_goes_over():
    clause = "第一条 一线城市每晚上限 600 元。"
    hits = [_hit(0, clause), _hit(1, "第二条 网约车须上传平台电子行程单。")]
    p = build_prompt(LONG_QUESTION, hits, [], budget=800)
    assert [s.text for s in p.sources] == [clause] and p.dropped == 1  # short: whole; the next one is dropped
    assert clause in p.text and CUT_NOTE not in p.text
    long_clause = "第五条 住宿标准。" + "一线城市每晚上限六百元，" * 200
    p = build_prompt(LONG_QUESTION, [_hit(0, long_clause), hits[1]], [], budget=800)
    assert len(p.sources) == 1 and p.dropped == 1 and CUT_NOTE in p.text
    assert "第五条 住宿标准。一线城市每晚上限六百元" in p.text
    alone = build_prompt(LONG_QUESTION, [], [], budget=800).tokens
    assert p.tokens - alone <= 250  # a start of the clause, not all of it: the budget is only passed by that much


def test_a_budget_with_room_is_still_honoured():
    long_clause = "第五条 住宿标准。" + "一线城市每晚上限六百元，" * 200
    p = build_prompt(FOUND, [_hit(0, long_clause), _hit(1, "第六条 短条款。")], [], budget=1200)
    assert len(p.sources) == 1 and p.tokens <= 1200 and CUT_NOTE in p.text
    assert estimate_tokens(p.text) == p.tokens


# -- 3: a reply that is only a citation ---------------------------------------------------------------------------


@pytest.mark.parametrize("reply", ["[资料1]。", "［资料1］", " [资料1][资料1]！", "（资料1）。"])
@pytest.mark.parametrize("streamed", [False, True])
def test_a_reply_of_only_a_citation_is_answered_offline(reply, streamed):
    source = SourceRef(1, "一线城市每晚上限 600 元。", "travel.md", "第一条", "c1", "依据充分")
    built = BuiltPrompt(text="prompt", sources=[source], tokens=1, dropped=0)
    shown: list[str] = []
    composed = compose_answer(FOUND, built, QueuedLLM(reply), on_token=shown.append if streamed else None)
    assert composed.text.endswith(MODEL_DOWN_NOTE) and composed.answerer.startswith("extractive")
    assert "600" in composed.text and "只有资料引用" in composed.answerer


def test_a_reply_with_content_and_a_citation_is_the_answer():
    source = SourceRef(1, "一线城市每晚上限 600 元。", "travel.md", "第一条", "c1", "依据充分")
    built = BuiltPrompt(text="prompt", sources=[source], tokens=1, dropped=0)
    composed = compose_answer(FOUND, built, QueuedLLM("上限600元[资料1]。"))
    assert composed.text == "上限600元[资料1]。" and composed.answerer == "queued-fake"
