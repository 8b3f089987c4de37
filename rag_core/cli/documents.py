"""`ingest`, `docs list`, `docs delete`: the document library from the command line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from ..documents.bounds import IngestEstimate
from ..errors import RagError
from ..search.after_switch import interrupted_live, went_live
from ..search.disk_full import DISK_FULL, disk_full
from ..text.pii import redact_text
from ..types import IngestReport
from .beside_app import beside_app, opened_meanwhile
from .output import field, noted, os_error_text, print_json, say

Outcome = TypeVar("Outcome", IngestReport, IngestEstimate)

def register(commands) -> None:
    """Add the document commands to the main parser."""
    ingest_parser = commands.add_parser("ingest", help="导入制度文件（同名文件生成新版本）")
    ingest_parser.add_argument("files", nargs="+", metavar="文件", help="要导入的制度文件，可以一次给多个")
    ingest_parser.add_argument("--audience", action="append", default=None, help="可见范围，可重复：all（全体员工）、hr（HR）、managers（管理者）或部门标签（默认：新文档 all，新版本沿用它取代的版本的可见范围）")
    ingest_parser.add_argument("--doc-id", default=None, metavar="文档ID", help="作为哪份文档的新版本导入（默认按文件名判断）")
    ingest_parser.add_argument("--effective-date", default=None, help="生效日期 YYYY-MM-DD")
    ingest_parser.add_argument("--estimate", action="store_true", help="只估算块数和导入时间，不写入任何内容")
    ingest_parser.add_argument("--json", action="store_true", help="以 JSON 输出（供程序读取）")
    ingest_parser.set_defaults(handler=ingest)

    docs_parser = commands.add_parser("docs", help="文档列表与删除")
    docs_commands = docs_parser.add_subparsers(dest="docs_command", required=True, metavar="命令")
    list_parser = docs_commands.add_parser("list", help="列出当前生效的文档")
    list_parser.add_argument("--json", action="store_true", help="以 JSON 输出（供程序读取）")
    list_parser.set_defaults(handler=list_documents, reads_only=True)
    delete_parser = docs_commands.add_parser("delete", help="删除文档的全部版本")
    delete_parser.add_argument("doc_id", metavar="文档ID", help="要删除的文档（docs list 列出的 ID）")
    delete_parser.set_defaults(handler=delete_document)


def progress_line(stage: str, fraction: float) -> None:
    """A long ingest's stage, chunks per second and time left, rewritten in place on stderr."""
    sys.stderr.buffer.write(f"\r{fraction:4.0%} {stage}\033[K".encode())  # UTF-8 whatever the locale, as `say`
    sys.stderr.flush()


def ingest(args: argparse.Namespace, assistant) -> int:
    """Index each file as a new version of its document (or, with --estimate, only say what it would take).

    A long ingest is announced with its estimate; Ctrl-C stops it between embedding batches and
    leaves nothing half-written (files finished before it stay).
    """
    # no --audience: a new document is for 全体员工, a new version keeps its readers (the engine decides, `_ingest`);
    # --audience "" is refused by the engine, never widened
    if args.doc_id and len(args.files) > 1:  # each file would become a version of it, and only the last stay
        say(f"错误：--doc-id 只能用于导入单个文件（这次有 {len(args.files)} 个）。请逐个导入，或去掉 --doc-id 按文件名识别",
            err=True)
        return 1
    options = {"audience": args.audience, "doc_id": args.doc_id, "effective_date": args.effective_date}
    if args.estimate:
        return estimate(args, assistant, options)
    if beside_app(assistant, "上传"):
        return 1
    reports = []
    for path in args.files:
        # the ingest reuses its parsed text; a scan's pages are only counted, the ingest recognises them
        first = _each(IngestEstimate, assistant.estimate_file, path, options, assistant.shown_name)
        shown = first.ok and (first.needs_confirmation or first.ocr_pages > 0) and not args.json
        if shown:
            say(f"{first.filename}: {first.chunk_count:,} 块{scan_note(first)}，预计{first.duration}；按 Ctrl-C 可随时取消，"
                "不会留下写了一半的版本", err=True)
        try:
            progress = {"progress": progress_line if shown else None}
            reports.append(_each(IngestReport, assistant.ingest_file, path, options | progress, assistant.shown_name))
            if shown:
                progress_line("完成", 1.0)  # the engine is silent once the version is live
                say("", err=True)  # end the progress line
        except KeyboardInterrupt as exc:
            live = went_live(exc)  # the version was already live when Ctrl-C came: say so, not "nothing written"
            what = interrupted_live(*live) if live else "导入已取消，这个文件没有写入任何内容"
            if shown:
                say("", err=True)  # end the progress line
            say(f"{assistant.shown_name(Path(path).name)}: {what}" + (f"；之前的 {len(reports)} 个文件已导入" if reports else ""),
                err=True)
            return 130
    if any(report.ok and report.status == "indexed" for report in reports):
        opened_meanwhile(assistant, "上传")
    if args.json:
        print_json({"reports": [report.to_dict() for report in reports]})
    else:
        for report in reports:
            if report.ok:
                state = "已索引" if report.status == "indexed" else "内容未变"
                readers = assistant.audience_names(report.audience)  # the readers, said: a version may keep its old ones
                say(f"{report.filename}: {state} {report.doc_id} v{report.version}，{report.chunk_count} 块，可见范围：{field(readers)}")
                for warning in report.warnings:  # e.g. the same text already stored under another name
                    say(f"{report.filename}: {noted(warning)}", err=True)
            else:
                say(f"{report.error}", err=True)
    return 0 if all(report.ok for report in reports) else 1


