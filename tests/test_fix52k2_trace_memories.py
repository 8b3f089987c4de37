"""Review 52k #4: the trace lists (and the answer step gets) only the memories the prompt kept; the prompt
still says how many the budget left out."""

from __future__ import annotations

from fakes import fake_assistant_with_samples

import rag_core.assistant as assistant_module

# three long and unlike facts: the 800-token budget holds some beside the best clause, not all three
FACTS = [
    "用户常驻杭州，家住西湖区文三路附近，每周一和周五去上海客户现场支持项目交付，周末偶尔回宁波老家看望父母，"
    "习惯乘坐高铁二等座，住宿通常选择公司协议酒店，对吸烟楼层过敏，希望回答先给结论再列依据。",
    "用户在销售部华东大区做客户经理，直属主管是陈静，负责温州台州丽水三个地市的渠道拓展与回款跟进，"
    "季度考核看新签合同额，经常需要招待客户用餐，想知道业务招待费的审批权限和票据要求。",
    "用户下个月要带队去成都参加行业展会，同行还有市场部两位同事和一位外部顾问，计划停留五晚，"
    "展位搭建费用由市场部承担，差旅由各自部门报销，顾问的机票酒店需要公司先行垫付后再结算。",
]


def test_the_trace_lists_only_the_memories_the_prompt_kept(tmp_path, monkeypatch) -> None:
    a = fake_assistant_with_samples(tmp_path / "s", memory_threshold=0.0, memory_top_k=3, token_budget=800)
    for fact in FACTS:
        a.remember("u1", fact, importance=0.9)
    given: list[list[str]] = []
    real = assistant_module.compose_answer

    def spy(question, built, llm, on_token, groups, memories, *args, **kwargs):
        given.append(list(memories))
        return real(question, built, llm, on_token, groups, memories, *args, **kwargs)

    monkeypatch.setattr(assistant_module, "compose_answer", spy)
    trace = a.ask("出差住宿标准是多少？", user="u1")
    assert "超出提示词预算，已略去" in trace.prompt  # the dropped count stays visible in the prompt
    assert trace.memories, "the test needs at least one memory kept"
    assert len(trace.memories) < 3
    assert all(m.content in trace.prompt for m in trace.memories)
    assert given == [[m.content for m in trace.memories]]
    dropped = int(trace.prompt.split("条记忆超出提示词预算")[0].rsplit("（", 1)[1])
    assert len(trace.memories) + dropped == 3
