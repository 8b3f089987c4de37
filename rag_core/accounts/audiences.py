"""An account's audience labels: which may be stored, and what a stored column reads as.

An older version stored a grant as typed (Managers, 管理者: the name the pages show), a label no document carries.
The facade hands the store its reading of a typed label (`documents.audience_names.audience_label`, which this
layer may not import), so every account read grants the labels meant, whatever the file still holds.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from ..errors import AccountError

Label = Callable[[str], str]  # a typed or stored audience -> the label it stands for


def checked(audiences: Iterable[str]) -> list[str]:
    """The labels to store, trimmed, once each, sorted; `AccountError` for one no document could carry."""
    labels = sorted({a.strip() for a in audiences if a and a.strip()})
    for label in labels:
        if not re.match(r"^[\w-]{1,32}$", label):
            raise AccountError(f"受众标签不合法：{label}")
    return labels


def read_labels(stored: str, label: Label | None) -> tuple[str, ...]:
    """A stored audiences column as the labels it grants (`label`: None reads it as stored), sorted, once each."""
    audiences = [a for a in stored.split(",") if a]
    return tuple(sorted({label(a) for a in audiences})) if label else tuple(audiences)


def relabels(read: Iterable[tuple[str, str]], label: Label | None) -> list[tuple[str, str, str]]:
    """(new column, name, column as read) for each (name, column) row `read` that is stored other than it reads."""
    return [(new, name, old) for name, old in read if (new := ",".join(read_labels(old, label))) != old]
