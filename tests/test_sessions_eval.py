"""The session eval's data and scoring: every file loads, and each check reads the trace it should.

The sealed part is only loaded here (its shape), never scored: its figures come
from `bench/sessions.py --set sealed`, once per stop.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import fake_assistant_with_samples

from rag_core.evaluation.sessions import (
    KINDS,
    failed_checks,
    first_sentence,
    load_sessions,
    run_session,
    score_turn,
    summarise,
)

SESSIONS = Path(__file__).resolve().parent / "data" / "sessions"


@pytest.mark.parametrize("name", ["open.jsonl", "sealed/sealed.jsonl"])
def test_the_session_files_load(name: str) -> None:
    sessions = load_sessions(SESSIONS / name)
    turns = [t for s in sessions for t in s["turns"] if "say" in t]
    assert sessions and {t["kind"] for t in turns} == set(KINDS)
    for session in sessions:
        for turn in session["turns"]:
            if "upload" in turn:
                assert (SESSIONS / turn["upload"]).is_file(), turn["upload"]


@pytest.mark.parametrize("name", ["switches/regs.jsonl", "switches/books.jsonl"])
def test_the_switches_files_load_on_their_own_corpora(name: str) -> None:
    """The stop-58 validation part: follow-ups and switches only (no uploads), on corpora of its own."""
    sessions = load_sessions(SESSIONS / name)
    kinds = {t["kind"] for s in sessions for t in s["turns"]}
    assert len(sessions) >= 20 and {"new_topic", "followup"} <= kinds <= set(KINDS)
    for session in sessions:
        kind, _, corpus = session["corpus"].partition("/")
        assert kind == "fresh" and list((SESSIONS / "fresh" / "corpora" / corpus).glob("*.md"))


def test_the_first_sentence_skips_the_opening() -> None:
    answer = "根据制度：\n- 普通员工出差住宿费上限为每人每晚：一类城市500元 [资料1]\n- 超出部分自理 [资料1]"
    assert first_sentence(answer).startswith("普通员工出差住宿费上限")
    assert first_sentence("根据制度，可以：员工可以申请补卡 [资料2]").startswith("员工可以申请补卡")


def test_a_session_is_scored_turn_by_turn(tmp_path) -> None:
    assistant = fake_assistant_with_samples(tmp_path / "store")
    session = {"id": "t1", "corpus": "samples", "turns": [
        {"say": "出差住宿标准是多少？", "kind": "new_topic", "expected": ["一类城市500元"], "lead": "普通员工出差住宿费上限"},
        {"say": "那一线城市呢？", "kind": "followup", "must_contain": ["住宿"], "expected": ["一类城市500元"]},
        {"say": "我是销售部的普通员工", "kind": "statement", "remember": "销售部"},
        {"say": "公司有健身房吗？", "kind": "absent", "refuse": True},
    ]}  # fmt: skip
    results = run_session(assistant, session, SESSIONS)
    assert [r.kind for r in results] == ["new_topic", "followup", "statement", "absent"]
    assert results[0].checks["as_typed"] and results[0].checks["top3"]
    assert results[1].checks["must_contain"]
    assert results[2].checks == {"remembered": True}
    assert results[3].checks["as_typed"] and results[3].checks["refused"]
    summary = summarise(results)
    assert summary["acceptance"]["as_typed"]["n"] == 2 and summary["per_kind"]["followup"]["turns"] == 1


def test_a_trap_answered_from_weak_evidence_is_not_confident() -> None:
    class Trace:
        question = search_question = "加班餐费怎么报？"
        answer, outcome, weak_evidence, memories, acknowledged, sources = "依据较弱：…", "weak", True, [], [], []

        class search:  # noqa: N801 - stands in for SearchResult
            hits: list = []

    checks = score_turn({"say": "加班餐费怎么报？", "kind": "trap", "refuse": True}, Trace())
    assert checks == {"as_typed": True, "refused": False, "confident": False}


def test_a_failure_list_names_a_confident_trap_and_not_a_refused_one() -> None:
    """`confident` is the one check whose True is the failure (bench/sessions.py --failures lists it so)."""
    assert failed_checks({"as_typed": True, "refused": False, "confident": True}) == ["refused", "confident"]
    assert failed_checks({"as_typed": True, "refused": True, "confident": False}) == []
    assert failed_checks({"as_typed": True, "refused": False, "confident": False}) == ["refused"]


@pytest.mark.parametrize(("weak", "sure"), [(False, True), (True, False)])
def test_the_right_clause_answered_with_a_hedge_is_cited_but_not_sure(weak: bool, sure: bool) -> None:
    """`sure`: the answering clause cited *without* 依据较弱, what a needless hedge costs (stop 40)."""

    class Source:
        number, text = 1, "一类城市500元，二类城市400元。"

    class Trace:
        question = search_question = "出差住宿标准是多少？"
        answer, outcome, memories, acknowledged = "根据制度：\n- 一类城市500元 [资料1]", "answered", [], []
        sources = [Source()]
        weak_evidence = weak

        class search:  # noqa: N801 - stands in for SearchResult
            hits: list = []

    checks = score_turn({"say": "出差住宿标准是多少？", "kind": "new_topic", "expected": ["一类城市500元"]}, Trace())
    assert checks["cited"] and checks["sure"] is sure


def _yes_no_trace(verdict: str, outcome: str = "answered"):
    class Trace:
        question = search_question = "离职了还能拿年终奖吗？"
        answer, weak_evidence, memories, acknowledged, sources = "…", False, [], [], []

        class search:  # noqa: N801 - stands in for SearchResult
            hits: list = []

    Trace.verdict, Trace.outcome = verdict, outcome
    return Trace()


def test_a_yes_no_turn_checks_the_verdict_and_counts_the_opposite_as_a_failure() -> None:
    """The policy says no: 不可以 holds; no verdict is not right but not wrong; 可以 is the worse failure;
    a refusal states none. A turn without `yes_no` gold gets neither check."""
    turn = {"say": "离职了还能拿年终奖吗？", "kind": "new_topic", "yes_no": "no"}
    assert score_turn(turn, _yes_no_trace("不可以"))["verdict"] is True
    none = score_turn(turn, _yes_no_trace(""))
    assert none["verdict"] is False and none["verdict_wrong"] is False
    opposite = score_turn(turn, _yes_no_trace("可以"))
    assert opposite["verdict"] is False and opposite["verdict_wrong"] is True
    assert failed_checks(opposite) == ["verdict", "verdict_wrong"]
    assert score_turn(turn, _yes_no_trace("可以", outcome="refused"))["verdict_wrong"] is False
    assert "verdict" not in score_turn({"say": "年假几天？", "kind": "new_topic"}, _yes_no_trace("可以"))


def test_the_verdict_is_read_from_the_offline_answer_the_one_way_it_is_written() -> None:
    """`stated_verdict` reads what `header` writes, sure or hedged, and nothing from a quoted sentence."""
    from rag_core.answer.headers import VERDICTS, header, stated_verdict

    for verdict in VERDICTS:
        for weak in (False, True):
            assert stated_verdict(header(verdict, weak) + "\n- 员工可以申请补卡。 [资料1]") == verdict
    assert stated_verdict(header("", False) + "\n- 员工可以申请补卡。 [资料1]") == ""
    assert stated_verdict("制度里没有写这一条。") == ""


def test_the_verdict_is_kept_with_a_stored_turn() -> None:
    """A trace's verdict goes into its stored dict and comes back; a trace stored before verdicts loads with none."""
    from rag_core.conversations.records import trace_from_dict
    from rag_core.types import AskTrace, SearchResult

    trace = AskTrace(question="离职了还能拿年终奖吗？", answer="根据制度，不可以：", search=SearchResult(query="", hits=[]),
                     memories=[], prompt="", sources=[], prompt_tokens=0, token_budget=0, dropped_hits=0,
                     answerer="extractive", verdict="不可以")
    stored = trace.to_dict()
    assert stored["verdict"] == "不可以" and trace_from_dict(stored).verdict == "不可以"
    del stored["verdict"]
    assert trace_from_dict(stored).verdict == ""


@pytest.mark.integration
def test_the_trace_carries_the_verdict_of_a_yes_no_answer(shared_assistant) -> None:
    """Through the facade with the real models: a yes/no question on the samples gets its verdict as a value,
    a what question none."""
    yes_no = shared_assistant.ask("出差的时候打车的费用能报销吗？", remember=False)
    assert yes_no.verdict in ("可以", "不可以") and yes_no.verdict in yes_no.answer.splitlines()[0]
    assert yes_no.to_dict()["verdict"] == yes_no.verdict
    assert shared_assistant.ask("出差住宿标准是多少？", remember=False).verdict == ""
