"""Which audience label a search may preview (`role=`, the CLI's `--role`).

A preview narrows what is read to "all" plus one label. A label nobody uses ("HR" for "hr", the
Chinese name 管理者) used to preview silently as "all" only, so an administrator checking what HR
sees was told HR sees nothing: only labels the engine names or a live document carries are taken.
A label a document carries counts only within what the actor may read (`Principal.readable`): the refusal
lists those alone, and one beyond them is refused with the unknown label's words, so an employee never learns
another audience's label (董事会-裁员项目组) exists. The engine's own labels (all, hr, managers) are no secret and
stay: previewing one never widens what is read (`Principal.reading`). An administrator previews every label.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..documents.audience_names import AUDIENCE_LABELS
from ..documents.catalog import Catalog
from ..text.inputs import InputError
from ..text.pii import redact_text


def preview_labels(catalog: Catalog, readable: Iterable[str] | None = None) -> list[str]:
    """The engine's labels first, then every other label a live document carries (an administrator's own),
    keeping only those in `readable` (the actor's `Principal.readable`; None: every label, an administrator)."""
    carried = {label for info in catalog.live_versions() for label in info.audience}
    labels = [*AUDIENCE_LABELS, *sorted(carried - set(AUDIENCE_LABELS))]
    if readable is None:
        return labels
    reach = set(readable)  # the engine's own labels are no secret, and a preview never widens what is read
    return [label for label in labels if label in reach or label in AUDIENCE_LABELS]


def checked_preview(role: str | None, catalog: Catalog, readable: Iterable[str] | None = None) -> str | None:
    """`role` when it is a label the actor may preview (None: no preview), else InputError naming the valid ones.

    Callers pass the actor's `readable` (None only for one who reads every label): a label out of the actor's
    reach gets the same refusal as a label nobody uses, never a hint that it exists."""
    if role is None:
        return None
    if role in AUDIENCE_LABELS:  # always previewable (see `preview_labels`): no read of every live version per search
        return role
    labels = preview_labels(catalog, readable)
    if role in labels:
        return role
    shown = "、".join(f"{label}（{AUDIENCE_LABELS[label]}）" if label in AUDIENCE_LABELS else label for label in labels)
    raise InputError(f"没有“{redact_text(str(role))}”这个受众标签，可选：{shown}。请用其中一个标签（区分大小写）预览")
