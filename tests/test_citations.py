"""The citation guard: an LLM answer cites only what was in its prompt, and its numbers come from its clauses.

Pure checks first, then the facade on the queued fake LLM, then `eval` through a
real OpenAI-compatible stub on loopback that returns a deliberately unfaithful answer.
"""

from __future__ import annotations

import json

import pytest
from fakes import QueuedLLM, fake_assistant
from openai_stub_server import openai_stub

from rag_core.answer.citations import (
    check_citations,
    chinese_numeral,
    numbers_in,
    remove_unknown_citations,
    unsupported_sentences,
)
from rag_core.answer.llm import OpenAICompatibleClient
from rag_core.types import SourceRef

TRAVEL = "# 差旅制度\n\n第一条 国内出差住宿凭发票实报实销，一线城市每晚上限 600 元。\n\n第二条 网约车须上传平台电子行程单。\n"
LEAVE = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假五天。\n\n第二条 病假须提供医院诊断证明。\n"
FOUND = "一线城市住宿上限是多少？"
UNFAITHFUL = "一线城市住宿每晚上限 800 元 [资料1]。网约车须上传行程单 [资料7]。"
FAITHFUL = "一线城市住宿每晚上限 600 元 [资料1]。"

CLAUSES = [
    SourceRef(1, "一线城市每晚上限 600 元，二线城市 400 元。", "travel.md", "第一条", "travel@v1#0"),
    SourceRef(2, "员工入职满一年后每年享有带薪年假五天；加班按百分之一百五十支付。", "leave.md", "第八条", "leave@v1#0"),
]


@pytest.mark.parametrize(
    ("text", "value"),
    [("五", 5), ("十", 10), ("十五", 15), ("二十", 20), ("一百五十", 150), ("两千", 2000), ("三万", 30000), ("一千零五", 1005)],
)
def test_chinese_numerals_are_read_by_value(text, value):
    assert chinese_numeral(text) == value


def test_numbers_are_compared_by_value_in_any_spelling():
    values = {v for _, vs in numbers_in("年假 5 天，加班 150%，报销 1,000 元或一千元，3万元，百分之八十") for v in vs}
    assert {5.0, 150.0, 1000.0, 30000.0, 80.0} <= values
    assert 3.0 not in values  # 3万 is 30000 only, or 3万元 would support 3元 (review 51f 1)
    assert numbers_in("一线城市统一标准") == []  # 一 without a unit is a word, not a number
    assert numbers_in("见 [资料3]") == []  # a citation number is not a stated number


def test_a_citation_the_prompt_did_not_have_is_removed_and_flagged():
    cleaned, removed = remove_unknown_citations("上限 600 元 [资料1]。另见【资料9】和 [资料2、5]。", CLAUSES)
    assert removed == [5, 9]
    assert "资料9" not in cleaned and "资料5" not in cleaned
    assert "[资料1]" in cleaned and "[资料2]" in cleaned


def test_a_sentence_with_a_number_no_cited_clause_states_is_unsupported():
    answer = "一线城市每晚上限 800 元 [资料1]。年假五天 [资料2]。加班按 150% 支付 [资料2]。二线城市 400 元。"
    assert unsupported_sentences(answer, CLAUSES) == ["一线城市每晚上限 800 元 [资料1]。"]


def test_a_number_from_another_clause_than_the_cited_one_is_unsupported():
    # 400 is in [资料1], but this sentence cites only [资料2]
    assert unsupported_sentences("二线城市住宿 400 元 [资料2]。", CLAUSES) == ["二线城市住宿 400 元 [资料2]。"]


def test_a_citation_after_the_full_stop_belongs_to_its_sentence():
    assert unsupported_sentences("上限 600 元。[资料1] 年假 7 天。[资料2]", CLAUSES) == ["年假 7 天。[资料2]"]


def test_sentences_without_numbers_are_not_judged():
    assert check_citations("住宿凭发票报销 [资料1]。", CLAUSES)[1].unsupported == []


# -- through the facade -------------------------------------------------------------


@pytest.fixture()
def llm() -> QueuedLLM:
    return QueuedLLM()


@pytest.fixture()
def assistant(tmp_path, llm):
    facade = fake_assistant(tmp_path / "store", llm=llm)
    for name, text in (("travel.md", TRAVEL), ("leave.md", LEAVE)):
        assert facade.ingest_bytes(text.encode("utf-8"), name).ok
    return facade


def test_ask_removes_an_unknown_citation_and_marks_the_unfaithful_sentence(assistant, llm):
    llm.enqueue(UNFAITHFUL)
    trace = assistant.ask(FOUND, user="", remember=False)
    assert trace.hit_count and llm.prompts
    assert "[资料7]" not in trace.answer
    assert trace.citations.checked and trace.citations.removed == [7]
    assert trace.citations.unsupported == ["一线城市住宿每晚上限 800 元 [资料1]。"]
    assert trace.to_dict()["citations"]["removed"] == [7]


def test_a_faithful_answer_passes_the_guard_untouched(assistant, llm):
    llm.enqueue(FAITHFUL)
    trace = assistant.ask(FOUND, user="", remember=False)
    assert trace.answer == FAITHFUL
    assert (trace.citations.checked, trace.citations.removed, trace.citations.unsupported) == (True, [], [])


def test_the_streamed_answer_is_checked_too(assistant, llm):
    llm.enqueue(UNFAITHFUL)
    pieces: list[str] = []
    trace = assistant.ask(FOUND, user="", remember=False, on_token=pieces.append)
    assert "".join(pieces) == UNFAITHFUL  # the stream shows what the model said...
    assert "[资料7]" not in trace.answer and trace.citations.unsupported  # ...the stored answer is checked


def test_offline_and_zero_hit_answers_are_not_checked(tmp_path):
    facade = fake_assistant(tmp_path / "store")
    facade.ingest_bytes(TRAVEL.encode("utf-8"), "travel.md")
    assert not facade.ask(FOUND, user="", remember=False).citations.checked
    assert not facade.ask("公司年会预算是多少？", user="", remember=False).citations.checked


def test_eval_counts_unfaithful_answers_through_a_loopback_server(tmp_path):
    questions = tmp_path / "eval.jsonl"
    rows = [
        {"question": FOUND, "category": "literal", "expected": ["600"]},
        {"question": "网约车报销要什么？", "category": "paraphrase", "expected": ["行程单"]},
    ]
    questions.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
    with openai_stub(reply=UNFAITHFUL) as stub:
        client = OpenAICompatibleClient(api_key="k", model="unfaithful-stub", base_url=stub.base_url, timeout_s=10)
        facade = fake_assistant(tmp_path / "store", llm=client)
        for name, text in (("travel.md", TRAVEL), ("leave.md", LEAVE)):
            facade.ingest_bytes(text.encode("utf-8"), name)
        report = facade.run_eval(questions)
        assert any(r.path.endswith("/chat/completions") for r in stub.requests)
    assert report["metrics"]["literal"]["unsupported_rate"] == 1.0
    assert report["metrics"]["literal"]["invalid_citation_rate"] == 1.0
    totals = report["citations"]
    assert totals["answers_checked"] == 2
    assert totals["answers_with_unsupported"] == 2 and totals["invalid_citations_removed"] == 2
