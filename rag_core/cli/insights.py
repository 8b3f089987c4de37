"""`python -m rag_core gaps | faq … | usage | insights-export`: the HR team's loop from the command line.

Talks only to the facade (knowledge_gaps, add/list/delete/release standard answers, usage,
export_insights). `--json` prints UTF-8 JSON; messages are Chinese; dates are the office's days
(`Settings.timezone`), as the pages show them, not UTC's.
"""

from __future__ import annotations

import argparse
import csv
import io
from datetime import tzinfo
from pathlib import Path

from ..documents.catalog import local_day
from ..errors import RagError
from ..memory.created import office_zone
from .beside_app import beside_app
from .out_file import checked_destination, write_replacing
from .output import field, print_json, say


def _day_arg(name: str):
    """--since/--until checked as argparse reads them, by the engine's own rule: a bad date exits 2 with its
    sentence, as `audit` does (it exited 1 from here: review 392 #7)."""
    def check(text: str) -> str:
        from ..assistant import Assistant  # here: the facade's imports stay out of --help

        try:
            Assistant.checked_day(text, name)
        except RagError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        return text
    return check


def register(commands) -> None:
    """Add `gaps`, `faq`, `usage` and `insights-export` to the main parser."""
    gaps = commands.add_parser("gaps", help="知识缺口：没有命中、制度里没有写、被点踩的问题，按意思分组")
    gaps.add_argument("--since", type=_day_arg("开始"), default=None, help="开始日期 YYYY-MM-DD")
    gaps.add_argument("--until", type=_day_arg("结束"), default=None, help="结束日期 YYYY-MM-DD（含当天）")
    gaps.add_argument("--weak", action="store_true", help="也列出依据较弱的回答")
    gaps.add_argument("--include-tests", action="store_true", help="也算上评测和检索测试的提问（默认只算员工的提问）")
    gaps.add_argument("--json", action="store_true", help="以 JSON 输出（供程序读取）")
    gaps.set_defaults(handler=show_gaps, reads_only=True)

    faq = commands.add_parser("faq", help="标准答复：添加、列出、删除、复核后恢复使用")
    sub = faq.add_subparsers(dest="faq_command", required=True, metavar="命令")
    add = sub.add_parser("add", help="为一个问题添加标准答复")
    add.add_argument("question", metavar="问题", help="员工会怎么问（标准问法）")
    add.add_argument("--answer", required=True, metavar="答复", help="标准答复的正文")
    add.add_argument("--clause", action="append", default=[], help="依据的条款（可多次）")
    add.add_argument("--variant", action="append", default=[], help="同一问题的其他问法（可多次）")
    add.add_argument("--audience", action="append", default=None, metavar="受众",
                     help="谁问时用这条答复：受众标签，可重复（不写时为 all，即全员；写了空标签会被拒绝）")
    add.add_argument("--json", action="store_true", help="以 JSON 输出（供程序读取）")
    add.set_defaults(handler=add_faq)
    lst = sub.add_parser("list", help="列出标准答复及命中次数")
    lst.add_argument("--json", action="store_true", help="以 JSON 输出（供程序读取）")
    lst.set_defaults(handler=list_faq, reads_only=True)
    delete = sub.add_parser("delete", help="删除一条标准答复")
    delete.add_argument("id", metavar="编号", help="要删除的标准答复（faq list 列出的 ID）")
    delete.set_defaults(handler=delete_faq)
    release = sub.add_parser("release", help="复核无误，恢复使用一条暂停（待复核）的标准答复")
    release.add_argument("id", metavar="编号", help="核对过、可以恢复使用的标准答复（faq list 里标【待复核】的 ID）")
    release.set_defaults(handler=release_faq)

    usage = commands.add_parser("usage", help="使用情况：各文档被引用次数、从未被引用的文档、每日提问数")
    usage.add_argument("--since", type=_day_arg("开始"), default=None, help="开始日期 YYYY-MM-DD")
    usage.add_argument("--until", type=_day_arg("结束"), default=None, help="结束日期 YYYY-MM-DD（含当天）")
    usage.add_argument("--include-tests", action="store_true", help="也算上评测和检索测试的提问（默认只算员工的提问）")
    usage.add_argument("--json", action="store_true", help="以 JSON 输出（供程序读取）")
    usage.set_defaults(handler=show_usage, reads_only=True)

    export = commands.add_parser("insights-export", help="导出知识缺口、反馈或使用情况（CSV 或 Excel）")
    export.add_argument("kind", choices=("gaps", "feedback", "usage"), metavar="类型", help="导出哪一种：gaps 知识缺口，feedback 反馈，usage 使用情况")
    export.add_argument("--format", choices=("csv", "xlsx"), default=None,
                        help="csv 或 xlsx（默认按 --out 的扩展名，其他扩展名用 xlsx）")
    export.add_argument("--out", required=True, help="输出文件路径（须在数据目录之外）")
    export.add_argument("--force", action="store_true", help="文件已存在时替换它（默认不覆盖，报错退出）")
    export.add_argument("--since", type=_day_arg("开始"), default=None, help="开始日期 YYYY-MM-DD（使用情况导出三张表，CSV 中每张表以【表名】开头）")
    export.add_argument("--until", type=_day_arg("结束"), default=None, help="结束日期 YYYY-MM-DD（含当天）")
    export.add_argument("--include-tests", action="store_true", help="也算上评测和检索测试的提问（默认只算员工的提问）")
    export.add_argument("--weak", action="store_true", help="知识缺口：也导出依据较弱的回答（同 gaps --weak）")
    export.add_argument("--rating", choices=tuple(RATINGS), default=None, help="反馈：只导出 up（👍）或 down（👎）")
    export.add_argument("--doc-id", default=None, help="反馈：只导出引用了这份文档的回答")
    export.add_argument("--unread", action="store_true", help="反馈：只导出未读的")
    export.set_defaults(handler=export_insights)


