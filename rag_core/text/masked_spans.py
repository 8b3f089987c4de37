"""Where today's masker replaced what, read back from its output.

`redact_text` only reports the masked text. A reader that keeps some masked values (`text.kept`: a value the
answer's source clauses kept) must know exactly what each placeholder replaced: the masker's own decision of
where a value starts and ends, never a guess by boundary characters (a kept hr@corp.com inside
zhang_hr@corp.com, a kept 62345678 inside 021-62345678, which the masker masks whole).

The masked text is the original with disjoint spans replaced by placeholders, so the text between placeholders
appears in the original in order. A placeholder's span is reported only when every such reading of the masked
text gives it the same span (the earliest and the latest placement of the text between agree on it); else it
is None and the value stays masked.
"""

from __future__ import annotations

from .pii import PLACEHOLDERS, redact_text

Span = tuple[int, int]


def masked_spans(text: str) -> tuple[list[str], list[str], list[Span | None]]:
    """`redact_text(text)` cut at its placeholders: the literal pieces (one more than the placeholders), the
    placeholders, and for each the original span it replaced when that is certain (None otherwise)."""
    masked = redact_text(text)
    pieces = PLACEHOLDERS.split(masked)
    placeholders = PLACEHOLDERS.findall(masked)
    earliest, latest = _placements(text, pieces, last=False), _placements(text, pieces, last=True)
    if earliest is None or latest is None:  # not a span replacement of `text`: nothing is certain
        return pieces, placeholders, [None] * len(placeholders)
    spans: list[Span | None] = []
    for i in range(len(placeholders)):
        early = (earliest[i] + len(pieces[i]), earliest[i + 1])
        late = (latest[i] + len(pieces[i]), latest[i + 1])
        spans.append(early if early == late else None)
    return pieces, placeholders, spans


def _placements(text: str, pieces: list[str], last: bool) -> list[int] | None:
    """Where each literal piece starts in `text` when each is placed as early (or as late) as the others allow;
    the first piece starts the text and the last ends it. None when the pieces cannot be placed."""
    head, tail = pieces[0], pieces[-1]
    if len(pieces) < 2 or not text.startswith(head) or not text.endswith(tail) or len(head) + len(tail) > len(text):
        return None
    low, high = len(head), len(text) - len(tail)  # where the middle pieces must lie
    middle = pieces[1:-1]
    starts: list[int] = []
    if not last:
        position = low
        for piece in middle:
            found = text.find(piece, position, high)
            if found < 0:
                return None
            starts.append(found)
            position = found + len(piece)
    else:
        position = high
        for piece in reversed(middle):
            found = text.rfind(piece, low, position)
            if found < 0:
                return None
            starts.insert(0, found)
            position = found
    return [0, *starts, high]
