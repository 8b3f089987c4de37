"""Search words made again for chunks indexed while masked personal data was still a word (before stop 69).

The tokenizer skips placeholders now: a question's 手机号 met every clause whose phone number had been masked to
[手机号] (review 376 #1). A chunk's words are made once, at its upload, and kept in the catalog, so in a data dir from
before, a policy that held a phone number still met such questions through the keyword index (review 379 #3). The
first start after the change makes those chunks' words again, once (`REMADE` in the catalog's meta); a store with no
such chunk (a new one included) is only marked, with no write that would count as a change.
"""

from __future__ import annotations

import json

from ..text.pii import ADDRESS_PLACEHOLDER, PLACEHOLDERS, REDACTION_CATEGORIES
from ..text.tokenizer import tokenize
from .catalog import Catalog
from .prepare import index_text

REMADE = "search_words_without_placeholders"  # meta: '1' once every chunk's words were made without placeholders


def remake_placeholder_words(catalog: Catalog) -> int:
    """Make again the search words of every chunk whose text holds a placeholder; how many (0 after the first time)."""
    if catalog.get_meta(REMADE) == "1":
        return 0
    marks = [*REDACTION_CATEGORIES.values(), ADDRESS_PLACEHOLDER]
    changed = []
    for doc_id, version in sorted(catalog.versions_mentioning(marks)):
        for chunk in catalog.chunks_of(doc_id, version):
            if PLACEHOLDERS.search(text := index_text(chunk)):
                changed.append((json.dumps(tokenize(text), ensure_ascii=False), chunk.chunk_id))
    if changed:
        with catalog.transaction() as db:
            db.executemany("UPDATE chunks SET tokens=? WHERE chunk_id=?", changed)
    catalog.set_meta(REMADE, "1")
    return len(changed)