RATINGS = {"up": 1, "down": -1}
_FILTERS = {"--weak": ("weak", "gaps"), "--rating": ("rating", "feedback"), "--doc-id": ("doc_id", "feedback"),
            "--unread": ("unread", "feedback")}


def show_gaps(args: argparse.Namespace, assistant) -> int:
    groups = assistant.knowledge_gaps(since=args.since, until=args.until, include_weak=args.weak,
                                      include_tests=args.include_tests)
    waiting = assistant.regrouping_gap_questions()  # after a model change, embedded again in bounded steps
    if args.json:
        print_json({"groups": [g.to_dict() for g in groups], "regrouping": waiting})
        return 0
    if waiting:
        say(f"还有 {waiting:,} 条较早的提问正在按新的嵌入模型重新归组，暂未列出；再运行一次会继续。")
    if not groups and not waiting:
        say("没有知识缺口：所选时间内的问题都有制度可答。")
    zone = _office_zone(assistant)  # the office's days, as the filter read --since/--until
    for g in groups:
        near = g.nearest.get("title", "") + " " + g.nearest.get("section", "") if g.nearest else "（无）"
        say(f"{g.count} 次  {field(g.representative)}  （{local_day(g.first_seen, zone)} – {local_day(g.last_seen, zone)}；"
            f"最近的条款：{field(near.strip())}）")
        for q in g.questions:
            say(f"    · {field(q)}")
    return 0


FAQ_PAGE = {"page": "标准答复页", "what": "标准答复"}


def add_faq(args: argparse.Namespace, assistant) -> int:
    """Refused beside a running app: its in-memory index of the wordings would break (review 53 #1)."""
    if beside_app(assistant, "添加", **FAQ_PAGE):
        return 1
    entry = assistant.add_standard_answer(args.question, args.answer, clauses=args.clause, variants=args.variant,
                                          audience=args.audience)  # None: everyone; blank: refused
    advice = assistant.standard_answer_advice(args.clause or [], entry.answer)  # what the 标准答复 page says too
    if args.json:
        print_json({**entry.to_dict(), "advice": advice})
    else:
        say(f"已添加标准答复 {entry.id}：{entry.question}")
        if advice:
            say(advice, err=True)
    return 0


def _office_zone(assistant) -> tzinfo:
    """The office's time zone (a bad setting is reported by the settings check; UTC meanwhile)."""
    return office_zone(assistant.settings.timezone)


def list_faq(args: argparse.Namespace, assistant) -> int:
    """Each entry with its hits; a held one (not served: a document it rests on was deleted) is marked
    【待复核】 with the facade's line saying why and what to do (`faq release` or `faq delete`)."""
    entries = assistant.standard_answers()
    holds = assistant.standard_answer_holds()
    if args.json:
        print_json({"standard_answers": [{**e.to_dict(), "held": holds.get(e.id)} for e in entries]})
        return 0
    if not entries:
        say("还没有标准答复。")
    zone, names = _office_zone(assistant), assistant.audit_actor_names()  # local → 本机用户, as the page says
    for e in entries:
        mark = "【待复核】" if e.id in holds else ""
        say(f"{mark}{field(e.id)}  命中 {e.hits} 次  受众 {field(assistant.audience_names(tuple(e.audience)))}  {field(e.question)}  —— "
            f"{field(names.get(e.author, e.author))} {local_day(e.created_at, zone)}")
        if e.id in holds:
            say(f"    {field(holds[e.id])}（恢复：faq release {field(e.id)}）")
    return 0


