"""The 检索测试 page states the threshold the search it just ran used, not only the usual one.

A store with few visible chunks gets its own, lower question threshold; the page said 35% while the
search had used 10% (found by review).
"""

from __future__ import annotations

from pathlib import Path

from app_support import point_the_app_at
from fakes import fake_assistant

APP = str(Path(__file__).resolve().parents[1] / "app.py")
POLICY = "# 班车制度\n\n第一条 公司每天早上八点从地铁站发一班通勤车。\n"


def searched_on_the_page(assistant, question: str, tmp_path, monkeypatch):
    """An AppTest of the desktop app on `assistant`, 检索测试 opened and `question` searched there."""
    from streamlit.testing.v1 import AppTest

    import ui.state

    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.run()
    at.switch_page("pages/retrieval_test.py").run()
    at.text_input(key="rt_question").set_value(question)
    next(b for b in at.button if b.label == "检索").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_page_states_the_threshold_of_the_search_it_ran(tmp_path, monkeypatch):
    assistant = fake_assistant(tmp_path / "store", answer_threshold=None)  # the shipped decision, small store included
    assert assistant.ingest_bytes(POLICY.encode(), "班车制度.md").ok
    at = searched_on_the_page(assistant, "公司有班车吗？", tmp_path, monkeypatch)
    result = at.session_state["retrieval_chat_search"][1].result
    model = assistant.decision
    assert result.store_chunks < model.small_store and result.threshold != model.question_threshold
    assert not any("门槛" in i.value for i in at.info)  # numbers one click away (review 384 #7), not up front
    at.session_state["tech_rt"] = True  # open 技术细节
    at.run()
    shown = " ".join(m.value for m in at.markdown)
    assert f"**{result.threshold:.0%}**（这次检索用的门槛）" in shown
    assert f"**{model.question_threshold:.0%}**" not in shown.split("不到")[0]


def test_chatter_is_named_as_chatter_and_not_as_something_remembered(tmp_path, monkeypatch):
    """谢谢 is answered in chat with a short line and nothing remembered; the page said it would be remembered."""
    from rag_core.types import Principal

    assistant = fake_assistant(tmp_path / "store")
    found = assistant.search_as_chat("谢谢，我知道了", actor=Principal("u1", "employee"))
    assert found.chatter and not found.told_only and not found.result.hits
    said = assistant.ask("谢谢，我知道了", actor=Principal("u1", "employee"), conversation="c1")
    assert not said.acknowledged  # chat remembers nothing either
    at = searched_on_the_page(assistant, "谢谢，我知道了", tmp_path, monkeypatch)
    shown = " ".join(i.value for i in at.info)
    assert "寒暄" in shown and "记住它" not in shown
