"""What OCR boxes become: the trusted ones in reading order, the unreadable ones named for the report.

Pure logic on box coordinates (no model), so it is tested on synthetic boxes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ARTICLE = re.compile(r"^(第[0-9〇零一二三四五六七八九十百千两]+[章节条])(?=[^\s　，。、：:（(])")
_NUMBER_HEAD = re.compile(r"\d+")
_NUMBER_TAIL = re.compile(r"\d*[\dXx]")
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


def _stacked(upper: Box, lower: Box) -> bool:
    """`lower` sits right under `upper`, lined up with it at its left edge, its centre or its right edge (a cell's
    text may be left-aligned, centred or right-aligned: review 353's centred roster) and no wider: the next line of
    one column."""
    h = min(upper.height, lower.height)
    if not (h > 0 and -0.3 * h <= lower.top - upper.bottom <= 0.8 * h):
        return False
    within = lower.left >= upper.left - 0.5 * h and lower.right <= upper.right + 0.5 * h
    centre = abs((upper.left + upper.right) / 2 - (lower.left + lower.right) / 2) <= 0.5 * h
    return abs(upper.left - lower.left) <= 0.5 * h or within and (centre or abs(upper.right - lower.right) <= 0.5 * h)


def _one_number(upper: str, lower: str) -> bool:
    """Two digit runs that are the halves of one valid ID or bank card number: its check digit is the evidence. A
    mobile number has none: 150000 over 30000 in a salary column has its shape (review 354), so it is never joined.

    A wrap fills the first line, so the upper half is never the shorter one. A card (16-19 digits) needs an issuer
    prefix (3-6 or 9) and its Luhn digit, as `pii` asks of a card cut in two.
    """
    from ..text.checksums import id_card_valid, luhn_valid

    if not (_NUMBER_HEAD.fullmatch(upper) and _NUMBER_TAIL.fullmatch(lower)) or len(upper) < len(lower):
        return False
    number = upper + lower
    return id_card_valid(number) or (16 <= len(number) <= 19 and number[0] in "34569" and luhn_valid(number))


def join_wrapped_cells(boxes: list[Box]) -> list[Box]:
    """Boxes with a number that wrapped onto the next line of its table cell joined into one box.

    Joined only when the two stacked boxes of one column are the halves of a valid ID or bank card number (so the
    masker sees it whole). Wrapped words are left in plain line order: where the boxes beside them stand says
    nothing sure about rows (a merged cell beside two rows, a stamp beside a list, a photo beside form fields).
    """
    pending = sorted(boxes, key=lambda b: (b.top, b.left))
    used: set[int] = set()
    out: list[Box] = []
    for i, box in enumerate(pending):
        if i in used:
            continue
        current = box
        for j in range(i + 1, len(pending)):
            lower = pending[j]
            if lower.top > current.bottom + current.height:
                break
            if j not in used and _stacked(current, lower) and _one_number(current.text, lower.text):
                current = Box(current.top, lower.bottom, min(current.left, lower.left), max(current.right, lower.right),
                              current.text + lower.text, min(current.score, lower.score))
                used.add(j)
                break  # one number, two halves
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
