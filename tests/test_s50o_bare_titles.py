"""A bare policy title in an ordinary Chinese sentence names that document (regression of f44a4be).

Chinese has no word breaks: 依据考勤与休假管理制度第五条 names 考勤与休假管理制度, so deleting it holds the
answer. A short title inside a longer title the catalog knows (考勤 in 考勤与休假管理制度) still does not.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.insights.standard_refs import names_document
from rag_core.types import Principal

ADMIN = Principal("boss", "admin")
HR = Principal("hr_li", "hr")
EMPLOYEE = Principal("emp_wang", "employee")
TITLE = "考勤与休假管理制度"
LEAVE = f"# {TITLE}\n\n## 第五条 年假\n\n员工工作满一年享有五天带薪年假，可分次休。\n".encode()
SHORT = "# 考勤\n\n## 说明\n\n打卡机在一楼大厅。\n".encode()
QUESTION = "年假可以分几次休？"
SENTENCES = ["依据考勤与休假管理制度第五条，年假可分次休。", "按考勤与休假管理制度执行", "见考勤与休假管理制度。"]


def served(a) -> bool:
    return a.ask(QUESTION, user="", remember=False, actor=EMPLOYEE).answerer == "标准答复"


def doc_id(a, title: str) -> str:
    [found] = [d.doc_id for d in a.list_documents(actor=ADMIN) if d.title == title]
    return found


@pytest.fixture()
def assistant(tmp_path: Path):
    a = fake_assistant(tmp_path / "store")
    for name, data in ((f"{TITLE}.md", LEAVE), ("short.md", SHORT)):
        assert a.ingest_bytes(data, name, actor=ADMIN).ok
    return a


@pytest.mark.parametrize("sentence", SENTENCES)
def test_a_bare_title_in_a_sentence_names_the_document(sentence):
    assert names_document([sentence], [TITLE])
    assert names_document([sentence], [TITLE], known=["考勤"])  # a shorter known title takes nothing away


@pytest.mark.parametrize("sentence", SENTENCES)
def test_a_short_title_inside_a_longer_known_title_is_not_that_document(sentence):
    assert not names_document([sentence], ["考勤"], known=[TITLE])
    assert not names_document([sentence], ["考勤"], known=[f"星河科技有限公司{TITLE}"])  # the clause leaves out the company
    assert names_document(["考勤打卡须按时，迟到按第三条处理。"], ["考勤"], known=[TITLE])  # not inside it: named


@pytest.mark.parametrize("sentence", SENTENCES)
def test_deleting_the_policy_named_bare_in_a_clause_holds_the_answer(assistant, sentence):
    entry = assistant.add_standard_answer(QUESTION, "可以分次休。", clauses=[sentence], actor=HR)
    assert served(assistant)
    assistant.delete_document(doc_id(assistant, TITLE), actor=HR)
    assert entry.id in assistant.standard_answer_holds(actor=HR) and not served(assistant)


def test_deleting_a_short_document_inside_the_named_title_leaves_the_answer_served(assistant):
    entry = assistant.add_standard_answer(QUESTION, "可以分次休。", clauses=SENTENCES[:1], actor=HR)
    assistant.delete_document(doc_id(assistant, "考勤"), actor=HR)
    assert served(assistant) and entry.id not in assistant.standard_answer_holds(actor=HR)
