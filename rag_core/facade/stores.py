"""Stores one feature owns alone: damage to one turns that feature off with one line, never asking.

The insights log, the standard answers and the conversation history each live in
their own SQLite file. A garbled or truncated one must not stop a question from
being answered: `ask` catches `StoreDamaged` from these and carries on without
the feature (the line goes into the trace's warnings and the store notices); the
pages and the CLI that use the feature directly show the same line.
"""

from __future__ import annotations

import functools
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import ParamSpec, TypeVar

from ..errors import RagError, StoreDamaged, StoreUnavailable, os_reason
from ..storage.account_files import CONVERSATIONS, INSIGHTS, STANDARD
from ..storage.sqlite_access import access_problem, access_reason, busy_line, damage_reason, is_busy

INSIGHTS_FILE = INSIGHTS  # the names live with the fixes doctor gives for them (`storage.account_files`)
STANDARD_FILE = STANDARD
CONVERSATIONS_FILE = CONVERSATIONS
FEATURES: dict[str, str] = {
    INSIGHTS_FILE: "知识缺口与使用统计",
    STANDARD_FILE: "标准答复",
    CONVERSATIONS_FILE: "对话记录",
}

SWEEP_SECONDS = 3600.0  # a server runs for weeks: retention is applied again on use, at most this often


class Sweep:
    """When a store's retention is due again (monotonic clock): at the first open, then every `SWEEP_SECONDS`."""

    def __init__(self) -> None:
        self._last: float | None = None

    def due(self) -> bool:
        now = time.monotonic()
        if self._last is not None and now - self._last < SWEEP_SECONDS:
            return False
        self._last = now
        return True


P = ParamSpec("P")
R = TypeVar("R")


def damaged_line(file: str, problem: object, folder: Path | None = None) -> str:
    """The one line a person reads: which file, which feature is off, that asking still works, the fix.

    A file that could not be reached (read-only, data dir replaced by a restore, a folder in its place: `folder`, the
    data dir, tells) is said as that, not damage; one another process holds (busy, locked) is only busy: try again,
    nothing to repair."""
    if isinstance(problem, BaseException) and is_busy(problem):
        return f"{busy_line(file)}（{FEATURES[file]}暂时无法使用，提问不受影响）"
    path = None if folder is None else Path(folder) / file
    if isinstance(problem, BaseException) and (reached := access_reason(access_problem(problem, folder, path))):
        what, fix = reached
        return f"{file}（{FEATURES[file]}）{what}：这项功能暂停使用，提问不受影响。{fix}"
    reason = damage_reason(problem)  # SQLite's English goes to the log, the person reads Chinese
    return (f"{file}（{FEATURES[file]}）已损坏（{reason}）：这项功能暂停使用，提问不受影响。"
            "请运行 python -m rag_core doctor 查看修复办法")


@contextmanager
def feature_store(file: str, folder: Path | None = None) -> Iterator[None]:
    """Turn SQLite's damage errors inside the block into `StoreDamaged` naming `file` (in `folder`, the data dir)."""
    try:
        yield
    except sqlite3.DatabaseError as exc:  # "file is not a database", "database disk image is malformed"
        raise StoreDamaged(damaged_line(file, exc, folder)) from exc


def uses_store(file: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorate a facade action that reads or writes `file`, so damage reaches the caller as one line."""

    def decorate(action: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(action)
        def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
            settings = getattr(args[0], "settings", None) if args else None  # the facade's: its data dir
            with feature_store(file, getattr(settings, "data_dir", None)):
                return action(*args, **kwargs)

        return guarded

    return decorate


@contextmanager
def start_said_plainly(data_dir: Path) -> Iterator[None]:
    """A start that fails because the data dir cannot be written (a full disk, no permission, a busy file) is
    said in Chinese as that, not as SQLite's or Chroma's English line or a traceback; nothing is moved aside."""
    try:
        yield
    except RagError:
        raise
    except Exception as exc:
        problem = access_problem(exc, data_dir)
        if problem is None and isinstance(exc, OSError) and data_dir.is_file():  # --data-dir named a file
            problem = "是一个文件，不是文件夹：请用 --data-dir 或 RAG_DATA_DIR 指定一个文件夹"
        if problem is None and isinstance(exc, OSError) and exc.errno:  # the folder itself (mkdir: no permission)
            problem = (f"{exc.filename}：" if exc.filename and str(exc.filename) != str(data_dir) else "") \
                + os_reason(exc, advice=True)
        if problem is None:
            raise
        raise StoreUnavailable(f"数据目录 {data_dir} {problem}") from exc
