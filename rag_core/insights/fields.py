"""What people type into the HR loop (a rating's reason and comment), checked and bounded before it is masked.

Masking a 3M-character text whole and cutting it afterwards cost seconds; an invisible one
(zero-width characters only) stored a blank entry. The checks are the project's `checked`/`is_blank`.
"""

from __future__ import annotations

from ..text.inputs import checked, is_blank
from ..text.pii import redact_text
from .records import FEEDBACK_REASONS, InsightError

MAX_COMMENT_CHARS = 500


def feedback_fields(rating: int, reason: str | None, comment: object) -> tuple[str, str]:
    """A rating's reason (one of `FEEDBACK_REASONS`, none for a 👍) and comment (optional: an invisible one is none)."""
    reason = (reason or "").strip()
    if reason and reason not in FEEDBACK_REASONS:
        shown = redact_text(reason[:200])[:40]  # echoed, so masked, and short: a pasted text is no reason
        raise InsightError(f"不认识的原因“{shown}”，可选：{'、'.join(FEEDBACK_REASONS)}")
    blank = comment is None or (isinstance(comment, str) and is_blank(comment))
    return ("" if rating > 0 else reason), ("" if blank else checked(comment, what="补充说明", max_chars=MAX_COMMENT_CHARS))
