"""`python -m rag_core audit [--since DATE] [--json]`: the append-only audit trail, newest first.

The CLI acts as the local administrator of the data dir it opens. Days and times are the office's
(`Settings.timezone`), as the 审计日志 page, `gaps` and `usage` read and show them, not UTC's.
"""

from __future__ import annotations

import argparse
from datetime import UTC, date, datetime, tzinfo

from ..documents.catalog import in_zone
from ..errors import RagError
from ..memory.created import office_zone
from ..types import ROLE_NAMES
from .output import field, print_json, say


def _day(text: str) -> date | None:
    """`text` as a date in any form `date.fromisoformat` reads (2026-12-06, 20261206, 2026-W49-7), else None: deciding
    by length made --until 20261206 that day's midnight, which dropped the whole day 2026-12-06 includes."""
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def _out_of_range(text: str) -> str:
    return f"时间超出范围：{text} 换算成 UTC 后早于公元 1 年或晚于 9999 年，请给出一个实际的日期"


def _day_or_time(text: str) -> str:
    """A bound checked as argparse reads it: a date in any ISO form (`_day`) as YYYY-MM-DD, a time with an offset turned
    into UTC, one without kept; `_bound` reads the last two in the office's zone once the settings are known."""
    if (day := _day(text)) is not None:
        return day.isoformat()
    try:
        moment = datetime.fromisoformat(text)
        return (moment.astimezone(UTC) if moment.tzinfo else moment).isoformat()
    except ValueError:
        raise argparse.ArgumentTypeError(f"日期格式应为 YYYY-MM-DD 或 ISO 8601：{text}") from None
    except OverflowError:  # 0001-01-01T00:00:00+08:00 has no UTC form (it falls before year 1)
        raise argparse.ArgumentTypeError(_out_of_range(text)) from None


def _bound(text: str | None, zone: tzinfo) -> str | date | None:
    """A checked bound as the facade takes it: a date is a whole office day (`--until` included, as in gaps and
    usage), a time without an offset is on the office clock (the times printed), one with an offset is UTC already."""
    if not text:
        return None
    if (day := _day(text)) is not None:
        return day
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is not None:
        return text
    try:
        return moment.replace(tzinfo=zone).astimezone(UTC).isoformat(timespec="seconds")
    except OverflowError:  # 0001-01-01T00:00 east of UTC falls before year 1
        raise RagError(_out_of_range(text)) from None


def _shown(stamp: str, zone: tzinfo) -> str:
    """A row's time on the office clock to the second, as the 审计日志 page shows it; the stamp when it does not parse."""
    moment = in_zone(stamp, zone)
    return stamp if moment is None else moment.strftime("%Y-%m-%d %H:%M:%S")


MAX_LIMIT = 1_000_000


def _row_limit(text: str) -> int:
    """--limit: a whole number of rows from 1 to MAX_LIMIT. 0 and -1 printed every row and a 20-digit number
    reached SQLite as a damaged-store error; leaving --limit out is how to list every row."""
    try:
        count = int(text)
    except ValueError:  # also a number too long to convert at all
        count = 0
    if not 1 <= count <= MAX_LIMIT:
        raise argparse.ArgumentTypeError(f"条数应为 1 到 {MAX_LIMIT} 之间的整数（不写 --limit 则列出全部）：{text[:40]}")
    return count


def register(commands) -> None:
    audit = commands.add_parser(
        "audit", help="审计日志：登录、上传、删除、设置、账户变更、被拒绝的操作",
        description="审计日志（只追加）。命令行以本机管理员身份执行。",
    )
    audit.add_argument("--since", type=_day_or_time, default=None,
                       help="起始日期 YYYY-MM-DD（含当天）或时间 YYYY-MM-DDTHH:MM，按办公地时区（设置中的时区）")
    audit.add_argument("--until", type=_day_or_time, default=None,
                       help="结束日期 YYYY-MM-DD（含当天）或时间 YYYY-MM-DDTHH:MM（不含），按办公地时区")
    audit.add_argument("--user", default=None, help="只看某个人的操作（本机用户、系统 也可以）")
    audit.add_argument("--action", default=None,
                       help="只看某类操作：审计日志页上的名称或代码，例如 上传文档、document.delete、refused")
    audit.add_argument("--limit", type=_row_limit, default=None, help=f"最多列出多少条（1–{MAX_LIMIT}，默认全部）")
    audit.add_argument("--json", action="store_true", help="以 JSON 输出（供程序读取）")
    audit.set_defaults(handler=show_audit, reads_only=True)


def show_audit(args: argparse.Namespace, assistant) -> int:
    zone = office_zone(assistant.settings.timezone)  # a bad value: UTC (the settings check reports it)
    rows = assistant.audit_entries(since=_bound(args.since, zone), until=_bound(args.until, zone), user=args.user,
                                   action=args.action, limit=args.limit)
    if args.json:
        print_json({"entries": [r.to_dict() for r in rows]})
        return 0
    if not rows:
        say("（没有符合条件的审计记录）")
    actions, outcomes = assistant.audit_names()  # named as the 审计日志 page names them (review 364)
    actors = assistant.audit_actor_names()
    for r in rows:
        who = f"{actors.get(r.actor, r.actor)}({ROLE_NAMES.get(r.role, r.role) if r.role else '—'})"
        shown = (field(v) for v in (_shown(r.at, zone), who, actions.get(r.action, r.action), r.target,
                                    outcomes.get(r.outcome, r.outcome), r.detail))
        say("  ".join(shown))  # each field on the record's one line: a newline in a name cannot forge a row
    return 0
