"""The answer trace as HR reads it: words by default, numbers only once 技术细节 is opened.

AppTest on a hand-built trace (tests/trace_samples.py), so no model loads; the
same view on a real answer is covered in test_app_pages.py and the browser test.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from streamlit.testing.v1 import AppTest

RAW_NUMBERS = re.compile(r"BM25|余弦|把握|阈值|采用线|0\.\d{3}|12\.6|token|毫秒")


def _script() -> None:
    from trace_samples import sample_trace

    from ui.trace_view import render_answer, render_trace

    trace = sample_trace()
    render_answer(trace, "t1")
    render_trace(trace, "t1")


def visible_text(at: AppTest) -> str:
    parts: list[str] = []
    for kind in ("markdown", "caption", "text", "code", "info", "warning"):
        parts.extend(str(el.value) for el in getattr(at, kind))
    parts.extend(el.label for el in at.expander)
    parts.extend(frame.value.to_string() for frame in at.dataframe)
    return "\n".join(parts).replace("\\", "")  # markdown escapes (03\_travel) are not what a person sees


@pytest.fixture()
def app(monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("RAG_TIMEZONE", "Asia/Shanghai")
    at = AppTest.from_function(_script, default_timeout=30)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_default_trace_shows_words_and_no_raw_numbers(app: AppTest) -> None:
    text = visible_text(app)
    assert "03_travel_expense.md" in text and "第九条 住宿标准" in text  # source and section
    assert any("一类城市500元" in el.value for el in app.text)  # the clause itself
    assert "关键词：住宿、标准" in text and "意思相近程度：高" in text  # why, in words
    assert "依据充分" in text and "依据较弱" in text  # strength
    assert "技术细节" in text
    assert not RAW_NUMBERS.search(text), RAW_NUMBERS.search(text)
    assert not app.code, "the prompt stays under 技术细节"
    assert "我常驻杭州" in text and re.search(r"\d+ (天|小时)前", text)  # memory age in words


def test_opening_technical_details_shows_every_number_the_prompt_and_timings(app: AppTest) -> None:
    app.session_state["tech_t1"] = True
    app.run()
    text = visible_text(app)
    assert "BM25" in text and "12.608" in text and "0.9242" in text and "把握" in text
    assert app.code[0].value.startswith("你是公司的人事制度问答助手")
    assert "完整提示词（321 / 1800 token）" in text
    assert "各阶段耗时" in text and "812.2" in text
    assert "2026-12-01 07:30" in text  # the memory's UTC time shown in Shanghai time
    assert "相似度 0.62" in text and "问题也按词表读作：出差住宿标准是多少？（住宿费、酒店）" in text  # the decision's USE input
    assert "追问判断" in text and "原问题 0.96，结合上文 0.99" in text  # how the follow-up was read, one click away
    decision = next(el.value for el in app.caption if "可能承接上文" in el.value)
    assert "](" not in decision.replace("\\](", "") and "\\$" in decision  # the question's own markup stays inert


def test_unsupported_sentence_is_marked_and_removed_citation_reported(app: AppTest) -> None:
    answer = next(el.value for el in app.markdown if "800" in el.value)
    marked = answer.split("800", 1)[1]
    assert "未在资料中找到" in marked.split("400", 1)[0]  # right after the unfaithful sentence...
    assert "未在资料中找到" not in answer.split("400", 1)[1]  # ...and not after the faithful one
    assert any("[资料7]" in el.value.replace("\\", "") and "已从回答中删除" in el.value for el in app.caption)


def _weak_script() -> None:
    import streamlit as st
    from trace_samples import sample_trace

    from ui.trace_view import render_answer

    answer = st.session_state.get("answer", "一类城市每晚 500 元 [资料1]。")
    render_answer(sample_trace(answer, source_verdict="依据较弱"), "w1")


def test_a_model_answer_from_weak_sources_only_says_so() -> None:
    from ui.trace_view import WEAK_LLM_NOTE

    at = AppTest.from_function(_weak_script, default_timeout=30)
    at.run()
    assert not at.exception
    assert WEAK_LLM_NOTE in [el.value for el in at.caption]
    # an answer that opens with the hedge itself (the offline one always, a model following rule 6) gets no second
    at.session_state["answer"] = "依据较弱，请核对原文。一类城市每晚 500 元 [资料1]。"
    at.run()
    assert WEAK_LLM_NOTE not in [el.value for el in at.caption]


def test_a_model_answer_with_strong_sources_has_no_weak_note(app: AppTest) -> None:
    from ui.trace_view import WEAK_LLM_NOTE

    assert WEAK_LLM_NOTE not in [el.value for el in app.caption]


def test_local_time_uses_the_configured_zone(monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.timefmt import local_time, relative_age

    assert local_time("2026-11-30T23:30:12+00:00") == "2026-12-01 07:30"
    monkeypatch.setenv("RAG_TIMEZONE", "Europe/London")
    assert local_time("2026-11-30T23:30:12+00:00") == "2026-11-30 23:30"
    assert local_time("2026-11-30T23:30:12") == "2026-11-30 23:30"  # naive means UTC
    assert local_time(None) == "" and local_time("不是时间") == "不是时间"
    now = datetime(2026, 12, 3, 0, 0, tzinfo=UTC)
    assert relative_age("2026-11-30T23:30:12+00:00", now=now) == "2 天前"
