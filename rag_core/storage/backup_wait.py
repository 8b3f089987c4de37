"""A backup waits for an upload to finish: the catalog and the stores that must agree with it are copied together.

An upload makes its new version current, then retires the older one, then writes the keyword index and the corpus
statistics, all under the catalog's writer lock (`Catalog.writer`). A backup copying the catalog in between restored
with two versions in effect (doctor flagged it). The backup holds the same lock while it copies the stores: it waits
for an upload at work, a bounded while, then refuses in one line instead of copying a half-written state.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ..errors import StoreBusy
from .version_check import writer_quiet

WAIT_SECONDS = 60.0  # how long a backup waits for an upload (or a re-index step) to finish
POLL_SECONDS = 0.2
WAITING = "等待导入完成…"  # what a waiting backup tells its caller once


def importing(seconds: float) -> str:
    return f"正在导入、删除或重新切分文档，等了 {seconds:g} 秒仍未完成，没有生成备份：请稍后再备份（数据目录没有改动）"


@contextmanager
def no_import(data_dir: Path, *, wait_seconds: float | None = None,
              waiting: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the data dir's catalog writer lock for the block, waiting up to `wait_seconds` (`WAIT_SECONDS` when None)
    for a writer at work; StoreBusy when it is still writing then. `waiting(WAITING)` is called once when it waits.
    No lock file yet (no upload ever ran) or no file locks on this system: nothing to wait for."""
    limit = WAIT_SECONDS if wait_seconds is None else wait_seconds
    deadline, told = time.monotonic() + limit, False
    while True:
        with writer_quiet(data_dir) as quiet:
            if quiet:
                yield
                return
        if time.monotonic() >= deadline:
            raise StoreBusy(importing(limit))
        if waiting is not None and not told:
            waiting(WAITING)
            told = True
        time.sleep(POLL_SECONDS)
