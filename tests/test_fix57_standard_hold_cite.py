"""A standard answer citing a clause as HR commonly writes it (a shorthand title, a shortened 《》 name, the
article alone) is held when that article changes: a clause naming none of the catalog's documents rests on
every document that has the article it names. A change elsewhere, or to another document's same-numbered
article when the clause names that other document, holds nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.types import Principal

HR = Principal("li", "hr")
SAMPLES = Path(__file__).resolve().parent.parent / "data/samples"
SRC = (SAMPLES / "01_attendance_leave.md").read_text(encoding="utf-8")
OVERTIME = (SAMPLES / "02_overtime.md").read_bytes()
ANSWER = "满1年不满10年的，每年带薪年假5天。"

CITES = {
    "年假有几天": "《考勤与休假管理制度》第七条",
    "每年带薪年假多少天": "考勤制度第七条",
    "年休假一年能休多少天": "《考勤休假制度》第七条",
    "工作满一年有多少天年假": "第七条 年假天数",
    "入职满一年年假天数": "《考勤与休假管理制度》第7条",
}


@pytest.fixture()
def assistant(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(SRC.encode(), "考勤与休假管理制度.md", actor=HR).ok
    assert a.ingest_bytes(OVERTIME, "加班管理办法.md", actor=HR).ok
    return a


def test_every_common_citation_of_the_changed_article_is_held(assistant):
    ids = {q: assistant.add_standard_answer(q, ANSWER, clauses=[c], actor=HR).id for q, c in CITES.items()}
    changed = SRC.replace("每年可享受带薪年假5天", "每年可享受带薪年假7天")
    assert changed != SRC
    assert assistant.ingest_bytes(changed.encode(), "考勤与休假管理制度.md", actor=HR).ok
    holds = assistant.standard_answer_holds(actor=HR)
    assert {q for q in CITES if ids[q] not in holds} == set()


def test_a_change_to_another_article_or_document_holds_nothing(assistant):
    article_only = assistant.add_standard_answer("年假有几天", ANSWER, clauses=["第七条 年假天数"], actor=HR).id
    other_doc = assistant.add_standard_answer("工作日加班怎么补偿", "按工资的150%支付加班费。",
                                              clauses=["《加班管理办法》第七条"], actor=HR).id
    changed = SRC.replace("### 第六条 旷工\n", "### 第六条 旷工\n\n旷工一日扣三日工资。\n", 1)
    assert changed != SRC
    assert assistant.ingest_bytes(changed.encode(), "考勤与休假管理制度.md", actor=HR).ok
    holds = assistant.standard_answer_holds(actor=HR)
    assert article_only not in holds and other_doc not in holds
    changed7 = SRC.replace("每年可享受带薪年假5天", "每年可享受带薪年假7天")
    assert assistant.ingest_bytes(changed7.encode(), "考勤与休假管理制度.md", actor=HR).ok
    holds = assistant.standard_answer_holds(actor=HR)
    assert article_only in holds and other_doc not in holds  # 《加班管理办法》第七条 is that document's article


def test_another_document_narrowed_does_not_hold_an_article_only_citation(tmp_path):
    """考勤制度第七条 may be another document's 第七条: a change there holds the answer (safer than serving an old
    clause), but that document narrowed to HR, its text unchanged, does not (review 206)."""
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(SRC.encode(), "考勤与休假管理制度.md", actor=HR).ok
    assert a.ingest_bytes(OVERTIME, "加班管理办法.md", actor=HR).ok
    sid = a.add_standard_answer("年假有几天", ANSWER, clauses=["考勤制度第七条"], actor=HR).id
    assert a.ingest_bytes(OVERTIME, "加班管理办法.md", audience=["hr"], actor=HR).ok
    assert sid not in a.standard_answer_holds(actor=HR)
