"""A new version of a document holds the standard answers it no longer supports (review rev52m defect 1).

Narrowing a policy to HR only, or replacing the clause an answer quotes (五天 → 十天), used to leave the
standard answer served: only deleting a document held the answers resting on it.
"""

from __future__ import annotations

from fakes import fake_assistant

from rag_core.types import Principal

HR, EMP = Principal("li", "hr"), Principal("zhang", "employee")
FIVE = "# 年假制度\n\n第一条 员工每年享有五天带薪年假，需提前三天申请。\n".encode()
TEN = "# 年假制度\n\n第一条 员工每年享有十天带薪年假，需提前一周申请。\n".encode()
FIVE_MORE = "# 年假制度\n\n第一条 员工每年享有五天 带薪年假，需提前三天申请。\n\n第二条 年假可以分次休。\n".encode()
QUESTION = "年假有几天"


def served(a) -> bool:
    return a.ask(QUESTION, user="", remember=False, actor=EMP).answerer == "标准答复"


def with_answer(tmp_path, clause: str = "《年假制度》第一条 员工每年享有五天带薪年假", sources=("年假制度",)):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=HR).ok
    entry = a.add_standard_answer(QUESTION, "员工每年享有五天带薪年假。", clauses=[clause], sources=list(sources), actor=HR)
    assert served(a)
    return a, entry


def test_narrowing_the_document_to_hr_holds_the_answer_served_to_everyone(tmp_path):
    a, entry = with_answer(tmp_path)
    assert a.ingest_bytes(FIVE, "年假制度.md", audience=["hr"], actor=HR).status == "indexed"
    assert not served(a)
    assert not a.search_as_chat(QUESTION, actor=EMP).standard_answer
    why = a.standard_answer_holds(actor=HR)[entry.id]
    assert "《年假制度》" in why and "可见范围" in why and "恢复使用" in why, why


def test_a_new_version_changing_the_quoted_clause_holds_the_answer(tmp_path):
    a, entry = with_answer(tmp_path)
    assert a.ingest_bytes(TEN, "年假制度.md", actor=HR).version == 2
    trace = a.ask(QUESTION, user="", remember=False, actor=EMP)
    assert trace.answerer != "标准答复" and "五天" not in trace.answer, trace.answer
    why = a.standard_answer_holds(actor=HR)[entry.id]
    assert "《年假制度》" in why and "新版本" in why and "恢复使用" in why, why


def test_a_clause_quoted_without_naming_the_document_is_checked_too(tmp_path):
    a, entry = with_answer(tmp_path, clause="第一条 员工每年享有五天带薪年假", sources=())
    assert a.ingest_bytes(TEN, "年假制度.md", actor=HR).version == 2
    assert not served(a) and entry.id in a.standard_answer_holds(actor=HR)


def test_an_unchanged_re_upload_holds_nothing(tmp_path):
    a, entry = with_answer(tmp_path)
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=HR).status == "unchanged"
    assert served(a) and a.standard_answer_holds(actor=HR) == {}


def test_a_new_version_keeping_the_clause_holds_nothing(tmp_path):
    a, entry = with_answer(tmp_path)
    assert a.ingest_bytes(FIVE_MORE, "年假制度.md", actor=HR).version == 2  # a second article, a space added
    assert served(a) and a.standard_answer_holds(actor=HR) == {}


def test_an_hr_only_answer_is_kept_when_the_document_narrows_to_hr(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=HR).ok
    a.add_standard_answer(QUESTION, "五天。", clauses=["《年假制度》第一条"], audience=["hr"], actor=HR)
    assert a.ingest_bytes(FIVE, "年假制度.md", audience=["hr"], actor=HR).status == "indexed"
    assert a.standard_answer_holds(actor=HR) == {}


def test_a_scheduled_version_holds_nothing_until_it_takes_effect(tmp_path):
    a, entry = with_answer(tmp_path)
    assert a.ingest_bytes(TEN, "年假制度.md", effective_date="2099-01-01", actor=HR).version == 2
    assert served(a) and a.standard_answer_holds(actor=HR) == {}


def test_a_hold_stored_before_holds_had_a_reason_still_reads_as_a_delete(tmp_path):
    import sqlite3

    store = tmp_path / "store"
    a, entry = with_answer(tmp_path)
    db = sqlite3.connect(str(store / "standard_answers.sqlite3"))
    db.executescript("DROP TABLE standard_holds; CREATE TABLE standard_holds (answer_id TEXT PRIMARY KEY,"
                     " doc_title TEXT NOT NULL, doc_audience TEXT NOT NULL, held_at TEXT NOT NULL);")
    db.execute("INSERT INTO standard_holds VALUES (?,?,?,?)", (entry.id, "年假制度", "all", "2026-01-05T02:00:00+00:00"))
    db.commit()
    db.close()
    again = fake_assistant(store)
    assert "删除" in again.standard_answer_holds(actor=HR)[entry.id]
    again.release_standard_answer(entry.id, actor=HR)
    assert again.ingest_bytes(TEN, "年假制度.md", actor=HR).version == 2  # a hold with its reason, in the old file
    assert "新版本" in again.standard_answer_holds(actor=HR)[entry.id]
