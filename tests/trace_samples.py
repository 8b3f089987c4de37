"""A hand-built answer trace (two hits, a memory, a checked LLM answer) for the trace view tests.

Built from the record types alone, so rendering can be tested without a model or a store.
"""

from __future__ import annotations

from rag_core.types import AskTrace, Chunk, CitationCheck, Hit, HitScores, MemoryHit, SearchResult, SourceRef

CLAUSE = "普通员工出差住宿费上限为每人每晚：一类城市500元，二类城市400元。"
PROMPT = "你是公司的人事制度问答助手。\n[资料1] 来源：03_travel_expense.md\n" + CLAUSE + "\n【问题】出差住宿标准是多少？"


def _hit(index: int, text: str, verdict: str, why: str) -> Hit:
    chunk = Chunk(
        chunk_id=f"travel@v2#{index}", doc_id="travel", version=2, index=index, text=text,
        source="03_travel_expense.md", title="差旅与费用报销管理办法", section="第三章 住宿费 > 第九条 住宿标准",
    )
    scores = HitScores(
        bm25=12.6081, bm25_rank=index + 1, cosine=0.9242, cosine_rank=index + 1, fused=0.0328, fused_rank=index + 1,
        passed=verdict, coverage=1.0, margin=0.1234, sentence_cosine=0.9311, probability=0.8765, threshold=0.02,
        answerable=0.9432, verdict=verdict, why=why,
    )
    return Hit(chunk, scores)


def sample_trace(
    answer: str = "一类城市每晚 800 元 [资料1]。二类城市 400 元 [资料1]。", *, llm: bool = True, source_verdict: str = "依据充分"
) -> AskTrace:
    hits = [
        _hit(0, CLAUSE, "依据充分", "依据充分｜关键词：住宿、标准；意思相近程度：高"),
        _hit(1, "住宿费须凭酒店开具的发票和住宿明细报销。", "依据较弱", "依据较弱｜关键词：住宿；意思相近程度：中"),
    ]
    result = SearchResult(
        query="出差住宿标准是多少？", hits=hits, threshold=0.75, answerable=0.9432, store_chunks=40,
        second_best=0.6171, second_reading="出差住宿标准是多少？（住宿费、酒店）",
        timings_ms={"bm25_ms": 1.25, "vector_ms": 3.5, "total_ms": 9.75},
    )
    memory = MemoryHit(
        id="m1", content="我常驻杭州", kind="profile", importance=0.8123, relevance=0.5555, freshness=0.9876,
        score=0.4567, created_at="2026-11-30T23:30:12+00:00",
    )
    sources = [SourceRef(1, CLAUSE, "03_travel_expense.md", "第九条 住宿标准", "travel@v2#0", source_verdict)]
    check = (
        CitationCheck(checked=True, removed=[7], unsupported=["一类城市每晚 800 元 [资料1]。"]) if llm else CitationCheck()
    )
    return AskTrace(
        question="出差住宿标准是多少？", answer=answer, search=result, memories=[memory], prompt=PROMPT, sources=sources,
        prompt_tokens=321, token_budget=1800, dropped_hits=0, answerer="smollm2" if llm else "extractive",
        timings_ms={"memory_ms": 2.5, "answer_ms": 812.25}, citations=check, weak_evidence=source_verdict == "依据较弱",
        followup="可能承接上文（没有名词主语），但按原问题检索更像制度回答的问题，不改写（能回答的把握：原问题 0.96，结合上文 0.99）"
                 "[看这里](https://example.com) ![x](https://example.com/x.png) $x^2$",
    )
