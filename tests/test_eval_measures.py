"""The measurements read what they claim to (found by a review of the eval code, stop 49).

A correct engine was scored as failing (a masked question, a clause that only told or talked left out), a
wrong answer was credited (citing nothing counted as citing every source; a one-line answer's first sentence
was skipped), and a question set with a string where a list belongs was graded character by character.
"""

from __future__ import annotations

from types import SimpleNamespace as NS

import pytest

from rag_core.answer.answering import is_refusal
from rag_core.evaluation.metrics import QuestionSetError, load_questions
from rag_core.evaluation.sessions import first_sentence, load_sessions, score_turn


def trace(searched: str, answer: str = "", sources=(), acknowledged=(), outcome: str = "answered"):
    return NS(question=searched, search_question=searched, answer=answer, outcome=outcome, weak_evidence=False,
              verdict="", memories=[], acknowledged=list(acknowledged), sources=list(sources), search=NS(hits=[]))


@pytest.mark.parametrize(("say", "searched", "as_typed"), [
    ("我的手机号13812345678换了，年假有几天？", "我的手机号[手机号]换了，年假有几天？", True),  # masked, not glued
    ("对了，公司有班车吗", "公司有班车吗", True),  # the talk left out
    ("我在郑州上班，最低工资按哪边的算", "最低工资按哪边的算", True),  # the statement left out
    ("晚上加班晚了还有车坐吗", "早上通勤车几点发车晚上加班晚了还有车坐吗", False),  # glued to the last question
    ("公司有班车吗", "", False),  # nothing searched
])
def test_as_typed_means_nothing_glued_on(say: str, searched: str, as_typed: bool) -> None:
    assert score_turn({"say": say, "kind": "new_topic", "refuse": True}, trace(searched))["as_typed"] is as_typed


def test_a_statement_is_remembered_as_masked() -> None:
    turn = {"say": "我的手机是13812345678", "kind": "statement", "remember": "用户的手机是13812345678"}
    told = trace("", acknowledged=[{"content": "用户的手机是[手机号]"}])
    assert score_turn(turn, told)["remembered"]


def test_an_answer_citing_nothing_did_not_cite_the_clause() -> None:
    source = NS(number=1, text="婚假一共15天，须提前一个月申请。")
    turn = {"say": "婚假有几天", "kind": "new_topic", "expected": ["婚假一共15天"]}
    assert not score_turn(turn, trace("婚假有几天", "婚假一共15天", [source]))["cited"]
    assert score_turn(turn, trace("婚假有几天", "婚假一共15天 [资料1]", [source]))["cited"]


@pytest.mark.parametrize(("answer", "first"), [
    ("根据制度，年假每年5天。\n另外病假须提供证明。", "根据制度，年假每年5天。"),  # an answer in one line
    ("按这些条款，加班工资按1.5倍计发。", "按这些条款，加班工资按1.5倍计发。"),
    ("根据制度：\n- 年假每年5天 [资料1]", "年假每年5天 [资料1]"),
    ("依据较弱：以下条款与这个问题最相关，但不一定直接回答了它，请核对原文。\n- 年假每年5天 [资料1]", "年假每年5天 [资料1]"),
    ("根据制度，可以：\n- 可以拆开休 [资料1]", "可以拆开休 [资料1]"),
])
def test_the_first_sentence_skips_openings_only(answer: str, first: str) -> None:
    assert first_sentence(answer) == first


def test_an_answer_that_cites_a_source_is_no_refusal() -> None:
    assert is_refusal("制度里没有写这一条。\n找到的相近条款（第三条）讲的是别的情形。")
    assert not is_refusal("制度没有写明舅舅，但按[资料1]，直系亲属去世可以请丧假3天。")
    assert not is_refusal("制度没有写明舅舅，但按［资料1］可以请丧假3天。")


@pytest.mark.parametrize("row", [
    '{"question": "婚假几天", "category": "literal", "expected": "婚假共计10天"}',
    '{"question": "婚假几天", "category": "literal", "any_of": ["婚假", "10天"]}',
    '{"question": "", "category": "literal", "expected": ["婚假"]}',
    '{"question": "婚假几天", "category": "literal", "expected": [""]}',
])
def test_a_question_set_with_a_string_where_a_list_belongs_is_refused(tmp_path, row: str) -> None:
    path = tmp_path / "set.jsonl"
    path.write_text(row + "\n", encoding="utf-8")
    with pytest.raises(QuestionSetError, match=":1:"):
        load_questions(path)


@pytest.mark.parametrize(("line", "said"), [
    ('{"id": "s1", "corpus": "samples", "turns": [{"say": "年假几天", "kind": "new_topic"}]}\n{"id": ', ":2: 不是合法的 JSON"),
    ('{"id": "s1", "corpus": "samples", "turns": [{"kind": "new_topic"}]}', ":1: 每一轮需要 say"),
    ('{"id": "s1", "corpus": "samples", "turns": [{"say": "年假", "kind": "new_topic", "expected": "年假5天"}]}',
     ":1: expected 应为非空文本的列表"),
])
def test_a_malformed_session_file_is_refused_with_its_line(tmp_path, line: str, said: str) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=said):
        load_sessions(path)


def test_the_followups_bench_answers_offline_with_every_argument_ask_passes(tmp_path, monkeypatch) -> None:
    """`bench/followups.py --rewrite-only` replaced compose_answer with a stand-in that no longer took what
    ask passes (facts, closeness, typed): the first question raised TypeError."""
    import sys
    from pathlib import Path

    from fakes import QueuedLLM, fake_assistant_with_samples

    import rag_core.assistant as assistant_module

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from bench.followups import _answer_offline

    monkeypatch.setattr(assistant_module, "compose_answer", assistant_module.compose_answer)  # undone after
    assistant = fake_assistant_with_samples(tmp_path / "store", llm=QueuedLLM())
    _answer_offline()
    trace = assistant.ask("年假有几天？", user="")
    assert trace.answerer.startswith("extractive")


def test_a_refusal_that_explains_itself_with_a_citation_is_still_a_refusal(tmp_path) -> None:
    """Found by the review of the first fix: the model's 制度里没有写这一条。[资料1] 只规定了… counted as answered."""
    from fakes import QueuedLLM, fake_assistant

    from rag_core.types import REFUSED

    refusal = "制度里没有写这一条。[资料1] 只规定了员工本人结婚的婚假，没有提到子女结婚。"
    assert is_refusal(refusal)
    assert is_refusal("制度没有写明子女的婚假。[资料1]只规定员工本人。")
    a = fake_assistant(tmp_path / "s", llm=QueuedLLM(refusal))
    assert a.ingest_bytes("# 假期制度\n\n## 婚假\n\n员工本人依法办理结婚登记的，可享受婚假3天。\n".encode(), "leave.md").ok
    assert a.ask("子女结婚员工有婚假吗？", user="").outcome == REFUSED
