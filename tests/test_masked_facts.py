"""A phone number, e-mail or ID told in a statement is masked, and the masked clause is not kept as a memory:
用户的手机号是[手机号] is a fact nobody could use later, and it crowded the memory page."""

from __future__ import annotations

from fakes import QueuedLLM, fake_assistant

from rag_core.memory.extraction import extract_facts, rule_facts


def test_a_clause_that_only_held_personal_data_is_not_a_fact():
    facts = rule_facts("我的手机号是13800138000，邮箱zhang@example.com，我在上海工作")
    assert [f.content for f in facts] == ["用户在上海工作"]
    assert rule_facts("我身份证号是110101199003071234") == []


def test_a_models_fact_holding_a_mask_is_dropped_and_the_rules_keep_the_rest():
    llm = QueuedLLM('{"content": "用户的手机号是[手机号]", "kind": "profile"}')
    facts, method = extract_facts("我的手机号是[手机号]，我在研发部", "", llm)
    assert [f.content for f in facts] == ["用户在研发部工作"]


def test_the_memory_page_gets_no_placeholder_rows(tmp_path):
    a = fake_assistant(tmp_path / "store")
    trace = a.ask("我的手机号是13800138000，邮箱zhang@example.com，我在上海工作", user="u", conversation="c")
    kept = [m.content for m in a.memory.list("u")]
    assert kept and not any("[" in m for m in kept), kept
    assert "手机号" not in trace.answer.split("记住")[-1], trace.answer
