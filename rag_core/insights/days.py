"""Days as the office counts them: a date filter or a per-day count uses the configured zone, rows are UTC.

A question asked at 07:30 in Beijing is stamped 23:30 UTC the day before; the pages show
local times, so a filter for that Beijing day must find it and a per-day chart count it there.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta, tzinfo

from ..documents.catalog import in_zone, local_day
from .records import InsightError

__all__ = ["OPEN_END", "checked_instant", "day_window", "local_day", "local_minute", "parse_day"]  # local_day: owned by the catalog

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


def checked_instant(value: str | None, name: str) -> str | None:
    """An ISO date or time given as text (the CLI's form of a filter) as the UTC text rows are stamped with and
    compared as (2026-12-05T00:00:00+00:00): one with an offset is that instant in UTC (+08:00 compared as text with
    +00:00 stamps matched the wrong rows), one without is UTC already, a date is its UTC midnight. A Chinese error
    when it is not one: 'yesterday' compared as text matched no row and the trail looked empty."""
    if value is None or value == "" or value == OPEN_END:
        return value
    try:
        moment = datetime.fromisoformat(str(value).strip())
        return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC).isoformat(timespec="seconds")
    except ValueError:
        raise InsightError(f"{name}时间格式应为 YYYY-MM-DD 或 YYYY-MM-DDTHH:MM:SS：{value}") from None
    except OverflowError:  # 0001-01-01T00:00:00+08:00 falls before year 1 in UTC
        raise InsightError(f"{name}时间超出范围：{value} 换算成 UTC 后早于公元 1 年或晚于 9999 年") from None


def day_window(since: str | date | None, until: str | date | None, zone: tzinfo) -> tuple[str, str]:
    """[since, until] in whole days of `zone`, as UTC ISO bounds for comparing with stored stamps."""
    start, end = parse_day(since, "开始"), parse_day(until, "结束")
    if start and end and start > end:  # an empty window read as 'no gaps' would tell HR every question was answered
        raise InsightError(f"开始日期 {start} 晚于结束日期 {end}，请调换或重新选择")

    def midnight(day: date) -> str:
        return datetime.combine(day, time(0), zone).astimezone(UTC).isoformat(timespec="seconds")

    return (midnight(start) if start else "", midnight(end + timedelta(days=1)) if end else OPEN_END)


def local_minute(stamp: str, zone: tzinfo | None) -> str:
    """'YYYY-MM-DD HH:MM' of a stored ISO stamp in `zone` (exports); the stamp itself when it does not parse."""
    moment = in_zone(stamp, zone)
    return stamp if moment is None else moment.strftime("%Y-%m-%d %H:%M")