def _each(
    kind: type[Outcome], action: Callable[..., Outcome], path: str, options: dict, shown: Callable[[str], str],
) -> Outcome:
    """`action(path, **options)`, or the file's refusal when something unforeseen stops it: one file never
    ends the run (the files after it are still tried and every file is reported). `shown` is the facade's
    `shown_name`: the refusal names the file as the engine's reports do, personal data masked."""
    name = shown(Path(path).name or str(path))  # `.` has no name: the refusal names the path as typed
    try:
        return action(path, **options)
    except RagError as exc:
        reason = str(exc)
    except UnicodeError:
        reason = "文件名里有无法识别的字符，请重命名文件（只用中文、字母和数字）后重试"
    except Exception as exc:  # noqa: BLE001 - a traceback ended the run and named nothing a person can act on
        reason = unexpected_reason(exc)
    if kind is IngestReport:
        return IngestReport(filename=name, status="refused", error=f"{name}: {reason}")
    return IngestEstimate(filename=name, error=f"{name}: {reason}")


def unexpected_reason(exc: Exception) -> str:
    """One Chinese line for an error the engine did not turn into a refusal (a full disk, a path, anything else)."""
    if disk_full(exc):
        return DISK_FULL
    if isinstance(exc, OSError):
        return os_error_text(exc)
    detail = redact_text(str(exc))[:120]  # for whoever fixes it; personal data masked like every shown text
    return (f"导入时发生意外错误（{type(exc).__name__}：{detail}），这个文件可能没有写入。"
            "请运行 python -m rag_core doctor 检查数据目录，并把这行转给系统管理员")


def scan_note(e: IngestEstimate) -> str:
    """The scanned pages an ingest will recognise, and those past the cap (the page says the same)."""
    pages = f"，另有 {e.ocr_pages} 页扫描页导入时 OCR 识别" if e.ocr_pages else ""
    return pages + (f"；{e.ocr_skipped}" if e.ocr_skipped else "")


def estimate(args: argparse.Namespace, assistant, options: dict) -> int:
    """Chunks and time per file, nothing written; exit 1 when a file would be refused."""
    estimates = [_each(IngestEstimate, assistant.estimate_file, path, options, assistant.shown_name) for path in args.files]
    if args.json:
        print_json({"estimates": [e.to_dict() for e in estimates]})
    else:
        for e in estimates:
            if e.ok:
                say(f"{e.filename}: {e.chunk_count:,} 块{scan_note(e)}，{e.duration}" + ("（内容与当前版本相同）" if e.unchanged else ""))
                if e.readers_change:  # said before anything is written, as the documents page asks
                    say(f"{e.filename}: {noted(e.readers_change)}", err=True)
            else:
                say(f"{e.error}", err=True)
    return 0 if all(e.ok for e in estimates) else 1


def list_documents(args: argparse.Namespace, assistant) -> int:
    """Each document's version in effect today, or its scheduled one (marked 待生效 with its date), and the versions
    scheduled to replace it (the documents page's ；v2 将于 D 生效)."""
    docs = assistant.list_documents()
    coming = assistant.scheduled_versions()
    later = {doc.doc_id: [v for v in coming.get(doc.doc_id, []) if v.version != doc.version] for doc in docs}
    if args.json:
        print_json({"documents": [{**doc.to_dict(), "scheduled": [v.to_dict() for v in later[doc.doc_id]]}
                                  for doc in docs]})
    elif not docs:  # an empty library said nothing, as a mistyped --data-dir does (faq list and memory list say so)
        say("（还没有文档）")
    else:
        for doc in docs:  # a scheduled document is not answering yet: said, as the documents page says it
            when = f" 待生效（{doc.effective_date}）" if doc.status == "scheduled" else ""
            when += "".join(f"；v{v.version} 将于 {v.effective_date} 生效" for v in later[doc.doc_id])
            audience = assistant.audience_names(doc.audience)  # 全体员工、HR, not the stored labels all/hr
            say(f"{field(doc.doc_id)}\tv{doc.version}{when}\t{field(audience)}\t{doc.chunk_count} 块\t{field(doc.title)}")
    return 0


def delete_document(args: argparse.Namespace, assistant) -> int:
    """Remove every version of one document, saying what went with it as the documents page does: the version
    history, the scheduled versions that will never take effect, the standard answers now held for review."""
    if beside_app(assistant, "删除"):
        return 1
    preview = assistant.delete_preview(args.doc_id)
    waiting = assistant.scheduled_versions().get(args.doc_id, [])
    removed = assistant.delete_document(args.doc_id)
    if removed:
        opened_meanwhile(assistant, "删除")
    if not removed and not assistant.document_versions(args.doc_id):
        say(f"错误：没有文档 {args.doc_id}", err=True)
        return 1
    said = f"已删除 {args.doc_id}（{removed} 块），连同版本历史"
    if waiting:
        said += "；尚未生效的 " + "、".join(f"v{v.version}（原定 {v.effective_date} 生效）" for v in waiting) + "，到期也不会再生效"
    if preview.held:
        named = "、".join(f"“{field(q)}”" for q in preview.held[:3]) + ("等" if len(preview.held) > 3 else "")
        said += f"；{len(preview.held)} 条依据它的标准答复（{named}）已暂停使用，请到“标准答复”页或用 faq 命令复核后恢复或删除"
    say(said)
    return 0
