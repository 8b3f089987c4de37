"""Times as a person in the office reads them: local time, no ISO 'T' and no '+00:00'.

The engine stores UTC ISO-8601 strings; every page turns them into the zone in
`Settings.timezone` (Asia/Shanghai unless configured) here, so all pages agree.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from ui.state import app_settings, person_name

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


def today() -> date:
    """Today in the display zone (the server may run in UTC while the office is in Beijing)."""
    return datetime.now(zone()).date()


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


ZONE_NAMES = {"Asia/Shanghai": "北京时间", "Asia/Chongqing": "北京时间", "Asia/Hong_Kong": "香港时间",
              "Asia/Taipei": "台北时间", "Asia/Singapore": "新加坡时间", "Asia/Tokyo": "东京时间", "UTC": "协调世界时"}


def zone_caption() -> str:
    """A short note for tables that show times, naming the zone as people say it (北京时间)."""
    key = zone().key
    return f"时间均为本地时间（{ZONE_NAMES.get(key, key)}）。"



_STORED_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(\+00:00|Z)")


def localized(value: Any, *, tz: ZoneInfo | None = None) -> Any:
    """An export with every stored UTC time as local ISO time (2026-12-03T18:13:21+08:00): exact, and local."""
    if isinstance(value, dict):
        return {k: localized(v, tz=tz) for k, v in value.items()}
    if isinstance(value, list):
        return [localized(v, tz=tz) for v in value]
    if isinstance(value, str) and _STORED_TIME.fullmatch(value):
        moment = parse_time(value)
        return moment.astimezone(tz or zone()).isoformat() if moment else value
    return value


def export_for_people(history: dict) -> dict:
    """The JSON export as people read it: 本机用户 for the desktop user, local times (the engine stores UTC)."""
    named = {**history, "user": person_name(history.get("user", ""))}
    if "conversations" in history:  # (a memories export has none: no empty list that reads as lost, review 364)
        named["conversations"] = [{**c, "user": person_name(c["user"])} if "user" in c else c
                                  for c in history["conversations"]]
    return localized(named)
