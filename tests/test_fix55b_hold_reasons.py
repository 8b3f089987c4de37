"""Every reason a standard answer is held is kept (review 55b defect 1).

An answer resting on 考勤制度 and 年假制度 was held when 考勤制度 was deleted; 年假制度 then changed 五天 to 十天 while
it was held, and that second reason was dropped (one hold row per answer): HR checked the first reason, released
it, and employees got 五天 again. Now each reason is kept and shown, the upload warns, and a release made from a
page showing fewer reasons than there are is refused.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core import RagError
from rag_core.types import Principal

HR, EMP = Principal("li", "hr"), Principal("zhang", "employee")
ATTENDANCE = "# 考勤制度\n\n第三条 员工应按时打卡，迟到三次扣当月全勤奖。\n".encode()
FIVE = "# 年假制度\n\n第一条 员工每年享有五天带薪年假，需提前三天申请。\n".encode()
TEN = "# 年假制度\n\n第一条 员工每年享有十天带薪年假，需提前一周申请。\n".encode()
QUESTION = "年假有几天"


def served(a) -> bool:
    return a.ask(QUESTION, user="", remember=False, actor=EMP).answerer == "标准答复"


@pytest.fixture
def held(tmp_path):
    """The answer on both documents, held because 考勤制度 was deleted; the page's line at that moment."""
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(ATTENDANCE, "考勤制度.md", actor=HR).ok
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=HR).ok
    entry = a.add_standard_answer(QUESTION, "每年五天，提前三天申请。", actor=HR,
                                  clauses=["《考勤制度》第三条", "《年假制度》第一条 员工每年享有五天带薪年假"])
    assert served(a)
    doc = next(v.doc_id for v in a.catalog.live_versions() if v.title == "考勤制度")
    a.delete_document(doc, actor=HR)
    assert not served(a)
    first = a.standard_answer_holds(actor=HR)[entry.id]
    assert "《考勤制度》" in first and "删除" in first
    return a, entry, first


def test_fix55b_a_change_while_held_is_kept_shown_and_warned(held):
    a, entry, first = held
    report = a.ingest_bytes(TEN, "年假制度.md", actor=HR)
    assert report.version == 2
    assert any("暂停使用" in w for w in report.warnings), report.warnings
    line = a.standard_answer_holds(actor=HR)[entry.id]
    assert "《考勤制度》" in line and "删除" in line, line
    assert "《年假制度》" in line and "改动" in line, line
    assert line.count("恢复使用") == 1


def test_fix55b_release_from_a_page_showing_only_the_first_reason_is_refused(held):
    a, entry, first = held
    assert a.ingest_bytes(TEN, "年假制度.md", actor=HR).version == 2
    with pytest.raises(RagError, match="新的暂停原因") as refused:
        a.release_standard_answer(entry.id, seen=first, actor=HR)
    assert "《年假制度》" in str(refused.value)
    assert not served(a)
    a.release_standard_answer(entry.id, seen=a.standard_answer_holds(actor=HR)[entry.id], actor=HR)
    assert served(a) and a.standard_answer_holds(actor=HR) == {}


def test_fix55b_a_second_deleted_document_is_a_second_reason(held):
    a, entry, first = held
    doc = next(v.doc_id for v in a.catalog.live_versions() if v.title == "年假制度")
    a.delete_document(doc, actor=HR)
    line = a.standard_answer_holds(actor=HR)[entry.id]
    assert "《考勤制度》" in line and "《年假制度》" in line, line
    with pytest.raises(RagError, match="新的暂停原因"):
        a.release_standard_answer(entry.id, seen=first, actor=HR)


def test_fix55b_holds_of_the_one_row_per_answer_file_are_kept(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=HR).ok
    entry = a.add_standard_answer(QUESTION, "五天。", clauses=["《年假制度》第一条 员工每年享有五天带薪年假"], actor=HR)
    db = sqlite3.connect(str(tmp_path / "store" / "standard_answers.sqlite3"))
    db.executescript("DROP TABLE standard_holds; CREATE TABLE standard_holds (answer_id TEXT PRIMARY KEY,"
                     " doc_title TEXT NOT NULL, doc_audience TEXT NOT NULL, held_at TEXT NOT NULL,"
                     " reason TEXT NOT NULL DEFAULT 'deleted');")
    db.execute("INSERT INTO standard_holds VALUES (?,?,?,?,?)", (entry.id, "考勤制度", "all", "2026-01-05T02:00:00+00:00",
                                                                 "deleted"))
    db.commit()
    db.close()
    again = fake_assistant(tmp_path / "store")
    assert "《考勤制度》" in again.standard_answer_holds(actor=HR)[entry.id]
    assert again.ingest_bytes(TEN, "年假制度.md", actor=HR).version == 2
    line = again.standard_answer_holds(actor=HR)[entry.id]
    assert "《考勤制度》" in line and "《年假制度》" in line, line


def test_fix55b_the_page_refuses_a_release_when_a_reason_arrived_after_it_was_drawn(held, tmp_path, monkeypatch):
    from app_support import logged_in_with

    a, entry, first = held
    a.add_user("wang", "admin", "correct horse")
    app = str(Path(__file__).resolve().parent.parent / "app.py")
    at = logged_in_with(a, app, "wang", "correct horse", tmp_path, monkeypatch)
    at.switch_page("pages/standard_answers.py").run()
    assert not at.exception and "《考勤制度》" in "".join(w.value for w in at.warning)
    assert a.ingest_bytes(TEN, "年假制度.md", actor=HR).version == 2  # another tab, while this page is open
    next(b for b in at.button if b.label == "复核无误，恢复使用").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("新的暂停原因" in e.value for e in at.error), [e.value for e in at.error]
    assert entry.id in a.standard_answer_holds(actor=HR) and not served(a)
    next(b for b in at.button if b.label == "复核无误，恢复使用").click().run()  # now drawn with both reasons
    assert not at.exception and a.standard_answer_holds(actor=HR) == {} and served(a)
