"""HR's own tools for HR (issue 32): a synonym and a standard answer with its audience, from the pages HR reaches.

AppTest in team mode on the fake-embedder facade with the sample policies. An employee asks
出差伙食钱一天多少？ — no policy says 伙食钱, so it is a knowledge gap. HR adds 伙食钱 → 餐费补贴 from
that gap group, and the same question then finds 第十一条 出差期间餐费补贴. The engine refuses the
same action to an employee, whatever the page shows.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from app_support import logged_in_with
from fakes import fake_assistant_with_samples
from streamlit.testing.v1 import AppTest

from rag_core import PermissionDenied, Principal

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
PASSWORD = "correct horse"
ADMIN = Principal("wang", "admin")
HR = Principal("li", "hr")
EMPLOYEE = Principal("zhang", "employee")
GAP = "出差伙食钱一天多少？"
CLAUSE = "第十一条 出差期间餐费补贴"


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    assistant = fake_assistant_with_samples(tmp_path_factory.mktemp("hr_tools") / "store")
    assistant.add_user("wang", "admin", PASSWORD)
    assistant.add_user("li", "hr", PASSWORD, actor=ADMIN)
    assistant.add_user("zhang", "employee", PASSWORD, actor=ADMIN)
    yield assistant


def logged_in(team: Any, name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    return logged_in_with(team, APP, name, PASSWORD, tmp_path, monkeypatch)


def gap_number(at: AppTest, question: str) -> int:
    """The index of the gap group whose expander names `question`."""
    labels = [e.label for e in at.expander]
    return next(i for i, label in enumerate(labels) if question in label)


def test_hr_adds_a_synonym_from_a_gap_group_and_the_same_question_then_finds_the_clause(team, tmp_path, monkeypatch):
    before = team.ask(GAP, actor=EMPLOYEE, remember=False)
    assert before.search.hit_count == 0 and not any(CLAUSE in h.chunk.section for h in before.search.hits)
    at = logged_in(team, "li", tmp_path, monkeypatch)
    at.switch_page("pages/gaps.py").run()
    assert not at.exception, [e.value for e in at.exception]
    number = gap_number(at, GAP)
    at.text_input(key=f"gap_word_{number}").set_value("伙食钱")
    at.text_input(key=f"gap_terms_{number}").set_value("餐费补贴")
    next(b for b in at.button if b.label == "添加同义词" and b.form_id == f"gap_synonym_{number}").click().run()
    assert not at.exception and not at.error, [e.value for e in [*at.exception, *at.error]]
    assert any("伙食钱" in s.value and "餐费补贴" in s.value for s in at.success), [s.value for s in at.success]
    assert any(CLAUSE in i.value for i in at.info), [i.value for i in at.info]  # the page searched again
    after = team.ask(GAP, actor=EMPLOYEE, remember=False)
    assert after.search.hits and CLAUSE in after.search.hits[0].chunk.section
    assert after.outcome != "refused"
    rows = [e for e in team.audit_entries(actor=ADMIN) if e.action == "thesaurus.change" and e.actor == "li"]
    assert rows and rows[0].outcome == "ok" and "伙食钱" in rows[0].detail


def test_an_employee_cannot_add_a_synonym(team):
    entries = dict(team.thesaurus.entries)
    refused = len(team.audit_entries(outcome="refused", actor=ADMIN))
    with pytest.raises(PermissionDenied):
        team.add_thesaurus_entry("打卡钱", "餐费补贴", actor=EMPLOYEE)
    assert team.thesaurus.entries == entries and "打卡钱" not in team.thesaurus.entries
    assert len(team.audit_entries(outcome="refused", actor=ADMIN)) == refused + 1


@pytest.mark.parametrize("word, terms", [("", "餐费补贴"), ("伙食钱", ""), ("两个 词", "餐费补贴"),
                                         ("伙食钱\n开除", "解除劳动合同"), ("#伙食", "餐费补贴")])
def test_a_bad_entry_is_refused_and_nothing_is_saved(team, word, terms):
    entries = dict(team.thesaurus.entries)
    with pytest.raises(Exception, match="口语词|制度用语"):
        team.add_thesaurus_entry(word, terms, actor=HR)
    assert team.thesaurus.entries == entries


def test_a_standard_answer_is_added_for_the_chosen_audience(team, tmp_path, monkeypatch):
    at = logged_in(team, "li", tmp_path, monkeypatch)
    at.switch_page("pages/standard_answers.py").run()
    assert not at.exception, [e.value for e in at.exception]
    picker = next(m for m in at.multiselect if m.label.startswith("受众"))
    assert picker.value == ["all"] and "managers" not in picker.options
    at.text_input[0].set_value("HR 团建预算怎么申请？")
    at.text_area[0].set_value("向 HRBP 提交团建预算表。")
    picker.set_value(["hr"])
    next(b for b in at.button if b.label == "添加").click().run()
    assert not at.exception and not at.error, [e.value for e in [*at.exception, *at.error]]
    entry = next(e for e in team.standard_answers(actor=HR) if e.question == "HR 团建预算怎么申请？")
    assert entry.audience == ("hr",)
    with pytest.raises(PermissionDenied):  # an audience HR cannot read: refused by the engine, not only hidden
        team.add_standard_answer("经理的问题？", "经理的答复。", audience=["managers"], actor=HR)
