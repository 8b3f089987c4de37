"""What OCR boxes become: the trusted ones in reading order, the unreadable ones named for the report.

Pure logic on box coordinates (no model), so it is tested on synthetic boxes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ARTICLE = re.compile(r"^(第[0-9〇零一二三四五六七八九十百千两]+[章节条])(?=[^\s　，。、：:（(])")
_ASCII_WORD = re.compile(r"[A-Za-z]")
# A line that starts a list item or an article (1. （一） 一、 (2) 第五条 …): never the wrapped rest of a cell.
_MARKER = re.compile(r"^(?:第[0-9〇零一二三四五六七八九十百千两]+[章节条]|\d{1,3}[.．、)）]|[(（]\s*[0-9一二三四五六七八九十]{1,3}\s*[)）]"
                     r"|[一二三四五六七八九十]{1,3}[、.．]|[•·●○■□◆▪\-–—*])")
_DIGITS = re.compile(r"\d{6,17}")
_ID_TAIL = re.compile(r"\d{0,16}[\dXx]")
_CELL_WIDTH = 10  # a cell beside a wrapped one holds a few words: at most this many line heights wide
UNREADABLE = "〔无法识别〕"  # where a cell read below the bar was, so the row's other values keep their columns


@dataclass(frozen=True)
class Box:
    """One recognised text box: its extent on the image, its text and the recogniser's score."""

    top: float
    bottom: float
    left: float
    right: float
    text: str
    score: float = 1.0

    @property
    def height(self) -> float:
        return self.bottom - self.top

    @property
    def middle(self) -> float:
        return (self.top + self.bottom) / 2


@dataclass(frozen=True)
class DroppedLine:
    """A line read below the confidence bar: left out of the index, named in the report."""

    text: str
    score: float
    after: str  # the indexed line just before it ("" at the top of the page), to find it on the original


def _overlap(a: Box, b: Box) -> float:
    return min(a.bottom, b.bottom) - max(a.top, b.top)


def _stacked(upper: Box, lower: Box) -> bool:
    """`lower` sits right under `upper`, at its left edge: the next line of one column."""
    h = min(upper.height, lower.height)
    return h > 0 and abs(upper.left - lower.left) <= 0.5 * h and -0.3 * h <= lower.top - upper.bottom <= 0.8 * h


def _complete(text: str) -> bool:
    """The box already holds a whole number the masker finds (an ID, a phone…): nothing of it wrapped."""
    from ..text.pii import redact_text

    return redact_text(text) != text


def _id_halves(upper: Box, lower: Box) -> bool:
    """Two stacked digit boxes that are the two halves of one valid ID number (its check digit is the evidence)."""
    from ..text.checksums import id_card_valid

    return (_DIGITS.fullmatch(upper.text) is not None and _ID_TAIL.fullmatch(lower.text) is not None
            and len(upper.text + lower.text) == 18 and id_card_valid(upper.text + lower.text))


def _continues(upper: Box, lower: Box, others: list[Box]) -> bool:
    """`lower` is the wrapped rest of `upper`'s table cell.

    Joined only on strong evidence (else the old reading order stands): the two halves of a valid ID; or the
    same column, the next line down, and a narrow cell beside them (the row's other columns) centred across
    both lines, as a row taller than one line is, while no other box sits on one of the two lines alone (that
    would be a row of its own: a merged cell beside two rows, or a second column of text). Never a box that
    starts a list item or an article, nor two boxes of which one is already a whole ID or phone number.
    """
    if not _stacked(upper, lower):
        return False
    if _id_halves(upper, lower):
        return True
    if _MARKER.match(lower.text) or _complete(upper.text) or _complete(lower.text):
        return False
    h = min(upper.height, lower.height)
    centred = False
    for c in others:
        if c is upper or c is lower:
            continue
        on_upper, on_lower = _overlap(c, upper) > 0, _overlap(c, lower) > 0
        if on_upper != on_lower:
            return False  # a box on one of the lines alone: each line is a row of its own
        beside = c.left >= max(upper.right, lower.right) or c.right <= min(upper.left, lower.left)
        narrow = c.right - c.left <= _CELL_WIDTH * c.height
        if (beside and narrow and on_upper and on_lower
                and upper.middle + 0.25 * h < c.middle < lower.middle - 0.25 * h):
            centred = True
    return centred


