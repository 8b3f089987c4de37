"""Days as the office counts them: a date filter or a per-day count uses the configured zone, rows are UTC.

A question asked at 07:30 in Beijing is stamped 23:30 UTC the day before; the pages show
local times, so a filter for that Beijing day must find it and a per-day chart count it there.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta, tzinfo

from .records import InsightError

OPEN_END = "\uffff"  # sorts after every ISO stamp
YEARS = (1900, 9998)  # a day outside has no UTC bound (9999-12-31 + 1 day, 0001-01-01 east of UTC overflow)


def parse_day(value: str | date | None, name: str) -> date | None:
    """A date given as text or `date` (Chinese error otherwise); None for none."""
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        day = value.date()
    elif isinstance(value, date):
        day = value
    else:
        try:
            day = date.fromisoformat(str(value).strip()[:10])
        except ValueError:
            raise InsightError(f"{name}日期格式应为 YYYY-MM-DD，例如 2026-03-01：{value}") from None
    if not YEARS[0] <= day.year <= YEARS[1]:
        raise InsightError(f"{name}日期应在 {YEARS[0]} 到 {YEARS[1]} 年之间：{value}")
    return day


def day_window(since: str | date | None, until: str | date | None, zone: tzinfo) -> tuple[str, str]:
    """[since, until] in whole days of `zone`, as UTC ISO bounds for comparing with stored stamps."""
    start, end = parse_day(since, "开始"), parse_day(until, "结束")

    def midnight(day: date) -> str:
        return datetime.combine(day, time(0), zone).astimezone(UTC).isoformat(timespec="seconds")

    return (midnight(start) if start else "", midnight(end + timedelta(days=1)) if end else OPEN_END)


def _in_zone(stamp: str, zone: tzinfo | None) -> datetime | None:
    """A stored ISO stamp as the office reads it (in `zone` when it carries an offset); None when it does not parse."""
    try:
        moment = datetime.fromisoformat(stamp)
    except (TypeError, ValueError):
        return None
    return moment.astimezone(zone) if zone is not None and moment.tzinfo else moment


def local_day(stamp: str, zone: tzinfo | None) -> str:
    """'YYYY-MM-DD' of a stored ISO stamp in `zone`; the stamp's own date when it has no zone or does not parse."""
    moment = _in_zone(stamp, zone)
    return str(stamp)[:10] if moment is None else moment.date().isoformat()


def local_minute(stamp: str, zone: tzinfo | None) -> str:
    """'YYYY-MM-DD HH:MM' of a stored ISO stamp in `zone` (exports); the stamp itself when it does not parse."""
    moment = _in_zone(stamp, zone)
    return stamp if moment is None else moment.strftime("%Y-%m-%d %H:%M")
