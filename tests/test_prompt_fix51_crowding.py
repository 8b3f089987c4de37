"""Earlier turns and memories never crowd every clause out of the prompt (review 51f 1).

A 404-character question asked four times in one conversation, under the default budget of 1800, left no
room for any clause: the answer read 制度里没有写这一条 without calling the model, and the question was
logged as a knowledge gap. The clauses come first now: the oldest turns, then memories, give way.
"""

from __future__ import annotations

from fakes import QueuedLLM, fake_assistant

from rag_core.answer.prompt import RULES, TURN_CHARS, build_prompt, dialogue_block, estimate_tokens
from rag_core.types import Chunk, Hit, HitScores, MemoryHit

TRAVEL = "# 差旅制度\n\n第一条 国内出差住宿凭发票实报实销，一线城市每晚上限 600 元，二线城市每晚上限 400 元。\n"
CLAUSE = "第一条 国内出差住宿凭发票实报实销，一线城市每晚上限 600 元。"


def _hit(n: int, text: str) -> Hit:
    chunk = Chunk(chunk_id=f"d@v1#{n}", doc_id="d", version=1, index=n, text=text, source="制度.md", title="制度",
                  section="第一条")
    return Hit(chunk, HitScores(bm25=1.0, fused=0.1))


def _memory(n: int, text: str) -> MemoryHit:
    return MemoryHit(f"m{n}", text, "profile", 0.8, 0.9, 1.0, 0.72, "2026-01-01T00:00:00+00:00")


def test_a_long_conversation_still_gets_its_clause_and_the_model(tmp_path):
    llm = QueuedLLM()
    a = fake_assistant(tmp_path / "store", llm=llm)
    assert a.ingest_bytes(TRAVEL.encode(), "doc.md").ok
    question = "我下个月要去上海出差见客户，" * 28 + "一线城市住宿上限是多少？"  # 404 characters, under the 500 limit
    for _ in range(4):
        llm.enqueue("一线城市每晚上限600元[资料1]。")
        trace = a.ask(question, user="u1", conversation="c", remember=False)
    assert trace.search.hits and trace.sources and trace.dropped_hits == 0
    assert trace.outcome != "refused" and "600" in trace.answer and not llm.replies  # the model answered turn 4
    assert "一线城市每晚上限 600 元" in trace.prompt and trace.prompt_tokens <= 1800


def test_earlier_questions_are_bounded_like_answers():
    asked = "我下个月要去上海出差见客户，" * 28 + "一线城市住宿上限是多少？"
    block = dialogue_block([(asked, "一线城市每晚上限600元。")])
    line = next(ln for ln in block.splitlines() if ln.startswith("用户："))
    assert len(line) <= len("用户：") + TURN_CHARS + 2
    # the ask is at the end of a long question: its start and its end are kept
    assert line.startswith("用户：我下个月要去上海出差见客户") and line.endswith("一线城市住宿上限是多少？")
    # a cut never ends inside a number: 上限 1500 元 cut to 上限 15 would read as 15
    answer = "按" * (TURN_CHARS - 5) + "上限 1500 元。"
    assert "助手：" + "按" * (TURN_CHARS - 5) + "上限 ……" in dialogue_block([("上限？", answer)])


def test_the_oldest_turns_go_first_then_memories_until_the_best_clause_fits():
    turns = [(f"第{i}个问题：" + "出差住宿的规定" * 20, f"第{i}个回答：" + "按制度执行" * 30) for i in range(1, 4)]
    memories = [_memory(1, "常驻杭州，" * 30), _memory(2, "喜欢表格，" * 30)]
    clause_cost = estimate_tokens(CLAUSE) + 30

    # room for the clause once the two oldest turns are left out (and a note said so): the newest turn and both
    # memories stay
    budget = build_prompt("一线城市住宿上限是多少？", [_hit(0, CLAUSE)], memories, 4000, turns[-1:]).tokens + 30
    p = build_prompt("一线城市住宿上限是多少？", [_hit(0, CLAUSE)], memories, budget, turns)
    assert CLAUSE in p.text and len(p.sources) == 1 and p.dropped == 0 and p.tokens <= budget
    assert "第3个问题" in p.text and "第1个问题" not in p.text
    assert "常驻杭州" in p.text and "喜欢表格" in p.text
    assert p.dropped_turns == 2 and p.dropped_memories == 0
    assert f"（更早的 {p.dropped_turns} 轮对话超出提示词预算，已略去）" in p.text  # the trace's prompt says what was left out

    # a budget with room only for the rules, the question and the clause: every turn, then memories, give way
    budget = estimate_tokens(RULES) + clause_cost + 120
    p = build_prompt("一线城市住宿上限是多少？", [_hit(0, CLAUSE)], memories, budget, turns)
    assert CLAUSE in p.text and len(p.sources) == 1 and p.tokens <= budget
    assert p.dropped_turns == 3 and p.dropped_memories >= 1 and "第3个问题" not in p.text
    before = p.text.split("\n【资料】\n")[0]
    assert "（更早的 3 轮对话超出提示词预算，已略去）" in before
    assert f"- （{p.dropped_memories} 条记忆超出提示词预算，已略去）" in before
    # the guard rules and the sections keep their order
    lines = p.text.splitlines()
    assert p.text.startswith(RULES)
    assert lines.index("【关于用户的记忆】") < lines.index("【资料】") < lines.index("【问题】一线城市住宿上限是多少？")


def test_a_short_conversation_keeps_every_turn_and_memory_as_before():
    turns = [("出差住宿标准是多少？", "一线城市每晚上限600元[资料1]。")]
    p = build_prompt("那二线城市呢？", [_hit(0, CLAUSE)], [_memory(1, "常驻杭州")], 1800, turns)
    assert p.dropped_turns == 0 and p.dropped_memories == 0 and p.dropped == 0
    assert "超出提示词预算" not in p.text
    assert ("【之前的对话】（只用来理解问题，不能作为制度依据）\n用户：出差住宿标准是多少？\n"
            "助手：一线城市每晚上限600元（资料1）。\n\n【资料】\n") in p.text
    assert "【关于用户的记忆】\n- 常驻杭州\n\n" in p.text


def test_no_hits_leaves_the_conversation_alone():
    turns = [("出差住宿标准是多少？" * 40, "按制度执行" * 40)] * 3
    p = build_prompt("年会预算？", [], [], 900, turns)
    assert p.sources == [] and p.dropped_turns == 0 and "【之前的对话】" in p.text
