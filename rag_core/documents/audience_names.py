"""Document audience labels and the Chinese names people read them by.

The one owner of this mapping: the engine's messages (an upload's narrower-audience warning,
the refusal of an audience the uploader cannot read) and the pages (through
`Assistant.AUDIENCE_LABELS`) name audiences the same way. A label without a name
(one an administrator made up) is shown as it is. `audience_label` reads a typed audience back: the name a page
shows (全体员工, HR, 管理者) or a label in another case is the built-in label, never a new one nobody holds.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

AUDIENCE_LABELS: dict[str, str] = {"all": "全体员工", "hr": "HR", "managers": "管理者"}


def audience_names(labels: Iterable[str]) -> str:
    """`labels` as people read them, joined with 、 (e.g. HR、管理者)."""
    return "、".join(AUDIENCE_LABELS.get(label, label) for label in labels)


def audience_label(typed: str) -> str:
    """The label a typed audience stands for: a built-in one by its label or its shown name in any case or width
    (HR, hr, ＨＲ, 全体员工, Managers); any other (a department's custom label) as typed, trimmed."""
    folded = unicodedata.normalize("NFKC", typed).strip().casefold()
    for label, shown in AUDIENCE_LABELS.items():
        if folded in (label, unicodedata.normalize("NFKC", shown).casefold()):
            return label
    return typed.strip()
