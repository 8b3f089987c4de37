"""Where a reply cut for its length may end: never inside a number.

A model stopped for its length (finish_reason "length") or cut at the engine's cap may stop inside a number:
17 of an ID's 18 digits, or 10 of a mobile's 11, are too short for any masking rule and would be shown and
stored unmasked (review 51f 2); 上限 600 cut to 上限 60 reads as another amount. Like `prompt._cut_to`, the cut
goes before the run, as masking reads runs (`text.digit_runs`).
"""

from __future__ import annotations

import re

from ..text.digit_runs import VIEW_FOLD, ZH_DIGIT_CHARS, number_runs

# what a number still being written may hold at the end of a piece: digits (Arabic, full-width, Chinese),
# spaces and dashes as masking reads them (VIEW_FOLD)
_NUMBER_CHARS = frozenset("0123456789- " + ZH_DIGIT_CHARS)
_SHORT_FIGURE = re.compile(r"[0-9]+\Z")


def number_in_progress(text: str) -> int:
    """Where a number `text` may end inside starts (`len(text)` when it ends in none): a stream holds that part
    back until the next piece shows the number ended, or the reply was cut inside it (`without_cut_number`)."""
    start = len(text)
    while start and ((char := text[start - 1].translate(VIEW_FOLD)) in _NUMBER_CHARS or char.isspace()):
        start -= 1
    return start


def without_cut_number(text: str) -> str:
    """A reply cut for its length, less the number it was cut inside: 17 of an ID's 18 digits, or 10 of a mobile's
    11, are too short for any masking rule, and 上限 600 cut to 上限 60 reads as another amount. Like
    `prompt._cut_to`, the cut goes before the run (Arabic or Chinese digits, as masking reads them)."""
    folded = text.translate(VIEW_FOLD)
    end = len(folded.rstrip(" -\t\n\r\f\v"))
    for start, stop in number_runs(text[:end]):
        if stop == end:
            end = start
            break
    figure = _SHORT_FIGURE.search(folded[:end])
    return text[: figure.start() if figure else end].rstrip()
