"""Duplicate or overlapping standard answers (review 55b defect 4): the first stored always won a tie, so HR's
correction or the managers' own answer was never served; the same answer could be stored twice."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core import RagError
from rag_core.insights.standard_duplicates import refuse_duplicate
from rag_core.insights.standard_holds import Hold
from rag_core.types import Principal

HR, OTHER_HR = Principal("li", "hr"), Principal("wang", "hr")
EMP, MANAGER = Principal("zhang", "employee"), Principal("zhao", "employee", audiences=("managers",))
QUESTION = "婚假有几天"


def asked(a, who: Principal, question: str = QUESTION) -> str:
    trace = a.ask(question, user="", remember=False, actor=who)
    assert trace.answerer == "标准答复", trace.answer
    return trace.answer


def test_fix55b_the_newest_of_equal_answers_is_served(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.add_standard_answer(QUESTION, "婚假3天。", actor=HR)
    a.standard_store._db.execute("UPDATE standard_answers SET created_at = '2020-01-01T00:00:00+00:00'")
    a.standard_store._db.commit()
    a.standard_store.add(QUESTION, "婚假10天。", author="wang", created_at="2026-01-01T00:00:00+00:00")
    assert asked(a, EMP) == "婚假10天。"


def test_fix55b_the_managers_answer_beats_the_general_one_for_a_manager(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.add_standard_answer(QUESTION, "婚假3天。", actor=HR)
    a.add_standard_answer(QUESTION, "管理者婚假5天。", audience=["managers"], actor=Principal("root", "admin"))
    assert asked(a, MANAGER) == "管理者婚假5天。"
    assert asked(a, EMP) == "婚假3天。"


def test_fix55b_a_second_answer_to_the_same_question_for_the_same_readers_is_refused(tmp_path):
    a = fake_assistant(tmp_path / "store")
    first = a.add_standard_answer(QUESTION, "婚假3天。", actor=HR)
    with pytest.raises(RagError, match=first.id):
        refuse_duplicate(a.standard_store, "婚假有几天？", ["all"])
    refuse_duplicate(a.standard_store, QUESTION, ["managers"])  # other readers: allowed
    refuse_duplicate(a.standard_store, "婚假怎么请", ["all"])  # another question: allowed
    a.standard_store.hold({first.id: "changed"}, Hold("婚姻制度", ("all",), "2026-01-01T00:00:00+00:00"))
    refuse_duplicate(a.standard_store, QUESTION, ["all"])  # the old one is held: a replacement is allowed


def test_fix55b_the_gap_form_is_emptied_after_the_answer_is_added(tmp_path, monkeypatch):
    from app_support import logged_in_with

    a = fake_assistant(tmp_path / "store")
    a.add_user("wang", "admin", "correct horse")
    a.ask("公司有班车吗", actor=EMP)
    app = str(Path(__file__).resolve().parent.parent / "app.py")
    at = logged_in_with(a, app, "wang", "correct horse", tmp_path, monkeypatch)
    at.switch_page("pages/gaps.py").run()
    assert not at.exception, [e.value for e in at.exception]
    answer = next(t for t in at.text_area if t.label == "标准答复")
    answer.set_value("公司在早晚高峰提供免费班车。")
    next(b for b in at.button if b.label == "设为标准答复").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("已添加标准答复" in s.value for s in at.success)
    # the group is answered now: no second form to click (review 382 #4), so the answer cannot be stored twice
    at.run()
    assert not [b for b in at.button if b.label == "设为标准答复"]
    assert any("已有标准答复" in s.value for s in at.success)
    assert len(a.standard_answers(actor=HR)) == 1
