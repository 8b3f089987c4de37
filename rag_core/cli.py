"""Command line: `python -m rag_core [--data-dir D] COMMAND ...`.

A thin shell over the `Assistant` facade; every `--json` output is UTF-8 JSON
on stdout. Exit status: 0 ok, 1 a file/setting was refused, 2 bad usage.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from .cli_io import print_json, say
from .errors import RagError


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m rag_core", description="人事制度问答助手（命令行）")
    p.add_argument("--data-dir", default=None, help="数据目录（默认 RAG_DATA_DIR，否则 data/store）")
    sub = p.add_subparsers(dest="command", required=True)

    ing = sub.add_parser("ingest", help="导入制度文件（同名文件生成新版本）")
    ing.add_argument("files", nargs="+")
    ing.add_argument("--audience", action="append", default=None, help="可见范围，可重复（默认 all）")
    ing.add_argument("--doc-id", default=None)
    ing.add_argument("--effective-date", default=None, help="生效日期 YYYY-MM-DD")
    ing.add_argument("--json", action="store_true")

    docs = sub.add_parser("docs", help="文档列表与删除")
    docs_sub = docs.add_subparsers(dest="docs_command", required=True)
    dl = docs_sub.add_parser("list")
    dl.add_argument("--json", action="store_true")
    dd = docs_sub.add_parser("delete")
    dd.add_argument("doc_id")

    for name in ("search", "ask"):
        sp = sub.add_parser(name, help="检索" if name == "search" else "问答")
        sp.add_argument("question")
        sp.add_argument("--role", default="all")
        sp.add_argument("--json", action="store_true")
        if name == "search":
            sp.add_argument("--top-k", type=int, default=None)
            sp.add_argument("--mode", choices=["hybrid", "bm25", "vector"], default="hybrid")
        else:
            sp.add_argument("--user", default="default")

    ev = sub.add_parser("eval", help="在评测集上量检索指标")
    ev.add_argument("file")
    ev.add_argument("--mode", choices=["hybrid", "bm25", "vector"], default="hybrid")
    ev.add_argument("--json", action="store_true")

    ck = sub.add_parser("check", help="检查每个块能否被向量检索找到（找不到的自动重写）")
    ck.add_argument("--no-repair", action="store_true", help="只检查，不重写")
    ck.add_argument("--json", action="store_true")

    try:
        from .cli_memory import add_memory_parser

        add_memory_parser(sub)
    except ImportError:  # memory CLI not installed in this build
        pass
    return p


def _open(args):
    from .assistant import Assistant

    return Assistant.open(data_dir=args.data_dir)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        assistant = _open(args)
        return _dispatch(args, assistant)
    except RagError as exc:
        say(f"错误：{exc}", err=True)
        return 1


def _dispatch(args, a) -> int:
    if args.command == "ingest":
        reports = [a.ingest_file(f, audience=args.audience or ["all"], doc_id=args.doc_id,
                                 effective_date=args.effective_date) for f in args.files]
        if args.json:
            print_json({"reports": [r.to_dict() for r in reports]})
        else:
            for r in reports:
                if r.ok:
                    say(f"{r.filename}: {'已索引' if r.status == 'indexed' else '内容未变'} {r.doc_id} v{r.version}，{r.chunk_count} 块")
                else:
                    say(f"{r.error}", err=True)
        return 0 if all(r.ok for r in reports) else 1
    if args.command == "docs":
        if args.docs_command == "list":
            docs = a.list_documents()
            if args.json:
                print_json({"documents": [d.to_dict() for d in docs]})
            else:
                for d in docs:
                    say(f"{d.doc_id}\tv{d.version}\t{','.join(d.audience)}\t{d.chunk_count} 块\t{d.title}")
            return 0
        removed = a.delete_document(args.doc_id)
        if not removed and not a.document_versions(args.doc_id):
            say(f"错误：没有文档 {args.doc_id}", err=True)
            return 1
        say(f"已删除 {args.doc_id}（{removed} 块）")
        return 0
    if args.command == "search":
        res = a.search(args.question, role=args.role, top_k=args.top_k, mode=args.mode)
        if args.json:
            print_json(res.to_dict())
        else:
            say(f"命中 {res.hit_count} 块")
            for i, h in enumerate(res.hits, 1):
                say(f"[{i}] {h.chunk.source} ｜ {h.chunk.section}  ({h.scores.passed})\n    {h.chunk.text.strip()[:120]}")
        return 0
    if args.command == "ask":
        trace = a.ask(args.question, user=args.user, role=args.role)
        if args.json:
            print_json(trace.to_dict())
        else:
            say(trace.answer)
            say(f"（命中 {trace.hit_count} 块，回答方式：{trace.answerer}）")
        return 0
    if args.command == "eval":
        from .evaluation import metrics_table

        report = a.run_eval(args.file, mode=args.mode)
        if args.json:
            print_json(report)
        else:
            say(metrics_table(report["metrics"]))
        return 0
    if args.command == "check":
        report = a.check_vectors(repair=not args.no_repair)
        if args.json:
            print_json({"checked": report.checked, "rewritten": report.rewritten, "unreachable": report.unreachable})
        elif report.unreachable:
            say(f"已检查 {report.checked} 块，重写 {report.rewritten} 块次；仍有 {len(report.unreachable)} 块无法被向量检索找到"
                f"（只能通过关键词命中）：{'、'.join(report.unreachable[:10])}", err=True)
        else:
            say(f"已检查 {report.checked} 块，全部可被向量检索找到（重写 {report.rewritten} 块次）")
        return 1 if report.unreachable else 0
    if args.command == "memory":
        from .cli_memory import run_memory_command

        return run_memory_command(args, a)
    return 2
