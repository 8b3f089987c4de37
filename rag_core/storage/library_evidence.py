"""Rows that show a data dir held a library: asked when the catalog is cut shorter than SQLite's header.

The audit trail and version history name documents; the embedding and sentence caches hold vectors of chunks only
a catalog's documents gave; a memory was written by a start that opened the catalog whole. Any of them with a row,
or unreadable (fail closed), says the cut catalog is damage to restore, not a first start stopped by a full disk.
Read-only (`account_files._read_one`: mode=ro, a crash's journal rolled back in a private copy): nothing changes.
"""

from __future__ import annotations

from pathlib import Path

EVIDENCE = (  # (file, a query finding one row), after the audit trail and version history
    ("embedding_cache.sqlite3", "SELECT 1 FROM embeddings LIMIT 1"),
    ("sentences.sqlite3", "SELECT 1 FROM vectors LIMIT 1"),
    ("second_embedding_cache.sqlite3", "SELECT 1 FROM embeddings LIMIT 1"),
    ("second_sentences.sqlite3", "SELECT 1 FROM vectors LIMIT 1"),
    ("memory.sqlite3", "SELECT 1 FROM memories LIMIT 1"),
)


def rows_left(data_dir: Path) -> bool:
    """Whether any evidence file has a row or cannot be read; a missing, empty or table-less one says nothing."""
    from .account_files import AUDIT, HISTORY, _read_one  # account_files imports health, which asks this

    documents = ((AUDIT, "SELECT 1 FROM audit WHERE action LIKE 'document.%' LIMIT 1"),
                 (HISTORY, "SELECT 1 FROM version_text LIMIT 1"))
    return any(_read_one(Path(data_dir) / name, sql) is not False for name, sql in (*documents, *EVIDENCE))


LEFT_OVER = "vectors_left_over"  # a catalog meta key: a delete's vector clean-up failed after the catalog's delete


def left_over(catalog: Path) -> bool:
    """The catalog marks vectors a failed delete left behind (`facade.documents`): with no chunk left they are orphans
    the next start drops, not the sign of a lost catalog (a restart after deleting the last document refused)."""
    from .account_files import _read_one

    return _read_one(Path(catalog), f"SELECT 1 FROM meta WHERE key = '{LEFT_OVER}' AND value != ''") is True
