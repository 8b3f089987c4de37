"""Reviews 393 #1 and 394 #2, #6: a question naming another thing of the kind the last one asked about (婚假 → 产假,
加班费 → 加班餐费) carries its own subject: searched as typed, the decision said. A real follow-up is still resolved
against the last turn, and a model that hands one back unchanged still leaves it to the rules' tentative glue."""

from __future__ import annotations

import pytest
from openai_stub_server import OpenAIStubServer

from rag_core.answer.llm import OpenAICompatibleClient
from rag_core.conversations.followup import rule_rewrite
from rag_core.conversations.rewrite import llm_rewrite


@pytest.mark.parametrize(("previous", "question"), [
    ("婚假有几天？", "产假需要什么材料？"),
    ("年假有几天？", "病假需要什么材料？"),
    ("年假有几天？", "事假需要什么材料？"),
    ("加班费怎么算", "加班餐费怎么报"),
])
def test_another_of_the_same_kind_is_searched_as_typed(previous, question) -> None:
    rewrite = rule_rewrite(question, previous)
    assert rewrite.question == question and not rewrite.tentative and not rewrite.rewritten
    assert "同类" in rewrite.decision


def test_a_follow_up_still_leans_on_the_last_turn() -> None:
    assert rule_rewrite("要提前几天申请？", "年假怎么休？").question.startswith("年假")
    assert rule_rewrite("那病假呢？", "年假有几天？").question == "病假有几天？"
    glued = rule_rewrite("工资照发吗", "病假要什么证明？")
    assert glued.question.startswith("病假") and glued.tentative


def test_a_model_handing_a_follow_up_back_unchanged_leaves_it_to_the_rules() -> None:
    fallback = rule_rewrite("工资照发吗", "病假要什么证明？")
    with OpenAIStubServer(reply="工资照发吗") as echo:
        client = OpenAICompatibleClient(api_key="k-1234567890", model="stub-model", base_url=echo.base_url)
        assert llm_rewrite(client, "工资照发吗", [("病假要什么证明？", "…")], fallback.reason, fallback) is fallback


def test_a_question_that_says_it_goes_on_is_not_taken_as_a_new_one() -> None:
    # review 396 #1: 那交通费要发票吗 after 出差住宿费怎么报销 keeps 出差 (and reaches a configured model)
    rewrite = rule_rewrite("那交通费要发票吗", "出差住宿费怎么报销")
    assert rewrite.rewritten and "出差" in rewrite.question


def test_a_question_that_goes_on_takes_the_other_thing_in_the_last_ones_place() -> None:
    # review 397 #1: 那产假… after 婚假 was glued into 婚假产假… and refused
    assert rule_rewrite("那产假需要什么材料", "婚假有几天").question == "产假需要什么材料"
