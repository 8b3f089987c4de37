"""Personal-data masking for documents: body, headings, titles, file names, doc ids.

The recognizers live in `rag_core.text.pii` (the lowest stage), because memories,
questions and prompts are masked with the same rules; this module applies them
to everything a document contributes to the stores, so no raw phone or ID number
is embedded, chunked, put in a section path, a doc id or a chunk id.
"""

from __future__ import annotations

import unicodedata

from ..text.pii import REDACTION_CATEGORIES, RedactionResult, id_card_valid, luhn_valid, redact, redact_text
from .parsing import DROPPED_CATEGORIES, SUPPORTED_EXTENSIONS

__all__ = [
    "REDACTION_CATEGORIES",
    "RedactionResult",
    "id_card_valid",
    "luhn_valid",
    "redact",
    "redact_filename",
    "redact_text",
]


def redact_filename(name: str, disabled: frozenset[str] = frozenset()) -> tuple[str, dict[str, int]]:
    """The file name with personal data masked in its stem; a supported file type's extension is kept as is.

    Only the stem: "张三@corp.md" must not read ".md" as an e-mail's top-level domain. Any other "extension" is
    masked with the stem: zhangsan@corp.com is an e-mail address, not a file of type .com, and 张三简历.13812345678
    a phone number. Invisible characters go first, as from the stored name: 1381234\x005678 is a phone number.
    """
    name = "".join(ch for ch in name if unicodedata.category(ch) not in DROPPED_CATEGORIES)
    stem, dot, ext = name.rpartition(".")
    if not (dot and stem and "." + ext.lower() in SUPPORTED_EXTENSIONS):
        stem, ext = name, ""
    result = redact(stem, disabled)
    return (result.text + ("." + ext if ext else "")), result.counts
