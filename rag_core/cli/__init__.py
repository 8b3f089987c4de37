"""Command line: `python -m rag_core [--data-dir D] COMMAND ...`.

One function per command, registered with its sub-parser (`set_defaults(handler=...)`)
and keeping its own output formatting; `main` parses, opens the assistant and
calls the handler. Every `--json` output is UTF-8 JSON on stdout.
Exit status: 0 ok, 1 a file/setting was refused, 2 bad usage, 130 cancelled with Ctrl-C.
The CLI acts as the local administrator of the data dir it opens (no login, every right:
whoever can run it can read the files anyway); see SECURITY.md.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import logging
import os
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from ..errors import RagError
from . import audit, documents, insights, maintenance, memory, search, users
from .output import os_error_text, say

__all__ = ["build_parser", "main"]


# argparse's own messages, said in Chinese (the names and values in them stay as typed)
_USAGE_ERRORS = (
    (re.compile(r"the following arguments are required: (.+)"), r"缺少参数：\1"),
    (re.compile(r"argument (\S+): invalid choice: (\S+) \(choose from (.+)\)"), r"\1 没有 \2 这一项，可选：\3"),
    (re.compile(r"invalid choice: (\S+) \(choose from (.+)\)"), r"没有 \1 这个命令，可选：\2"),
    (re.compile(r"unrecognized arguments: (.+)"), r"不认识的参数：\1"),
    (re.compile(r"argument (\S+): expected one argument"), r"参数 \1 后面需要一个值"),
    (re.compile(r"argument (\S+): invalid int value: (.+)"), r"参数 \1 的值 \2 不是整数"),
    (re.compile(r"argument (\S+): invalid float value: (.+)"), r"参数 \1 的值 \2 不是数字"),
    (re.compile(r"argument (\S+): invalid (\w+) value: (.+)"), r"参数 \1 的值 \3 不是有效的 \2"),
    (re.compile(r"argument (\S+): (.*[\u4e00-\u9fff].*)", re.S), r"参数 \1：\2"),  # an argument type's own Chinese refusal
    (re.compile(r"ambiguous option: (\S+) could match (.+)"), r"选项 \1 不完整，可能是：\2"),
    (re.compile(r"argument (\S+): ignored explicit argument (.+)"), r"选项 \1 不带值（请去掉 =\2）"),
    (re.compile(r"argument (\S+): not allowed with argument (\S+)"), r"参数 \1 不能和 \2 同时使用"),
    (re.compile(r"argument (\S+): expected at least one argument"), r"参数 \1 后面至少需要一个值"),
    (re.compile(r"one of the arguments (.+) is required"), r"需要以下参数之一：\1"),
)
_CJK = re.compile(r"[\u4e00-\u9fff]")
# what an option's value is, by the option's name (dest), for --help and errors
_VALUE_NAMES = {
    "data_dir": "目录", "log_file": "文件", "audience": "受众", "role": "受众", "effective_date": "日期", "since": "日期",
    "until": "日期", "created_at": "时间", "top_k": "条数", "limit": "条数", "user": "用户", "conversation": "对话",
    "importance": "重要度", "query": "问题", "email": "邮箱", "action": "操作", "clause": "条款", "variant": "问法",
    "out": "文件", "doc_id": "文档ID",
}


class _ChineseHelp(argparse.HelpFormatter):
    """--help's framing in Chinese (用法, 位置参数, 选项), as everything else the CLI says (review 388 #3)."""

    def add_usage(self, usage, actions, groups, prefix=None):  # type: ignore[no-untyped-def]
        return super().add_usage(usage, actions, groups, "用法：" if prefix is None else prefix)