def _joined(upper: Box, lower: Box) -> Box:
    wordy = _ASCII_WORD.match(upper.text[-1:]) and _ASCII_WORD.match(lower.text[:1])
    text = upper.text + (" " if wordy else "") + lower.text  # 110101199003 + 071233: one run for the masker
    return Box(upper.top, lower.bottom, min(upper.left, lower.left), max(upper.right, lower.right), text,
               min(upper.score, lower.score))


def join_wrapped_cells(boxes: list[Box]) -> list[Box]:
    """Boxes with each table cell that wrapped onto further lines joined into one box."""
    pending = sorted(boxes, key=lambda b: (b.top, b.left))
    used: set[int] = set()
    out: list[Box] = []
    for i, box in enumerate(pending):
        if i in used:
            continue
        current, line = box, box.height
        for j in range(i + 1, len(pending)):
            lower = pending[j]
            if lower.top > current.bottom + line:
                break
            if j not in used and _continues(current, lower, pending):
                current = _joined(current, lower)
                used.add(j)
        out.append(current)
    return out


def _rows(boxes: list[Box]) -> list[list[Box]]:
    """Boxes grouped into lines: a box joins a line it overlaps vertically by half; lines top to bottom."""
    lines: list[list[Box]] = []
    for box in sorted(boxes, key=lambda b: (b.top, b.bottom, b.left)):
        for line in lines:
            l_top, l_bottom = min(b.top for b in line), max(b.bottom for b in line)
            overlap = min(box.bottom, l_bottom) - max(box.top, l_top)
            if overlap > 0.5 * min(box.height, l_bottom - l_top):
                line.append(box)
                break
        else:
            lines.append([box])
    lines.sort(key=lambda line: min(b.top for b in line))
    return [sorted(line, key=lambda b: b.left) for line in lines]


def read_boxes(boxes: list[Box], min_score: float) -> tuple[list[str], list[DroppedLine]]:
    """The text lines of the boxes scored at least `min_score`, in reading order, and the rest as dropped lines."""
    kept = join_wrapped_cells([b for b in boxes if b.score >= min_score])
    low = [b for b in boxes if b.score < min_score]
    lines: list[str] = []
    dropped: list[DroppedLine] = []
    for row in _rows(kept + low):
        bad = [b for b in row if b.score < min_score]
        if bad:
            dropped.append(DroppedLine(" ".join(b.text for b in bad), min(b.score for b in bad), lines[-1] if lines else ""))
        if any(b.score >= min_score for b in row):
            texts = [b.text if b.score >= min_score else UNREADABLE for b in row]
            lines.append(ARTICLE.sub(r"\1 ", " ".join(texts)))  # OCR drops the space in "第三条 员工…"
    return lines, dropped


def dropped_note(page: int, dropped: list[DroppedLine], shown: int = 5) -> str:
    """The report's words for a page's unreadable lines (personal data in them masked)."""
    from ..text.pii import redact_text

    def clip(text: str) -> str:
        text = redact_text(text)
        return text if len(text) <= 30 else text[:30] + "…"

    parts = [
        f"「{clip(d.text)}」（置信度 {d.score:.2f}，" + (f"在「{clip(d.after)}」之后）" if d.after else "在页首）")
        for d in dropped[:shown]
    ]
    more = f"等 {len(dropped)} 行" if len(dropped) > shown else ""
    return (f"第 {page} 页有 {len(dropped)} 行识别不可靠，未编入索引，请核对原件：{'；'.join(parts)}{more}")
