"""Which audience label a search may preview (`role=`, the CLI's `--role`).

A preview narrows what is read to "all" plus one label. A label nobody uses ("HR" for "hr", the
Chinese name 管理者) used to preview silently as "all" only, so an administrator checking what HR
sees was told HR sees nothing: only labels the engine names or a live document carries are taken.
"""

from __future__ import annotations

from ..documents.audience_names import AUDIENCE_LABELS
from ..documents.catalog import Catalog
from ..text.inputs import InputError
from ..text.pii import redact_text


def preview_labels(catalog: Catalog) -> list[str]:
    """The engine's labels first, then every other label a live document carries (an administrator's own)."""
    carried = {label for info in catalog.live_versions() for label in info.audience}
    return [*AUDIENCE_LABELS, *sorted(carried - set(AUDIENCE_LABELS))]


def checked_preview(role: str | None, catalog: Catalog) -> str | None:
    """`role` when it is a label one may preview (None: no preview), else InputError naming the valid ones."""
    if role is None:
        return None
    labels = preview_labels(catalog)
    if role in labels:
        return role
    shown = "、".join(f"{label}（{AUDIENCE_LABELS[label]}）" if label in AUDIENCE_LABELS else label for label in labels)
    raise InputError(f"没有“{redact_text(str(role))}”这个受众标签，可选：{shown}。请用其中一个标签（区分大小写）预览")
