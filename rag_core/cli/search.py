"""`search`, `ask`, `eval`, `check`: questions and the health of the indexes."""

from __future__ import annotations

import argparse

from ..answer.answer_notes import AnswerNotes
from ..types import REFUSED
from .beside_app import check_beside_app
from .output import noted, print_json, say, unreadable

MODES = ["hybrid", "bm25", "vector"]
# None, as the chat page passes: what the acting person may read. A label ("all" included) only previews it.
ROLE_HELP = "只看这个受众能看到的文档（预览，例如 all 即全体员工）；默认不限，即执行命令的人能看到的全部文档，与问答页面相同"


def register(commands) -> None:
    """Add the search commands to the main parser."""
    search_parser = commands.add_parser("search", help="检索")
    search_parser.add_argument("question", metavar="问题", help="要检索的问题，员工怎么问就怎么写")
    search_parser.add_argument("--role", default=None, help=ROLE_HELP)
    search_parser.add_argument("--top-k", type=int, default=None, help="取前几块（默认用设置里的检索条数）")
    search_parser.add_argument("--mode", choices=MODES, default="hybrid", help="检索方式：混合（默认）、只用向量或只用关键词")
    search_parser.add_argument("--json", action="store_true", help="以 JSON 输出全部结果（供程序读取）")
    search_parser.set_defaults(handler=search)

    ask_parser = commands.add_parser("ask", help="问答")
    ask_parser.add_argument("question", metavar="问题", help="要问的问题")
    ask_parser.add_argument("--role", default=None, help=ROLE_HELP)
    ask_parser.add_argument("--user", default="default", help="以哪位用户的身份提问（用到谁的记忆、记在谁的对话里），默认 default")
    ask_parser.add_argument("--conversation", default=None, help="接着这个对话问（任意编号，第一次使用时新建）")
    ask_parser.add_argument("--json", action="store_true", help="以 JSON 输出回答和全部检索过程（供程序读取）")
    ask_parser.set_defaults(handler=ask)

    eval_parser = commands.add_parser("eval", help="在评测集上量检索指标")
    eval_parser.add_argument("file", metavar="评测集文件", help="评测集文件（JSONL，每行一个问题和应命中的条款）")
    eval_parser.add_argument("--mode", choices=MODES, default="hybrid", help="检索方式：混合（默认）、只用向量或只用关键词")
    eval_parser.add_argument("--json", action="store_true", help="以 JSON 输出指标")
    eval_parser.set_defaults(handler=evaluate)

    check_parser = commands.add_parser("check", help="检查每个块能否被向量检索找到（找不到的自动重写）")
    check_parser.add_argument("--no-repair", action="store_true", help="只检查，不重写")
    check_parser.add_argument("--json", action="store_true", help="以 JSON 输出（供程序读取）")
    check_parser.set_defaults(handler=check)


EMPTY_LIBRARY = ("错误：数据目录 {where} 里还没有任何制度文件，检索和回答都只会是零命中。"
                 "请检查 --data-dir 或 RAG_DATA_DIR 是否写对，或先用 ingest 导入制度文件")


def _empty_library(assistant) -> bool:
    """Say so when the data dir holds no document at all (a mistyped --data-dir opens a new, empty one): every
    answer was 制度里没有写这一条 with exit 0 (review 349). Asked after the command ran, so a bad question, --top-k or
    question set is still refused for what it is."""
    if assistant.list_documents():
        return False
    say(EMPTY_LIBRARY.format(where=assistant.shown_text(str(assistant.settings.data_dir))), err=True)
    return True


