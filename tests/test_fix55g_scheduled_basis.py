"""A standard answer's basis is the version in effect, and each scheduled one to come (review 55g #1).

A scheduled version's day retires nothing in the catalog: the version it replaced stays live. The add and release
checks read every live version, so the replaced 全体员工 copy excused an answer for all quoting the managers-only
version in effect, and a 全体员工 version still to come excused one resting on the managers-only version in effect.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from fakes import fake_assistant

import rag_core.documents.catalog as catalog
from rag_core import RagError
from rag_core.types import Principal

HR, EMP = Principal("li", "hr"), Principal("zhang", "employee")
BONUS = "# 年终奖制度\n\n第三条 年终奖按个人绩效与部门系数核定，于次年一月发放。\n".encode()
QUESTION = "年终奖怎么发"


def days_later(monkeypatch, days: int) -> None:
    later = datetime.now(UTC) + timedelta(days=days)
    monkeypatch.setattr(catalog, "_utc_now", lambda: later)


ADMIN = Principal("wang", "admin")


def in_days(days: int) -> str:
    return (catalog.office_day() + timedelta(days=days)).isoformat()


def test_fix55g_an_answer_for_all_on_a_version_narrowed_on_its_day_is_refused(tmp_path, monkeypatch):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(BONUS, "年终奖制度.md", actor=HR).ok
    assert a.ingest_bytes(BONUS, "年终奖制度.md", audience=["managers"], effective_date=in_days(5),
                          actor=Principal("wang", "admin")).version == 2
    days_later(monkeypatch, 6)  # v2 (管理者 only) is in effect; v1 stays 'current' in the catalog
    with pytest.raises(RagError, match="有些读者看不到"):
        a.add_standard_answer(QUESTION, "按绩效发。", clauses=["《年终奖制度》第三条"], audience=["all"], actor=HR)
    assert a.ask(QUESTION, user="", remember=False, actor=EMP).answerer != "标准答复"


def test_fix55g_releasing_an_answer_naming_a_narrowed_version_in_clauses_is_refused(tmp_path, monkeypatch):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(BONUS, "年终奖制度.md", actor=HR).ok
    entry = a.add_standard_answer(QUESTION, "按绩效发。", clauses=["《年终奖制度》第三条"], actor=HR)
    assert a.ingest_bytes(BONUS, "年终奖制度.md", audience=["managers"], effective_date=in_days(5),
                          actor=Principal("wang", "admin")).version == 2
    days_later(monkeypatch, 6)
    # held for a version HR cannot read: not HR's to see or release since review 333; an administrator's
    assert entry.id not in a.standard_answer_holds(actor=HR) and entry.id in a.standard_answer_holds(actor=ADMIN)
    with pytest.raises(RagError, match=f"没有编号为 {entry.id} 的标准答复"):
        a.release_standard_answer(entry.id, actor=HR)
    with pytest.raises(RagError, match="《年终奖制度》"):
        a.release_standard_answer(entry.id, actor=ADMIN)
    assert a.ask(QUESTION, user="", remember=False, actor=EMP).answerer != "标准答复"


def test_fix55g_a_widening_still_to_come_does_not_excuse_the_narrow_version_in_effect(tmp_path):
    a = fake_assistant(tmp_path / "store")
    admin = Principal("wang", "admin")
    assert a.ingest_bytes(BONUS, "年终奖制度.md", audience=["managers"], actor=admin).ok
    assert a.ingest_bytes(BONUS, "年终奖制度.md", effective_date=in_days(30), actor=admin).version == 2
    with pytest.raises(RagError, match="《年终奖制度》（只给管理者看）"):
        a.add_standard_answer(QUESTION, "按绩效发。", clauses=["《年终奖制度》第三条"], audience=["all"], actor=admin)


def test_fix55g_a_narrowing_still_to_come_refuses_the_answer_naming_its_day(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(BONUS, "年终奖制度.md", actor=HR).ok
    assert a.ingest_bytes(BONUS, "年终奖制度.md", audience=["hr"], effective_date=in_days(5), actor=HR).version == 2
    with pytest.raises(RagError, match=f"《年终奖制度》（{in_days(5)} 起只给HR看）"):
        a.add_standard_answer(QUESTION, "按绩效发。", clauses=["《年终奖制度》第三条"], audience=["all"], actor=HR)
    a.add_standard_answer(QUESTION, "按绩效发。", clauses=["《年终奖制度》第三条"], audience=["hr"], actor=HR)


def test_fix55g_deleting_a_copy_replaced_on_its_day_keeps_nothing_served(tmp_path, monkeypatch):
    a = fake_assistant(tmp_path / "store")
    admin = Principal("wang", "admin")
    assert a.ingest_bytes(BONUS, "年终奖制度.md", actor=HR).ok
    copy = BONUS.replace("一月".encode(), "1月".encode())
    assert a.ingest_bytes(copy, "年终奖制度-副本.md", actor=HR).ok
    entry = a.add_standard_answer(QUESTION, "按绩效发。", clauses=["《年终奖制度》第三条"], actor=HR)
    assert a.ingest_bytes(copy, "年终奖制度-副本.md", audience=["managers"], effective_date=in_days(5),
                          actor=admin).version == 2
    days_later(monkeypatch, 6)  # the copy is managers-only now: it no longer keeps the answer for all
    docs = {v.doc_id for v in a.catalog.live_versions()}
    original = next(d for d in docs if "副本" not in d)
    a.delete_document(original, actor=HR)
    assert re.search(r"已于 \S+ 删除", a.standard_answer_holds(actor=admin)[entry.id])  # held for the delete too
