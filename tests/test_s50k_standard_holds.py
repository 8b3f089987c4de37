"""Deleting a document holds only the standard answers that rest on it (review s50k defect 1).

A short title inside a longer name (考勤 in 《考勤与休假管理制度》) is not that document, and an exact
duplicate's delete leaves the answer served while a copy with the same title is still live.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.insights.records import GapGroup
from rag_core.insights.standard_refs import names_document
from rag_core.types import Principal

ADMIN = Principal("boss", "admin")
HR = Principal("hr_li", "hr")
EMPLOYEE = Principal("emp_wang", "employee")
LEAVE = "# 星河科技有限公司考勤与休假管理制度\n\n## 第五条 年假\n\n员工工作满一年享有五天带薪年假。\n".encode()
SHORT = "# 考勤\n\n## 说明\n\n打卡机在一楼大厅。\n".encode()
QUESTION = "年假有几天？"
CLAUSE = "《考勤与休假管理制度》第五条"


def served(a) -> bool:
    return a.ask(QUESTION, user="", remember=False, actor=EMPLOYEE).answerer == "标准答复"


def doc_ids(a, title: str) -> list[str]:
    return sorted(d.doc_id for d in a.list_documents(actor=ADMIN) if d.title == title)


@pytest.fixture()
def assistant(tmp_path: Path):
    a = fake_assistant(tmp_path / "store")
    for name, data in (("leave.md", LEAVE), ("short.md", SHORT)):
        assert a.ingest_bytes(data, name, actor=ADMIN).ok
    return a


def test_a_short_title_inside_a_longer_quoted_name_is_not_that_document():
    assert not names_document([CLAUSE], ["考勤"])
    assert not names_document(["考勤与休假管理制度第五条"], ["考勤"])
    assert names_document([CLAUSE], ["星河科技有限公司考勤与休假管理制度"])  # HR leaves out the company's name
    assert names_document(["考勤与休假管理制度第五条"], ["考勤与休假管理制度"])
    assert not names_document(["休假管理制度补充规定"], ["休假管理制度"])
    assert names_document(["《考勤》第二条"], ["考勤"]) and names_document(["考勤 第二条"], ["考勤"])


def test_deleting_a_short_document_whose_title_is_inside_the_clause_leaves_the_answer_served(assistant):
    entry = assistant.add_standard_answer(QUESTION, "五天。", clauses=[CLAUSE], actor=HR)
    assert served(assistant)
    [short] = doc_ids(assistant, "考勤")
    assistant.delete_document(short, actor=HR)
    assert served(assistant) and entry.id not in assistant.standard_answer_holds(actor=HR)


def test_deleting_a_duplicate_copy_leaves_the_answer_served_while_the_same_title_is_live(assistant):
    assert assistant.ingest_bytes(LEAVE, "leave-copy.md", actor=ADMIN).ok
    first, copy = doc_ids(assistant, "星河科技有限公司考勤与休假管理制度")
    entry = assistant.add_standard_answer(QUESTION, "五天。", clauses=[CLAUSE], actor=HR)
    assistant.delete_document(copy, actor=HR)
    assert served(assistant) and assistant.standard_answer_holds(actor=HR) == {}
    assistant.delete_document(first, actor=HR)  # the last copy: now it rests on nothing
    assert not served(assistant) and entry.id in assistant.standard_answer_holds(actor=HR)


def test_a_live_copy_only_some_of_the_answers_readers_can_read_does_not_keep_it_served(assistant):
    assert assistant.ingest_bytes(LEAVE, "leave-hr.md", audience=["hr"], actor=ADMIN).ok
    ids = doc_ids(assistant, "星河科技有限公司考勤与休假管理制度")
    everyone = next(i for i in ids if "all" in next(d for d in assistant.list_documents(actor=ADMIN)
                                                  if d.doc_id == i).audience)
    entry = assistant.add_standard_answer(QUESTION, "五天。", clauses=[CLAUSE], actor=HR)  # for everyone
    assistant.delete_document(everyone, actor=HR)
    assert not served(assistant) and entry.id in assistant.standard_answer_holds(actor=HR)


def test_an_answer_recording_a_deleted_duplicate_moves_to_the_live_copy_of_the_same_title(assistant):
    assert assistant.ingest_bytes(LEAVE, "leave-copy.md", actor=ADMIN).ok
    first, copy = doc_ids(assistant, "星河科技有限公司考勤与休假管理制度")
    group = GapGroup(representative=QUESTION, count=1, first_seen="", last_seen="", questions=[QUESTION], kinds={},
                     nearest={"doc_id": copy, "title": "年假", "section": "第五条"})  # no document's title
    entry = assistant.standard_answer_from_gap(group, "五天。", clauses=["年假 第五条"], actor=HR)  # the hint, copied
    assistant.delete_document(copy, actor=HR)
    assert served(assistant) and assistant.standard_answer_holds(actor=HR) == {}
    assistant.delete_document(doc_ids(assistant, "考勤")[0], actor=HR)  # another document: nothing to do with it
    assert served(assistant)
    assistant.delete_document(first, actor=HR)  # the recorded source is now the copy that was kept
    assert not served(assistant) and entry.id in assistant.standard_answer_holds(actor=HR)
