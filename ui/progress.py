"""Progress bars where HR waits: what is happening and how far along it is.

The engine reports each file's own progress as (stage, fraction of this file); indexing
the samples on first start and re-indexing after a settings change run over many files,
so `FileSteps` turns those reports into one bar over all of them: the next file began when
the fraction goes back down (each file's reports only rise) or the very first report comes
again (every file opens with the same step, also after a file that was refused early).
The eval reports (questions done, total).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ui.inert import escape_md


class FileSteps:
    """A `progress(stage, fraction)` callback for the engine that draws one bar over `total` files in order.

    `names`, when the order is known, names the file being worked on."""

    def __init__(self, bar: Any, total: int, what: str, names: Sequence[str] = ()):
        self.bar, self.total, self.what, self.names = bar, max(1, int(total)), what, list(names)
        self.index, self.last, self.first, self.shown, self.current = 0, 0.0, None, 0.0, ""

    def __call__(self, stage: str, fraction: float) -> None:
        fraction = max(0.0, min(1.0, float(fraction)))
        began = (stage, fraction) == self.first or fraction < self.last - 1e-6  # 0.2 + 0.4 is not 0.6
        if self.first is None:
            self.first = (stage, fraction)
        elif began and self.index + 1 < self.total:  # the next file began
            self.index, self.current = self.index + 1, ""
        self.last = fraction
        name = self.current or (self.names[self.index] if self.index < len(self.names) else "")
        where = f"（第 {self.index + 1} / {self.total} 份{'：' + name if name else ''}）"
        self.shown = max(self.shown, min(1.0, (self.index + fraction) / self.total))  # a bar never goes back
        self.bar.progress(self.shown, text=escape_md(f"{self.what}{where}：{stage}"))


    def file(self, done: int, total: int, name: str) -> None:
        """The engine's own file count (ensure_samples' `on_progress`): file `done + 1` of `total` begins."""
        self.total, self.index, self.last = max(1, int(total)), min(int(done), max(0, int(total) - 1)), 0.0
        self.current = name
        self.first = None  # its first report is not a new file
        if done >= total:
            self.shown = 1.0


def question_steps(bar: Any, what: str = "正在评测"):
    """A `progress(done, total)` callback for the eval: 正在评测：第 13 / 82 题."""

    def step(done: int, total: int) -> None:
        now = min(done + 1, total)
        text = f"{what}：第 {now} / {total} 题" if done < total else f"{what}：{total} 题已完成，正在汇总"
        bar.progress(done / total if total else 1.0, text=text)

    return step