def search(args: argparse.Namespace, assistant) -> int:
    """Chat's own search of the question, as the retrieval test page runs it (no memories), with every score.

    The question is masked, a statement about the asker is left out and HR's standard answer is named when
    chat would give it instead, so `search` never shows hits `ask` would not search for."""
    found = assistant.search_as_chat(args.question, role=args.role, with_memories=False, top_k=args.top_k, mode=args.mode)
    result = found.result
    if args.json:
        print_json({**result.to_dict(), "told_only": found.told_only, "chatter": found.chatter,
                    "standard_answer": found.standard_answer})
        searched = not (found.chatter or found.told_only or found.standard_answer)  # as the text output below
        return 1 if searched and not result.hits and _empty_library(assistant) else 0
    if found.chatter or found.told_only:
        say("这句话只是在和助手寒暄，问答不会检索制度" if found.chatter
            else "这句话只是在说自己的情况：问答会记住它，不检索制度。请换成一个问题再检索")
        return 0
    say(f"检索的问题：{found.question}")
    if found.standard_answer:
        say(f"问答会直接给出 HR 的标准答复（对应问题：{found.standard_answer.get('question', '')}），下面是制度检索本身的结果")
    say(f"命中 {result.hit_count} 块")
    for warning in result.warnings:
        say(noted(warning), err=True)
    for number, hit in enumerate(result.hits, 1):
        say(f"[{number}] {hit.chunk.source} ｜ {hit.chunk.section}  ({hit.scores.passed})\n    {hit.chunk.text.strip()[:120]}")
    return 1 if not result.hits and not found.standard_answer and _empty_library(assistant) else 0


def ask(args: argparse.Namespace, assistant) -> int:
    """A full answer: search, memories, guarded prompt, answer, write-back."""
    settings = assistant.settings
    if not settings.llm_configured and (settings.llm_base_url or settings.llm_model_id or settings.llm_api_key):
        say(f"注意：{assistant.llm_status}", err=True)  # a model half set up answers offline: said (review 388 #1)
    trace = assistant.ask(args.question, user=args.user, role=args.role, conversation=args.conversation)
    if args.json:
        print_json(trace.to_dict())
    else:
        if trace.search_question and trace.search_question != trace.question:
            say(f"（按上文理解为：{trace.search_question}）")
        notes = AnswerNotes.of(trace)  # what the chat page shows beside the answer, in the same words
        say(notes.marked(trace.answer))
        for line in notes.lines():
            say(line)
        say(f"（命中 {trace.hit_count} 块，回答方式：{AnswerNotes.answerer_of(trace)}）")
        for warning in trace.search.warnings:  # what the chat page shows above the trace: a turn not kept, …
            say(noted(warning), err=True)
    # only a question that fell through to 制度里没有写这一条: HR's standard answer or a statement answered it
    return 1 if trace.outcome == REFUSED and _empty_library(assistant) else 0


def evaluate(args: argparse.Namespace, assistant) -> int:
    """Per-category recall, MRR and zero-hit rate on a JSONL question set."""
    from ..evaluation.metrics import metrics_table

    if problem := unreadable(args.file):  # the engine's refusal carried the OS's English reason
        say(f"错误：题目集 {problem}", err=True)
        return 1
    report = assistant.run_eval(args.file, mode=args.mode)
    if args.json:
        print_json(report)
    else:
        say(metrics_table(report["metrics"]))
    return 1 if _empty_library(assistant) else 0


def check(args: argparse.Namespace, assistant) -> int:
    """Read the whole vector store back; exit 1 if a chunk stays unreachable. Repairs rewrite vectors, which an app
    running in another process would not see (embedded Chroma keeps its index in memory): refused beside one."""
    if not args.no_repair and check_beside_app(assistant):
        return 1
    report = assistant.check_vectors(repair=not args.no_repair)
    if args.json:
        print_json({"checked": report.checked, "rewritten": report.rewritten, "unreachable": report.unreachable})
    elif report.unreachable:
        say(f"已检查 {report.checked} 块，重写 {report.rewritten} 块次；仍有 {len(report.unreachable)} 块无法被向量检索找到"
            f"（只能通过关键词命中）：{'、'.join(report.unreachable[:10])}", err=True)
    else:
        say(f"已检查 {report.checked} 块，全部可被向量检索找到（重写 {report.rewritten} 块次）")
    return 1 if report.unreachable else 0
