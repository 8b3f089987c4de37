"""Releasing a held standard answer runs the duplicate check adding one runs (review 55f, defect 4): released
beside HR's correction, the old rule was served again next to it.

Failed before its fix (checked by running it on the unfixed code).
"""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core import RagError
from rag_core.types import Principal

HR, EMP = Principal("li", "hr"), Principal("zhang", "employee")
QUESTION = "婚假有几天"
POLICY = "# 婚假制度\n\n第一条 员工结婚可休婚假三天。\n".encode()


def test_a_held_answer_is_not_released_beside_its_correction(tmp_path):
    a = fake_assistant(tmp_path / "store")
    doc = a.ingest_bytes(POLICY, "婚假制度.md", actor=HR).doc_id
    old = a.add_standard_answer(QUESTION, "婚假3天。", clauses=["《婚假制度》第一条"], actor=HR)
    a.delete_document(doc, actor=HR)
    seen = a.standard_answer_holds(actor=HR)[old.id]
    correction = a.add_standard_answer(QUESTION, "婚假10天。", actor=HR)  # the held one does not count
    with pytest.raises(RagError, match=correction.id) as refused:
        a.release_standard_answer(old.id, seen=seen, actor=HR)
    assert "删除" in str(refused.value)
    assert old.id in a.standard_answer_holds(actor=HR)
    assert a.ask(QUESTION, user="", remember=False, actor=EMP).answer == "婚假10天。"
    a.delete_standard_answer(correction.id, actor=HR)
    a.release_standard_answer(old.id, seen=seen, actor=HR)  # the correction gone: the old one may come back
    assert a.ask(QUESTION, user="", remember=False, actor=EMP).answer == "婚假3天。"
