"""A standard answer written from a document is held for review (not served, not deleted) once it is deleted."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest
from test_pages_forms import open_page

from rag_core.errors import RagError
from rag_core.insights.records import GapGroup
from rag_core.types import Principal

ADMIN = Principal("boss", "admin")
HR = Principal("hr_li", "hr")
EMPLOYEE = Principal("emp_wang", "employee")
BUS = "# 星河科技有限公司班车管理办法\n\n## 第三条 班车\n\n公司每天早上八点发车，晚上六点返程。\n".encode()
OTHER = "# 星河科技有限公司食堂管理办法\n\n## 第一条 就餐\n\n食堂中午十一点半开饭。\n".encode()
QUESTION = "公司有班车吗？"


@pytest.fixture()
def assistant(tmp_path: Path):
    a = fake_assistant(tmp_path / "store")
    for name, data in (("bus.md", BUS), ("canteen.md", OTHER)):
        assert a.ingest_bytes(data, name, actor=ADMIN).ok
    return a


def served(a) -> bool:
    return a.ask(QUESTION, user="", remember=False, actor=EMPLOYEE).answerer == "标准答复"


def bus_id(a) -> str:
    return next(d.doc_id for d in a.list_documents(actor=ADMIN) if "班车" in d.title)


def test_deleting_the_document_a_clause_names_holds_the_answer_until_hr_releases_it(assistant):
    entry = assistant.add_standard_answer(QUESTION, "有，早八点发车。", clauses=["《班车管理办法》第三条"], actor=HR)
    assert served(assistant)
    assistant.delete_document(bus_id(assistant), actor=HR)
    assert not served(assistant)
    assert [e.id for e in assistant.standard_answers(actor=HR)] == [entry.id]  # nothing deleted silently
    why = assistant.standard_answer_holds(actor=HR)[entry.id]
    assert "待复核" in why and "《星河科技有限公司班车管理办法》" in why and "恢复使用" in why
    assistant.release_standard_answer(entry.id, actor=HR)
    assert served(assistant) and assistant.standard_answer_holds(actor=HR) == {}


def test_an_answer_from_a_gap_records_its_document_and_another_documents_delete_leaves_it(assistant):
    doc_id = bus_id(assistant)
    group = GapGroup(representative=QUESTION, count=1, first_seen="", last_seen="", questions=[QUESTION], kinds={},
                     nearest={"doc_id": doc_id, "title": "班车", "section": "第三条"})  # not the document's title
    # HR copied the nearest clause (the page's hint) into 依据的条款: that records its document
    entry = assistant.standard_answer_from_gap(group, "有，早八点发车。", clauses=["班车 第三条"], actor=HR)
    other = next(d.doc_id for d in assistant.list_documents(actor=ADMIN) if d.doc_id != doc_id)
    assistant.delete_document(other, actor=HR)
    assert served(assistant) and assistant.standard_answer_holds(actor=HR) == {}
    assistant.delete_document(doc_id, actor=HR)
    assert not served(assistant) and entry.id in assistant.standard_answer_holds(actor=HR)
    [row, _] = assistant.audit_log.entries(action="document.delete")
    assert "1 条依据它的标准答复暂停使用，待复核" in row.detail


def test_the_hold_names_the_deleted_document_only_to_who_may_read_its_audience(tmp_path: Path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(OTHER, "canteen.md", actor=ADMIN).ok
    # written before the managers' document came (an answer wider than a live document it names is refused)
    entry = a.add_standard_answer(QUESTION, "有。", clauses=["《班车管理办法》第三条"], actor=HR)
    assert a.ingest_bytes(BUS, "bus.md", audience=["manager"], actor=ADMIN).ok
    a.delete_document(bus_id(a), actor=ADMIN)
    assert "班车管理办法" in a.standard_answer_holds(actor=ADMIN)[entry.id]
    assert entry.id not in a.standard_answer_holds(actor=HR)  # held for a document HR cannot read (review 333)
    assert entry.id not in {e.id for e in a.standard_answers(actor=HR)}
    with pytest.raises(RagError):
        a.release_standard_answer("nope", actor=HR)


def test_the_standard_answers_page_says_why_an_answer_is_held_and_releases_it(assistant, tmp_path, monkeypatch):
    local = Principal("local", "admin")
    entry = assistant.add_standard_answer(QUESTION, "有，早八点发车。", clauses=["《班车管理办法》第三条"], actor=local)
    assistant.delete_document(bus_id(assistant), actor=local)
    at: AppTest = open_page(assistant, tmp_path, monkeypatch, "pages/standard_answers.py")
    assert not at.exception, [e.value for e in at.exception]
    assert any("待复核" in w.value and "班车管理办法" in w.value for w in at.warning)
    assert any(e.label.startswith("【待复核】") for e in at.expander)
    next(b for b in at.button if b.label == "复核无误，恢复使用").click().run()
    assert not at.exception and assistant.standard_answer_holds(actor=local) == {}
    assert [e.id for e in assistant.standard_answers(actor=local)] == [entry.id]
