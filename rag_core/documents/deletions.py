"""What a deleted document was, kept after its rows went: the audience each incarnation under an id had, and when it
was deleted.

A document id is used again when a file of the same name is uploaded after a delete. A question logged while an
earlier incarnation stood cited that one, and must be judged by its audience (review 375 #2: only the last deletion's
audience was kept, so a managers-only policy deleted, re-uploaded for everyone and deleted again showed its old
traffic to HR). The catalog's meta row `deleted_audience:<id>` holds a JSON list of [deleted at, audience] pairs,
one per delete; a row from before this (the audience alone, "a,b") reads as one pair of unknown time.
"""

from __future__ import annotations

import json

DELETED_AUDIENCE = "deleted_audience:"  # + doc id
# appended at each delete (the plain text an older version wrote becomes the first pair, its time unknown)
KEEP_DELETED = """INSERT INTO meta VALUES (?1, json_array(json_array(?2, ?3))) ON CONFLICT(key) DO UPDATE SET value =
    CASE WHEN json_valid(value) AND json_type(value) = 'array' THEN json_insert(value, '$[#]', json_array(?2, ?3))
    ELSE json_array(json_array('', value), json_array(?2, ?3)) END"""


def history(text: str | None) -> list[tuple[str, tuple[str, ...]]]:
    """The (deleted at, audience) of every delete, oldest first; a time of "" is unknown."""
    if text is None:
        return []
    try:
        pairs = json.loads(text) if text.startswith("[") else [["", text]]
        return [(str(at), tuple(a for a in str(audience).split(",") if a)) for at, audience in pairs]
    except (ValueError, TypeError):  # damaged: one delete of unknown time and readers, never "not deleted" (378 #6)
        return [("", ())]


def last_audience(text: str | None) -> tuple[str, ...] | None:
    """The audience at the last delete (None: never deleted in effect)."""
    found = history(text)
    return found[-1][1] if found else None
