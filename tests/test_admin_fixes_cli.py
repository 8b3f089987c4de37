"""`audit --since/--until` with a time-zone offset (admin review; failed before the fix)."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from fakes import fake_assistant

from rag_core.cli.audit import _day_or_time


def test_since_and_until_with_an_offset_are_compared_in_utc(tmp_path):
    assistant = fake_assistant(tmp_path / "store")
    assistant.act_as_local_administrator()
    assistant.add_user("wang", "admin", "password123")
    at = datetime.fromisoformat(assistant.audit_entries()[0].at).astimezone(ZoneInfo("Asia/Shanghai"))
    since = _day_or_time((at - timedelta(minutes=10)).isoformat(timespec="minutes"))
    until = _day_or_time((at + timedelta(minutes=10)).isoformat(timespec="minutes"))
    assert since.endswith("+00:00")
    assert [r.action for r in assistant.audit_entries(since=since, until=until)] == ["user.add"]
    assert not assistant.audit_entries(until=_day_or_time((at - timedelta(minutes=10)).isoformat()))


def test_days_and_times_without_offset_are_kept():
    assert _day_or_time("2026-12-01") == "2026-12-01"
    assert _day_or_time("2026-12-01T08:00") == "2026-12-01T08:00:00"
