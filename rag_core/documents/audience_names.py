"""Document audience labels and the Chinese names people read them by.

The one owner of this mapping: the engine's messages (an upload's narrower-audience warning,
the refusal of an audience the uploader cannot read) and the pages (through
`Assistant.AUDIENCE_LABELS`) name audiences the same way. A label without a name
(one an administrator made up) is shown as it is.
"""

from __future__ import annotations

from collections.abc import Iterable

AUDIENCE_LABELS: dict[str, str] = {"all": "全体员工", "hr": "HR", "managers": "管理者"}


def audience_names(labels: Iterable[str]) -> str:
    """`labels` as people read them, joined with 、 (e.g. HR、管理者)."""
    return "、".join(AUDIENCE_LABELS.get(label, label) for label in labels)
