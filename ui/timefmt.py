"""Times as a person in the office reads them: local time, no ISO 'T' and no '+00:00'.

The engine stores UTC ISO-8601 strings; every page turns them into the zone in
`Settings.timezone` (Asia/Shanghai unless configured) here, so all pages agree.
"""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from ui.state import app_settings

FORMAT = "%Y-%m-%d %H:%M"
DEFAULT_ZONE = "Asia/Shanghai"


def parse_time(value: str | datetime | None) -> datetime | None:
    """An aware datetime from a stored value; naive values are UTC (how the engine writes them)."""
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        moment = value
    else:
        try:
            moment = datetime.fromisoformat(str(value).strip().replace("Z", "+00:00"))
        except ValueError:
            return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def zone() -> ZoneInfo:
    """The display zone: `RAG_TIMEZONE` (environment or `.env`), else Asia/Shanghai."""
    try:
        return ZoneInfo(app_settings().timezone)
    except Exception:  # a bad value is reported by the settings check; times still show
        return ZoneInfo(DEFAULT_ZONE)


def local_time(value: str | datetime | None, *, tz: ZoneInfo | None = None, fmt: str = FORMAT) -> str:
    """'2026-12-01 07:30' in the display zone; '' when there is no time, the text itself when unreadable."""
    moment = parse_time(value)
    if moment is None:
        return "" if value in (None, "") else str(value)
    return moment.astimezone(tz or zone()).strftime(fmt)


def relative_age(value: str | datetime | None, *, now: datetime | None = None) -> str:
    """'3 天前', '2 小时前', '刚刚' — how old a memory is, in words."""
    moment = parse_time(value)
    if moment is None:
        return ""
    seconds = max(0.0, ((now or datetime.now(UTC)) - moment).total_seconds())
    if seconds < 60:
        return "刚刚"
    if seconds < 3600:
        return f"{int(seconds // 60)} 分钟前"
    if seconds < 86400:
        return f"{int(seconds // 3600)} 小时前"
    return f"{int(seconds // 86400)} 天前"


def zone_caption() -> str:
    """A short note for tables that show times."""
    return f"时间均为 {zone().key} 本地时间。"

