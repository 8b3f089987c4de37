"""Review 61 D6: an audit bound given as text with an offset (+08:00) means that instant: it was compared as text
with the trail's +00:00 stamps and matched the wrong rows. Also T1: test_fix58's dislike is stamped days before
now, so the 180-day question retention cannot delete it once the calendar passes a fixed date."""

from __future__ import annotations

import datetime as dt

import pytest
from fakes import fake_assistant

import rag_core.accounts.audit as audit_module
from rag_core.errors import RagError
from rag_core.insights.days import OPEN_END, checked_instant
from rag_core.types import Principal

LOCAL = Principal(user="local", role="admin")
POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n".encode()
MOMENT = dt.datetime(2026, 12, 5, 3, 0, tzinfo=dt.UTC)  # 11:00 in Beijing


class _At(dt.datetime):
    @classmethod
    def now(cls, tz=None):
        return MOMENT


def test_a_bound_with_an_offset_is_the_same_instant_in_utc(tmp_path, monkeypatch):
    monkeypatch.setattr(audit_module, "datetime", _At)
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(POLICY, "leave.md", actor=LOCAL).ok
    for before, after in (("2026-12-05T10:59:00+08:00", "2026-12-05T11:01:00+08:00"),
                          ("2026-12-04T21:59:00-05:00", "2026-12-04T22:01:00-05:00")):
        assert [e.action for e in a.audit_entries(since=before, until=after, actor=LOCAL)] == ["document.upload"]
        assert a.audit_entries(since=after, actor=LOCAL) == [] and a.audit_entries(until=before, actor=LOCAL) == []


def test_checked_instant_gives_the_utc_text_rows_are_stamped_with():
    assert checked_instant("2026-12-05T08:00:00+08:00", "开始") == "2026-12-05T00:00:00+00:00"
    assert checked_instant("2026-12-05T08:00", "开始") == "2026-12-05T08:00:00+00:00"  # none: UTC
    assert checked_instant("2026-12-05", "开始") == "2026-12-05T00:00:00+00:00"
    assert checked_instant("2026-12-05T08:00:00Z", "开始") == "2026-12-05T08:00:00+00:00"
    assert [checked_instant(v, "开始") for v in (None, "", OPEN_END)] == [None, "", OPEN_END]


@pytest.mark.parametrize("text", ["yesterday", "0001-01-01T00:00:00+08:00", "9999-12-31T23:59:59-08:00"])
def test_a_bound_that_is_no_utc_time_is_a_chinese_error(text):
    with pytest.raises(RagError, match="时间"):
        checked_instant(text, "开始")


def test_fix58s_dislike_outlives_a_fixed_date(tmp_path, monkeypatch):
    import test_fix58_insights_review as fix58

    import rag_core.documents.catalog as catalog_module
    import rag_core.facade.question_log as insights_module

    later = dt.datetime(2027, 5, 15, 4, 0, tzinfo=dt.UTC)  # past 2026-11-01 + 180 days
    monkeypatch.setattr(insights_module, "_now", lambda: later)
    monkeypatch.setattr(catalog_module, "_utc_now", lambda: later)
    fix58.test_adding_a_reason_keeps_the_time_the_dislike_was_given(tmp_path)