class ChineseArgumentParser(argparse.ArgumentParser):
    """Usage errors in one Chinese line and exit status 2, as every other refusal of the CLI is in Chinese; the help
    framed in Chinese too (sub-commands inherit the class, the formatter and the titles)."""

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        kwargs.setdefault("formatter_class", _ChineseHelp)
        kwargs.setdefault("add_help", False)
        super().__init__(*args, **kwargs)
        self._positionals.title, self._optionals.title = "位置参数", "选项"
        self.add_argument("-h", "--help", action="help", help="显示本帮助后退出")

    def add_argument(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        """An option's value named in Chinese in --help and in errors (--doc-id 文档ID, not DOC_ID: review 394 #7)."""
        action = super().add_argument(*args, **kwargs)
        if action.option_strings and action.nargs != 0 and action.metavar is None and action.choices is None:
            action.metavar = _VALUE_NAMES.get(action.dest, "值")
        return action

    def error(self, message: str):  # type: ignore[override]
        for pattern, said in _USAGE_ERRORS:
            if pattern.fullmatch(message):
                message = pattern.sub(said, message)
                break
        else:  # a message of argparse's none of the above knows: no English shown (review 392 #3)
            message = message if _CJK.search(message) else "命令行参数有误"
        self.exit(2, f"错误：{message}。用 {self.prog} --help 查看用法\n")


def build_parser() -> argparse.ArgumentParser:
    """The full parser: every command module registers its own sub-commands."""
    parser = ChineseArgumentParser(prog="python -m rag_core", description="人事制度问答助手（命令行）。命令行以本机管理员身份执行，不需要登录；见 SECURITY.md。")
    parser.add_argument("--data-dir", default=None, type=data_dir_arg, help="数据目录（默认 RAG_DATA_DIR，否则 data/store）")
    parser.add_argument("--log-file", default=None, help="把程序内部日志（英文，供排查问题）追加写入这个文件；默认不显示也不保存")
    commands = parser.add_subparsers(dest="command", required=True, metavar="命令")
    documents.register(commands)
    search.register(commands)
    memory.register(commands)
    maintenance.register(commands)
    users.register(commands)
    audit.register(commands)
    insights.register(commands)
    return parser


def data_dir_arg(value: str) -> str:
    """--data-dir as typed, refused when blank (Path("   ") made a folder named three spaces beside the working
    directory) or not UTF-8 (the vector store cannot open such a path, and took it for damage)."""
    if not value.strip():
        raise argparse.ArgumentTypeError("数据目录不能为空白，请写出数据目录的路径，或去掉 --data-dir 使用默认目录")
    try:
        value.encode("utf-8")
    except UnicodeError:  # a byte of the command line that was not UTF-8 (a lone surrogate)
        raise argparse.ArgumentTypeError(
            "数据目录的路径里有无法识别的字符（不是 UTF-8 编码），请把文件夹改名为只含中文、字母和数字后重试") from None
    return value


class _LogFile(logging.Handler):
    """The library's log records, kept off the terminal: appended to `--log-file` when one is named, else dropped.
    The terminal shows the Chinese lines `say` writes; English records beside them read as more errors."""

    def __init__(self, path: str | None) -> None:
        super().__init__()
        self.path = path
        self.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        if self.path is None:
            return
        try:
            with open(self.path, "a", encoding="utf-8", errors="replace") as log:
                log.write(self.format(record) + "\n")
        except Exception:  # noqa: BLE001 - an unwritable log file never stops a command, nor prints
            pass


@contextmanager
def _logs_off_the_terminal(path: str | None) -> Iterator[None]:
    """For one `main` call: the `rag_core` logger writes to `_LogFile` only (no propagation to the root's handlers,
    nor to Python's last-resort stderr handler); restored afterwards for a caller that goes on running."""
    log = logging.getLogger("rag_core")
    handler, propagate = _LogFile(path), log.propagate
    log.addHandler(handler)
    log.propagate = False
    try:
        yield
    finally:
        log.removeHandler(handler)
        log.propagate = propagate


def refuse_a_missing_data_dir(named: str | None) -> None:
    """A command that only reads, on a data dir named that does not exist: a typo (/srv/hr/stor) made a new empty
    store there and answered 还没有账户：桌面模式 with exit 0 (review 392 #6). The default one is left to open."""
    if not named or not named.strip():
        return
    path = os.path.abspath(os.path.expanduser(named.strip()))
    # (a path through a file is left to the open, which names that file)
    if not os.path.lexists(path) and os.path.isdir(os.path.dirname(path)):
        raise RagError(f"数据目录 {named} 不存在：请检查 --data-dir 或 RAG_DATA_DIR 的路径（只读的命令不会新建数据目录）")


def open_assistant(args: argparse.Namespace):
    """The facade on the data dir the arguments name (settings from env and `.env`)."""
    from ..assistant import Assistant

    assistant = Assistant.open(data_dir=args.data_dir)
    for line in assistant.store_notices:  # a damaged cache was set aside and is being rebuilt
        say(f"注意：{line}", err=True)
    return assistant


def main(argv: Sequence[str] | None = None, *, process_start: bool = False) -> int:
    """Parse `argv`, open the assistant and run the chosen command; returns the exit status.

    `process_start` (`python -m rag_core`): what opening builds (modules, models, dictionaries) lives as long as the
    process, so the garbage collector is off while it is built (its full passes over the growing heap were 0.1-0.3 s
    of a 2 s warm restart) and it is frozen out of later collections. Not for a caller that goes on running."""
    args = build_parser().parse_args(argv)
    with _logs_off_the_terminal(args.log_file):
        return _run(args, process_start)


def _reader_gone() -> None:
    """Point stdout at /dev/null: what is still buffered for the reader that left is dropped, not raised again
    when Python flushes at exit. Not for a captured stdout (no file descriptor)."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _run(args: argparse.Namespace, process_start: bool) -> int:
    """`main` once the arguments are parsed: the command, its refusals said in one Chinese line."""
    try:
        if getattr(args, "without_store", False):  # backup, restore, doctor: work on a store that cannot open
            return args.handler(args, None)
        if getattr(args, "reads_only", False):
            refuse_a_missing_data_dir(args.data_dir or os.environ.get("RAG_DATA_DIR"))
        if process_start:
            gc.disable()
        try:
            assistant = open_assistant(args)
        finally:
            if process_start:
                gc.freeze()
                gc.enable()
        assistant.act_as_local_administrator()
        return args.handler(args, assistant)
    except RagError as exc:
        say(f"错误：{exc}", err=True)
        return 1
    except UnicodeError:  # a lone surrogate: bytes of the command line that were not UTF-8
        say("错误：参数里有无法识别的字符（可能是终端编码不是 UTF-8），请删去乱码后重试", err=True)
        return 1
    except BrokenPipeError:  # the reader went away (doctor | head -1): no error line, 141 as a shell reports SIGPIPE
        _reader_gone()
        return 141
    except OSError as exc:  # a file or folder the arguments name could not be read or written
        say(f"错误：{os_error_text(exc)}", err=True)
        return 1
    except KeyboardInterrupt:  # Ctrl-C: one line instead of a traceback; 130 as a shell reports SIGINT
        say(f"已取消（按下了 Ctrl-C），{args.command} 命令没有做完", err=True)
        return 130
