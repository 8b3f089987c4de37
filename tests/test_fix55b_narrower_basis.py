"""An answer for everyone resting on an HR-only document is refused (review 55b defect 5): releasing the answer a
narrowed policy held served employees a clause they may not read, and nothing checked it when it was added."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core import RagError
from rag_core.types import Principal

HR, EMP = Principal("li", "hr"), Principal("zhang", "employee")
FIVE = "# 年假制度\n\n第一条 员工每年享有五天带薪年假，需提前三天申请。\n".encode()
QUESTION = "年假有几天"


def test_fix55b_releasing_an_answer_held_by_a_narrowed_policy_is_refused(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=HR).ok
    entry = a.add_standard_answer(QUESTION, "五天。", clauses=["《年假制度》第一条"], actor=HR)
    assert a.ingest_bytes(FIVE, "年假制度.md", audience=["hr"], actor=HR).status == "indexed"
    assert entry.id in a.standard_answer_holds(actor=HR)
    with pytest.raises(RagError, match="《年假制度》（只给HR看）") as refused:
        a.release_standard_answer(entry.id, actor=HR)
    assert "受众" in str(refused.value)
    assert a.ask(QUESTION, user="", remember=False, actor=EMP).answerer != "标准答复"


def test_fix55b_the_add_check_refuses_an_answer_for_all_on_an_hr_only_document(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(FIVE, "年假制度.md", audience=["hr"], actor=HR).ok
    doc = a.catalog.live_versions()[0].doc_id
    with pytest.raises(RagError, match="年假制度"):
        a._refuse_narrower_basis(("all",), ["依据年假制度第一条"], [], HR)
    with pytest.raises(RagError, match="你看不到的文档"):
        a._refuse_narrower_basis(("all",), [], [doc], EMP)
    a._refuse_narrower_basis(("hr",), ["《年假制度》第一条"], [doc], HR)  # its readers can read it
    a._refuse_narrower_basis(("all",), ["《考勤制度》第三条"], [], HR)  # another document


def test_fix55b_a_copy_everyone_reads_keeps_the_answer_allowed(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(FIVE, "年假制度.md", audience=["hr"], actor=HR).ok
    assert a.ingest_bytes(FIVE.replace("三天".encode(), "3天".encode()), "年假制度-公开.md", actor=HR).ok
    assert {v.title for v in a.catalog.live_versions()} == {"年假制度"}
    a._refuse_narrower_basis(("all",), ["《年假制度》第一条"], [], HR)
