"""A scheduled version holds the standard answers it no longer supports once it takes effect (review 52n1 #1).

The hold check skipped a version dated later and nothing checked again on its day, so 五天 stayed the standard
answer after 十天 had become the policy in effect. The check is now made at upload and held from the effective day.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fakes import fake_assistant

import rag_core.documents.catalog as catalog
from rag_core.types import Principal

HR, EMP, ADMIN = Principal("li", "hr"), Principal("zhang", "employee"), Principal("wang", "admin")
FIVE = "# 年假制度\n\n第一条 员工每年享有五天带薪年假，需提前三天申请。\n".encode()
TEN = "# 年假制度\n\n第一条 员工每年享有十天带薪年假，需提前一周申请。\n".encode()
QUESTION = "年假有几天"


def served(a) -> bool:
    return a.ask(QUESTION, user="", remember=False, actor=EMP).answerer == "标准答复"


def with_answer(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=HR).ok
    entry = a.add_standard_answer(QUESTION, "员工每年享有五天带薪年假。", clauses=["《年假制度》第一条 员工每年享有五天带薪年假"],
                                  sources=["年假制度"], actor=HR)
    return a, entry


def tomorrow() -> str:
    return (catalog.office_day() + timedelta(days=1)).isoformat()


def days_later(monkeypatch, days: int) -> None:
    later = datetime.now(UTC) + timedelta(days=days)
    monkeypatch.setattr(catalog, "_utc_now", lambda: later)


def test_a_scheduled_change_holds_the_answer_from_its_day(tmp_path, monkeypatch):
    a, entry = with_answer(tmp_path)
    day = tomorrow()
    report = a.ingest_bytes(TEN, "年假制度.md", effective_date=day, actor=HR)
    assert report.version == 2
    assert any("将于" in w and "自动暂停使用" in w for w in report.warnings), report.warnings
    assert served(a) and a.standard_answer_holds(actor=HR) == {}  # until its day the version in effect says 五天
    days_later(monkeypatch, 3)
    trace = a.ask(QUESTION, user="", remember=False, actor=EMP)
    assert trace.answerer != "标准答复" and "五天" not in trace.answer, trace.answer
    why = a.standard_answer_holds(actor=HR)[entry.id]
    assert f"{day} 生效的新版本" in why and "改动或删去" in why and "恢复使用" in why, why
    a.release_standard_answer(entry.id, actor=HR)  # HR checked it: served again, and stays so
    assert served(a) and a.standard_answer_holds(actor=HR) == {}


def test_a_scheduled_narrowing_holds_the_answer_from_its_day(tmp_path, monkeypatch):
    a, entry = with_answer(tmp_path)
    assert a.ingest_bytes(FIVE, "年假制度.md", audience=["hr"], effective_date=tomorrow(), actor=HR).version == 2
    assert a.standard_answer_holds(actor=HR) == {}
    days_later(monkeypatch, 2)
    assert not served(a)
    assert "缩小了可见范围" in a.standard_answer_holds(actor=HR)[entry.id]


def test_a_scheduled_version_retired_before_its_day_holds_nothing(tmp_path, monkeypatch):
    a, entry = with_answer(tmp_path)
    assert a.ingest_bytes(TEN, "年假制度.md", effective_date=tomorrow(), actor=HR).version == 2
    again = a.ingest_bytes(FIVE + "第二条 年假可以分次休。\n".encode(), "年假制度.md", actor=HR)  # retires v2 at once
    assert again.version == 3 and [v.status for v in a.catalog.versions("年假制度")][1] == "retired"
    days_later(monkeypatch, 3)
    assert served(a) and a.standard_answer_holds(actor=HR) == {}


def test_a_deleted_document_holds_at_once_not_on_the_scheduled_day(tmp_path):
    a, entry = with_answer(tmp_path)
    assert a.ingest_bytes(TEN, "年假制度.md", effective_date=tomorrow(), actor=HR).version == 2
    a.delete_document("年假制度", actor=HR)
    assert not served(a) and "删除" in a.standard_answer_holds(actor=HR)[entry.id]


def test_re_indexing_keeps_the_hold_waiting_for_the_scheduled_copy(tmp_path, monkeypatch):
    a, entry = with_answer(tmp_path)
    assert a.ingest_bytes(TEN, "年假制度.md", effective_date=tomorrow(), actor=HR).version == 2
    a.update_settings(chunk_size=300, chunk_overlap=30, actor=ADMIN)
    assert a.reindex(actor=ADMIN).documents == 2  # v1 cut again as v3, then the scheduled v2 as v4 (v2 retired)
    assert [(v.version, v.status) for v in a.catalog.versions("年假制度")][-1] == (4, "current")
    later = (catalog.office_day() + timedelta(days=5)).isoformat()  # a later upload checks which holds still wait
    assert a.ingest_bytes(TEN, "年假制度.md", effective_date=later, actor=HR).version == 5
    assert served(a)
    days_later(monkeypatch, 1)  # v4 (十天) is in effect, v5 not yet
    assert not served(a) and entry.id in a.standard_answer_holds(actor=HR)