def delete_faq(args: argparse.Namespace, assistant) -> int:
    if beside_app(assistant, "删除", **FAQ_PAGE):
        return 1
    assistant.delete_standard_answer(args.id)
    say(f"已删除标准答复 {args.id}")
    return 0


def release_faq(args: argparse.Namespace, assistant) -> int:
    """HR checked a held entry and it still holds: served again (the facade checks who acts, as on the page)."""
    if beside_app(assistant, "恢复使用", **FAQ_PAGE):
        return 1
    if args.id in assistant.standard_answer_holds():
        assistant.release_standard_answer(args.id)
        say(f"已恢复使用标准答复 {args.id}")
        return 0
    if args.id not in {e.id for e in assistant.standard_answers()}:
        assistant.release_standard_answer(args.id)  # unknown or another audience's: the facade's refusal
    say(f"标准答复 {args.id} 没有暂停使用，无需恢复")
    return 0


def show_usage(args: argparse.Namespace, assistant) -> int:
    """The 使用情况 page in lines: the questions and what became of them, per day, and each document's citations."""
    report = assistant.usage(since=args.since, until=args.until, include_tests=args.include_tests)
    if args.json:
        print_json(report)
        return 0
    windowed = report.get("window") is not None  # then every count is the window's, not the days before today
    window = "所选时间内" if windowed else "保留期内"
    left_out = f"（另有 {report['left_out']} 个评测和检索测试的提问未计入）" if report.get("left_out") else ""
    say(f"{window}共 {report['questions']} 个提问{left_out}")
    if report.get("outcome_rows"):  # in the usage page's order and words (`insights.usage.USAGE_OUTCOMES`)
        say("其中：" + "，".join(f"{field(row['label'])} {row['questions']}" for row in report["outcome_rows"]))
    if report.get("per_day") and report["questions"]:
        say("每日提问数：")
        for row in report["per_day"]:
            say(f"  {row['day']}  {row['questions']:>4}")
    if report["documents"]:
        say("各文档被引用次数：")
    for row in report["documents"]:
        if windowed:
            say(f"{row['cited_window']:>4}  {field(row['title'])}（所选时间内被引用）")
        else:
            say(f"{row['cited_30d']:>4} / {row['cited_90d']:>4}  {field(row['title'])}（近30天 / 近90天被引用）")
    if not report.get("recording", True):
        say("提问记录已关闭（提问记录保留天数为 0）：不记录员工的提问，无法判断哪些文档从未被引用")
    elif not report["questions"]:
        say(f"{window}没有记录到提问：无法判断哪些文档{'在所选时间内未' if windowed else '从未'}被引用")
    elif report["never_cited"]:
        say(("所选时间内未被引用：" if windowed else "从未被引用：") + "、".join(field(d["title"]) for d in report["never_cited"]))
    return 0


def export_insights(args: argparse.Namespace, assistant) -> int:
    """Refuses a destination in the data dir and, without --force, an existing file before building the export."""
    if wrong := [flag for flag, (name, kind) in _FILTERS.items() if getattr(args, name) and kind != args.kind]:
        say(f"错误：{'、'.join(wrong)} 只用于导出 {_FILTERS[wrong[0]][1]}，不用于 {args.kind}", err=True)
        return 2
    suffix = Path(args.out).suffix.lower().lstrip(".")
    if args.format and suffix in ("csv", "xlsx") and suffix != args.format:  # Excel refuses the file (review 364)
        say(f"错误：文件扩展名 .{suffix} 与 --format {args.format} 不一致；请改扩展名或 --format", err=True)
        return 2
    args.format = args.format or (suffix if suffix in ("csv", "xlsx") else "xlsx")
    target = checked_destination(args.out, assistant.settings.data_dir, force=args.force)
    data = assistant.export_insights(args.kind, args.format, since=args.since, until=args.until,
                                     include_tests=args.include_tests, include_weak=args.weak,
                                     rating=RATINGS.get(args.rating or ""), doc_id=args.doc_id, unread_only=args.unread)
    write_replacing(target, data)
    empty = "；没有数据，只写了表头" if args.kind != "usage" and not _has_rows(data, args.format) else ""
    say(f"已导出到 {args.out}（{len(data)} 字节{empty}）")
    return 0


def _has_rows(data: bytes, fmt: str) -> bool:
    """Whether a one-table export holds a row below its header."""
    if fmt == "csv":
        return len([row for row in csv.reader(io.StringIO(data.decode("utf-8-sig"))) if row]) > 1
    from openpyxl import load_workbook

    book = load_workbook(io.BytesIO(data), read_only=True)
    return any(sheet.max_row and sheet.max_row > 1 for sheet in book.worksheets)
