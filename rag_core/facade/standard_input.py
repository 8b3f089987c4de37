"""The audience a standard answer is for, checked as an upload's is (SECURITY.md: an empty 可见范围 is refused).

Split from `facade.insights` (kept under the 400-line limit).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..insights.standard import StandardAnswerError
from .upload_input import NO_AUDIENCE, audience_of


def standard_audience(audience: Sequence[str] | None) -> tuple[str, ...]:
    """The labels: None (not given) is everyone; a given list with no label (`--audience " "`, nothing picked)
    is refused with the upload's words, never widened to everyone — that served an HR-only answer to all staff."""
    labels = audience_of(audience)
    if not labels:
        raise StandardAnswerError(NO_AUDIENCE)
    return labels
