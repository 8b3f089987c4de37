"""Review 393 #1: a question naming another thing of the kind the last one asked about (婚假 → 产假) is a new
question. The rules never put the two side by side, and a model that hands such a question back whole is
believed; a real follow-up is still resolved against the last turn."""

from __future__ import annotations

import pytest
from openai_stub_server import OpenAIStubServer

from rag_core.answer.llm import OpenAICompatibleClient
from rag_core.conversations.followup import rule_rewrite
from rag_core.conversations.rewrite import llm_rewrite


@pytest.mark.parametrize(("previous", "question", "other"), [
    ("婚假有几天？", "产假需要什么材料？", "婚假"),
    ("年假有几天？", "病假需要什么材料？", "年假"),
    ("年假有几天？", "事假需要什么材料？", "年假"),
])
def test_another_of_the_same_kind_is_never_glued_to_the_last(previous, question, other) -> None:
    assert other not in rule_rewrite(question, previous).question


def test_a_follow_up_without_a_subject_still_leans_on_the_last_turn() -> None:
    assert rule_rewrite("要提前几天申请？", "年假怎么休？").question.startswith("年假")
    assert rule_rewrite("那病假呢？", "年假有几天？").question == "病假有几天？"


def test_a_model_handing_a_complete_question_back_whole_is_believed() -> None:
    turns = [("婚假有几天？", "婚假共计10天。")]
    with OpenAIStubServer(reply="产假需要什么材料？") as stub:
        client = OpenAICompatibleClient(api_key="k-1234567890", model="stub-model", base_url=stub.base_url)
        rules = rule_rewrite("产假需要什么材料？", "婚假有几天？")
        glued = rules.__class__("婚假产假需要什么材料？", rules.reason, tentative=True)  # what the rules once gave
        result = llm_rewrite(client, "产假需要什么材料？", turns, rules.reason, glued)
    assert result.question == "产假需要什么材料？" and not result.tentative
    assert "本身完整" in result.decision
    fallback = rule_rewrite("要提前几天申请？", "年假怎么休？")  # no noun of its own: an echo is no verdict
    with OpenAIStubServer(reply="要提前几天申请？") as echo:
        client = OpenAICompatibleClient(api_key="k-1234567890", model="stub-model", base_url=echo.base_url)
        assert llm_rewrite(client, "要提前几天申请？", [("年假怎么休？", "…")], fallback.reason, fallback) is fallback
