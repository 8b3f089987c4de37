"""Review 52k #1: a plain question is never written back to memory, whatever a model makes of it."""

from __future__ import annotations

from collections.abc import Iterator

from fakes import fake_assistant_with_samples

from rag_core.memory.extraction import LLM_PROMPT

EXTRACTION_MARK = LLM_PROMPT.splitlines()[0]


class ScriptedLLM:
    """Answers the extraction prompt with a fixed fact and every other prompt with one policy line."""

    name = "scripted-fake"

    def __init__(self, fact: str) -> None:
        self.fact = fact
        self.prompts: list[str] = []

    def complete(self, prompt: str) -> str:
        self.prompts.append(prompt)
        return self.fact if EXTRACTION_MARK in prompt else "加班费按工资的 150% 支付 [资料1]。"

    def stream(self, prompt: str) -> Iterator[str]:
        return iter([self.complete(prompt)])


def test_plain_question_is_not_remembered_even_when_the_model_offers_a_fact(tmp_path):
    llm = ScriptedLLM('{"content": "用户想了解加班费怎么算", "kind": "episode"}')
    a = fake_assistant_with_samples(tmp_path / "s", llm=llm)
    trace = a.ask("加班费怎么算？", user="u1", conversation="c1")
    assert trace.acknowledged == []
    assert [m.content for m in a.list_memories("u1")] == []
    assert not any(EXTRACTION_MARK in p for p in llm.prompts)  # the question never reached the extraction


def test_a_statement_with_a_question_remembers_the_statement_only(tmp_path):
    llm = ScriptedLLM('{"content": "用户常驻杭州", "kind": "profile"}\n{"content": "用户想了解加班费怎么算", "kind": "episode"}')
    a = fake_assistant_with_samples(tmp_path / "s", llm=llm)
    trace = a.ask("我常驻杭州，加班费怎么算？", user="u1", conversation="c1")
    contents = [m.content for m in a.list_memories("u1")]
    assert contents == ["用户常驻杭州"]
    assert [m["content"] for m in trace.acknowledged] == ["用户常驻杭州"]
    extraction = [p for p in llm.prompts if EXTRACTION_MARK in p]
    assert extraction and "加班费" not in extraction[0].split("【用户的话】")[1].split("【助手回答】")[0]
