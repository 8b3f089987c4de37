"""What undoing a statement turn did: how many memories it took back, and how many of them stay as told before.

A restatement (我是销售部的 said a second time) only strengthened facts told earlier: undoing it takes the
strengthening back and keeps those facts. The page must then not say they were deleted, so the count it reads
carries how many were kept.
"""

from __future__ import annotations

UNDONE_NOTE = "（已撤销：上面这些信息已删除，没有保存。）"  # the answer's note when nothing told before stays


class Undone(int):
    """The memories an undo took back (an int, as callers have always read it), with `kept_before`: how many of
    them were told before this turn and stay stored (only this turn's strengthening was undone)."""

    kept_before: int
    edited: int  # kept because the person changed them on the memories page after the turn
    told_later: int  # kept because a later turn told them again (我老婆怀孕7个月了 after 我老婆怀孕了)

    def __new__(cls, taken_back: int, kept_before: int = 0, edited: int = 0, told_later: int = 0) -> Undone:
        undone = super().__new__(cls, taken_back)
        undone.kept_before, undone.edited, undone.told_later = kept_before, edited, told_later
        return undone

    @property
    def deleted(self) -> int:
        """The facts this turn was the first to tell, now gone."""
        return max(0, int(self) - self.kept_before - self.edited - self.told_later)


def undone_note(kept_before: int, edited: int = 0, told_later: int = 0) -> str:
    """The note written under the turn's answer (shown after a refresh, exported). `edited`: facts the person
    changed on the memories page after the turn, kept as they edited them (review 209: called told before);
    `told_later`: facts a later turn told again, kept as that turn left them (review 219: called told before)."""
    if not kept_before and not edited and not told_later:
        return UNDONE_NOTE
    counts = ((kept_before, "条以前就记住了，保留以前的记录"), (edited, "条在撤销前已由您手动修改过，按修改后的内容保留"),
              (told_later, "条您后来又说过，按后来的说法保留"))
    parts = [f"{n} {said}" for n, said in counts if n]
    return f"（已撤销：这次说的没有保存；其中 {'；'.join(parts)}，可在“记忆管理”页删除。）"
