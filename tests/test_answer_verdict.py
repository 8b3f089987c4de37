"""One verdict per answer (issue 32), read from `trace.outcome` and shown the same everywhere.

AppTest on hand-built traces (tests/trace_samples.py) drawn the way chat draws a turn
(`render_answer` then `render_trace`), so no model loads. Each test fails without its rule:
a refusal beside a green hit count, 出处 listing a clause the answer never cited, 技术细节
counting differently from the badge, a near-miss reason naming a word twice.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent


def _script() -> None:
    import streamlit as st
    from trace_samples import CLAUSE, sample_trace

    from rag_core.types import SourceRef
    from ui.trace_view import render_answer, render_trace

    outcome = st.session_state.get("outcome", "answered")
    if outcome == "refused":  # the search found two clauses; the answerer found none that answers the question
        trace = sample_trace("制度里没有写这一条。", llm=False)
    else:
        trace = sample_trace("一类城市每晚 500 元 [资料1]。", llm=False)
    trace.outcome = outcome
    if outcome == "standard":
        trace.standard_answer = {"id": "s1", "author": "li", "created_at": "2026-11-30T23:30:12+00:00",
                                 "clauses": ["差旅办法 第九条"], "question": "住宿标准"}
    second = "住宿费须凭酒店开具的发票和住宿明细报销。"  # in the prompt as [资料2], never cited
    trace.sources.append(SourceRef(2, second, "03_travel_expense.md", "第十条 住宿发票", "travel@v2#1", "依据较弱"))
    assert CLAUSE in trace.sources[0].text
    trace.search.store_chunks = int(st.session_state.get("store_chunks", 40))
    render_answer(trace, "t1")
    render_trace(trace, "t1")


def run(outcome: str, **state: object) -> AppTest:
    at = AppTest.from_function(_script, default_timeout=30)
    at.session_state["outcome"] = outcome
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def badges(at: AppTest) -> list[str]:
    return [el.value for el in at.markdown if "-badge[" in el.value]


def captions(at: AppTest) -> str:
    return "\n".join(el.value for el in at.caption).replace("\\", "")


def test_a_refusal_never_sits_beside_a_green_hit_count() -> None:
    at = run("refused")
    shown = badges(at)
    assert not any(":green-badge[" in b for b in shown), shown
    assert not any("命中 2 块" in b for b in shown), shown
    assert any(":gray-badge[" in b and "没有可用的条款" in b for b in shown), shown
    labels = [e.label for e in at.expander]
    assert "相近但未采用的条款（2 条）" in labels and not any(label.startswith("依据的条款") for label in labels)
    assert "出处" not in captions(at)  # a refusal cites nothing


@pytest.mark.parametrize(("outcome", "badge", "colour"), [
    ("answered", "命中 2 块", "green"), ("weak", "依据较弱 · 命中 2 块", "orange"), ("standard", "标准答复", "blue"),
])
def test_each_outcome_has_one_badge(outcome: str, badge: str, colour: str) -> None:
    at = run(outcome)
    shown = [b for b in badges(at) if "未在资料中找到" not in b]
    verdicts = [b for b in shown if "依据充分]" not in b and "依据较弱，请核对原文]" not in b and "未引用]" not in b]
    assert len(verdicts) == 1 and f":{colour}-badge[" in verdicts[0] and badge in verdicts[0], shown
    if outcome == "standard":  # who wrote it and what it rests on, once, under the badge
        assert "HR 写好的答复 · li · 2026-12-01 · 依据：差旅办法 第九条" in captions(at)  # 23:30 UTC is the next day in Shanghai


def test_sources_list_only_the_clauses_the_answer_cited() -> None:
    text = captions(run("answered"))
    line = next(c for c in text.splitlines() if c.startswith("出处："))
    assert "[资料1]" in line and "第九条 住宿标准" in line
    assert "[资料2]" not in line and "第十条" not in line, line


@pytest.mark.parametrize("outcome", ["answered", "refused"])
def test_the_technical_details_count_agrees_with_the_chat(outcome: str) -> None:
    at = run(outcome, store_chunks=0)  # a trace read back from the conversation store keeps no visible-chunk count
    label = next(e.label for e in at.expander if "条款（" in e.label)
    badge = next(b for b in badges(at) if "命中" in b or "没有可用" in b)
    words = badge.split("]", 1)[0].rsplit(" ", 1)[-1].strip("*") if outcome == "refused" else "命中 2 块"
    at.session_state["tech_t1"] = True
    at.run()
    details = "\n".join(el.value for el in at.markdown)
    assert f"回答结论：{words}；{label}" in details, details
    assert "可见资料 0 块" not in captions(at)


@pytest.fixture(scope="module")
def fake_store(tmp_path_factory: pytest.TempPathFactory):
    from fakes import fake_assistant_with_samples

    assistant = fake_assistant_with_samples(tmp_path_factory.mktemp("verdict") / "store")
    return assistant


def test_near_miss_reasons_name_each_word_once_in_chat(fake_store, tmp_path, monkeypatch) -> None:
    """加班餐费 is missing from a clause both as a known word and as a benefit: the card names each once."""
    from app_support import point_the_app_at

    import ui.state

    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: fake_store)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.run()
    at.chat_input[0].set_value("加班餐费能报销吗？").run()
    assert not at.exception, [e.value for e in at.exception]
    reasons = [el.value.split("条款里没有：", 1)[1] for el in at.markdown if "条款里没有：" in el.value]
    assert reasons, "the question's near misses name no missing word: the test would prove nothing"
    for reason in reasons:
        words = reason.split("；", 1)[0].split("、")
        assert len(words) == len(set(words)), reason
    assert not any(":green-badge[" in b for b in badges(at))  # and this refusal shows no green count either
