"""Commands that write vectors refuse to run beside an app that has the data dir open with embedded Chroma.

Embedded Chroma keeps its index in memory per process: what a command writes (documents, standard answers) is not
seen by the running app until it restarts, and a standard answer added beside it broke every question the app was
asked (review 53 #1). Each writing command asks here first, and says what to do in one Chinese line.
"""

from __future__ import annotations

from .output import say

# the lock tells only that another process has the data dir open: the app, or another command (an ingest) still running
IN_USE = "错误：另一个进程（应用或另一条命令）正在使用这个数据目录，这次没有改动任何{what}。"
APP_RUNNING = (IN_USE + "若是另一条命令，请等它结束后重试；若是应用在运行，请在网页的{page}{verb}，"
               "或先停止应用再用命令行{verb}（运行中的应用看不到命令行写入的向量，要重启后才能检索到）")
CHECK_REFUSED = (IN_USE.format(what="向量") + "若是另一条命令，请等它结束后重试；若是应用在运行，请先停止应用再检查并修复向量"
                 "（或加 --no-repair 只检查）")

OPENED_MEANWHILE = "注意：{verb}期间应用启动了：请重启应用，它才能按语义检索到这次的改动（关键词检索已经生效）"


def beside_app(assistant, verb: str, *, page: str = "文档页", what: str = "文档") -> bool:
    """Say so and True when an app in another process has the data dir open with embedded Chroma."""
    return _refused(assistant, APP_RUNNING.format(page=page, verb=verb, what=what))


def check_beside_app(assistant) -> bool:
    """`check` (with repairs) beside another process: said, and True."""
    return _refused(assistant, CHECK_REFUSED)


def _refused(assistant, message: str) -> bool:
    if assistant.index_open_elsewhere():
        say(message, err=True)
        return True
    return False


def opened_meanwhile(assistant, verb: str) -> None:
    """Warn when an app opened the data dir while this command wrote (the check before it cannot see the future:
    an e5 ingest takes minutes), since that app's in-memory index misses what was written."""
    if assistant.index_open_elsewhere():
        say(OPENED_MEANWHILE.format(verb=verb), err=True)
