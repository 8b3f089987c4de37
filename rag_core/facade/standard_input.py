"""The audience a standard answer is for, checked as an upload's is (SECURITY.md: an empty 可见范围 is refused).

Split from `facade.insights` (kept under the 400-line limit).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..insights.standard import StandardAnswerError
from .upload_input import NO_AUDIENCE, audience_of, label_refusal


def standard_audience(audience: Sequence[str] | None) -> tuple[str, ...]:
    """The labels: None (not given) is everyone; a given list with no label (`--audience " "`, nothing picked)
    is refused with the upload's words, never widened to everyone — that served an HR-only answer to all staff.
    A label no account may hold (`bad_label`: "hr, managers" was stored as 'hr' and ' managers', "finance team"
    as a label nobody holds, and the answer reached none of the readers meant) is refused as an upload's is."""
    labels = audience_of(audience)
    if not labels:
        raise StandardAnswerError(NO_AUDIENCE)
    if refusal := label_refusal(labels):  # the upload's words
        raise StandardAnswerError(refusal)
    return labels
