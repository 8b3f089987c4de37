"""An imported memory's creation time: a naive one is read on the office clock, a future one is refused."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..text.inputs import InputError

CLOCK_SKEW = timedelta(minutes=5)  # another machine's clock (an import's source) may run a little ahead


def office_zone(name: str | None) -> tzinfo:
    """The settings' time zone (the one the pages show times in); UTC when unset or unknown (the settings check
    reports a bad value)."""
    try:
        return ZoneInfo(name) if name else UTC
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: 'Asia' names tzdata's folder, not a zone
        return UTC


def checked_created_at(created_at: datetime | None, timezone: str | None, now: datetime) -> datetime | None:
    """An imported memory's creation time, as an aware datetime. One with no zone (2026-12-06T19:00, typed on the
    memories page or given to `memory add --created-at`) is a time on the office clock: it is read in the settings'
    time zone (`timezone`, the zone the pages show), never as UTC, which would put it hours off. One in the future
    (past `now` plus a little clock skew) is refused: freshness counts such a memory as new (1.00) until that day,
    so it would outrank everything the person says meanwhile. One with no UTC form (9999-12-31T23:00-05:00 falls
    after year 9999) is refused too: every age and freshness reads it in UTC."""
    if created_at is None:
        return None
    typed = created_at
    try:
        if created_at.tzinfo is None or created_at.utcoffset() is None:
            created_at = created_at.replace(tzinfo=office_zone(timezone))
        utc = created_at.astimezone(UTC)
    except (OverflowError, ValueError):
        raise InputError(f"记忆的创建时间 {typed.isoformat()} 超出范围：换算成 UTC 后早于公元 1 年或晚于 9999 年。"
                         "请填写一个实际的过去时间，或不填，用现在的时间") from None
    if utc > now + CLOCK_SKEW:
        raise InputError(f"记忆的创建时间 {typed.isoformat()} 晚于现在：请填写过去的时间（导入历史记忆时填它原来的时间），"
                         "或不填，用现在的时间")
    return created_at
