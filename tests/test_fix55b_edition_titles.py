"""A standard answer naming 《年假制度》 is held when 年假制度（2023年修订） is deleted (review 55b defect 3): a title
with an edition or status after it was not taken as the document the clause names, so the answer stayed served."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core.insights.standard_refs import references
from rag_core.types import Principal

HR, EMP = Principal("li", "hr"), Principal("zhang", "employee")
QUESTION = "年假有几天"


@pytest.mark.parametrize("title", ["年假制度", "年假制度（2023年修订）", "年假制度(试行)", "年假制度修订版",
                                   "年假制度 2024版"])
@pytest.mark.parametrize("clause", ["《年假制度》第一条", "依据年假制度第一条"])
def test_fix55b_deleting_an_edition_of_the_named_document_holds_the_answer(tmp_path, title, clause):
    a = fake_assistant(tmp_path / "store")
    body = f"# {title}\n\n第一条 员工每年享有五天带薪年假，需提前三天申请。\n".encode()
    assert a.ingest_bytes(body, "annual.md", actor=HR).ok
    (doc,) = [v for v in a.catalog.live_versions()]
    assert doc.title == title
    entry = a.add_standard_answer(QUESTION, "员工每年享有五天带薪年假。", clauses=[clause], actor=HR)
    assert a.ask(QUESTION, user="", remember=False, actor=EMP).answerer == "标准答复"
    a.delete_document(doc.doc_id, actor=HR)
    assert a.ask(QUESTION, user="", remember=False, actor=EMP).answerer != "标准答复"
    assert entry.id in a.standard_answer_holds(actor=HR)


def test_fix55b_an_edition_is_not_a_longer_name():
    assert not references(["《年假制度》第一条"], "年假制度补充规定（试行）")
    assert not references(["依据年假制度补充规定第一条"], "年假制度（试行）", ["年假制度补充规定"])
    assert references(["《年假制度（试行）》第一条"], "年假制度（2023年修订）")
    assert references(["《年假制度》第一条"], "星河科技年假制度修订版")
