"""A standard answer written from a knowledge gap cites only the clauses HR chose (none by default).

The gap's nearest clause is the one that failed to answer the question; it is shown on the 知识缺口 page as a hint
HR may copy into 依据的条款, never taken as the answer's basis unasked.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import fake_assistant_with_samples
from streamlit.testing.v1 import AppTest
from test_pages_forms import open_page

from rag_core.types import Principal
from ui.inert import escape_md

HR = Principal("hr_li", "hr")
ADMIN = Principal("boss", "admin")
EMPLOYEE = Principal("emp_wang", "employee")
ABSENT = "公司有没有提供班车？"
ANSWER = "公司没有班车，请自行通勤。"


@pytest.fixture()
def strict(tmp_path: Path):
    """Every question below the answer threshold: each one asked is a gap with a nearest clause."""
    a = fake_assistant_with_samples(tmp_path / "store", answer_threshold=0.99)
    a.ask(ABSENT, actor=EMPLOYEE)
    return a


def test_an_answer_from_a_gap_cites_no_clause_unless_hr_names_one(strict):
    [group] = strict.knowledge_gaps(actor=HR)
    assert group.nearest, "the fake embedder found no nearest clause"
    entry = strict.standard_answer_from_gap(group, ANSWER, actor=HR)
    assert entry.clauses == []
    trace = strict.ask(ABSENT, user="", remember=False, actor=EMPLOYEE)
    assert trace.answerer == "标准答复" and trace.standard_answer["clauses"] == []  # what the employee reads as 依据


def test_deleting_the_nearest_document_holds_only_an_answer_that_names_it(strict):
    [group] = strict.knowledge_gaps(actor=HR)
    near = group.nearest
    hint = f"{near['title']} {near['section']}"
    unnamed = strict.standard_answer_from_gap(group, ANSWER, actor=HR)
    # for other readers: the same question for the same readers is refused as a duplicate
    named = strict.standard_answer_from_gap(group, "以行政部通知为准。", clauses=[hint], audience=["hr"], actor=HR)
    assert named.clauses == [hint]
    strict.delete_document(near["doc_id"], actor=ADMIN)
    holds = strict.standard_answer_holds(actor=HR)
    assert named.id in holds and unnamed.id not in holds


def test_the_gaps_form_offers_an_empty_clause_field_with_the_nearest_clause_as_a_hint(strict, tmp_path, monkeypatch):
    [group] = strict.knowledge_gaps(actor=HR)
    hint = f"{group.nearest['title']} {group.nearest['section']}"
    at: AppTest = open_page(strict, tmp_path, monkeypatch, "pages/gaps.py")
    assert not at.exception, [e.value for e in at.exception]
    field = next(t for t in at.text_area if t.label == "依据的条款（可选，每行一条）")
    assert field.value == ""
    assert any("最接近的条款" in c.value and escape_md(hint) in c.value for c in at.caption)  # shown, to copy
    at.text_area[0].set_value(ANSWER)
    next(b for b in at.button if b.label == "设为标准答复").click().run()
    assert not at.exception and any("已添加标准答复" in s.value for s in at.success)
    [first] = strict.standard_answers(actor=HR)
    assert first.clauses == []
    strict.delete_standard_answer(first.id, actor=HR)
    at = open_page(strict, tmp_path, monkeypatch, "pages/gaps.py")
    at.text_area[0].set_value(ANSWER)
    next(t for t in at.text_area if t.label == "依据的条款（可选，每行一条）").set_value(f"{hint}\n\n《员工手册》第二条")
    next(b for b in at.button if b.label == "设为标准答复").click().run()
    assert not at.exception, [e.value for e in at.exception]
    [second] = strict.standard_answers(actor=HR)
    assert second.clauses == [hint, "《员工手册》第二条"]
