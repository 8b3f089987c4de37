"""Ratings older versions kept in the catalog (table `feedback`): read once, dropped once the facade has copied them.

Versions before 2026-12-01 kept every rating only here; later ones until 2026-12-05 kept a second copy here beside
the insights log. The insights log is now their one home (with the question retention and its purges), so at a start
the facade copies what it lacks there and only then calls `drop_old_ratings` (secure_delete is on for the catalog's
connection: the dropped rows' text is overwritten in the file).
"""

from __future__ import annotations

from typing import Any

from .catalog import Catalog

OLD_TABLE = "feedback"
_COLUMNS = ("id", "created_at", "user_id", "question", "rating", "trace")  # as the old code made the table


def old_ratings(catalog: Catalog) -> list[dict[str, Any]] | None:
    """The catalog's old ratings, newest first (a blank for each column a hand-made table lacks), or None when it
    holds no such table (every store since the move)."""
    with catalog.lock:
        db = catalog._db
        have = {row[1] for row in db.execute(f"PRAGMA table_info({OLD_TABLE})")}
        if not have:
            return None
        picked = ", ".join(c if c in have else ("0" if c in ("id", "rating") else "''") for c in _COLUMNS)
        order = "id DESC" if "id" in have else "rowid DESC"
        rows = db.execute(f"SELECT {picked} FROM {OLD_TABLE} ORDER BY {order}").fetchall()
    return [dict(zip(_COLUMNS, row)) for row in rows]


def drop_old_ratings(catalog: Catalog) -> None:
    """Drop the old table (its pages overwritten: the catalog's connection runs with secure_delete on)."""
    with catalog.lock:
        catalog._db.execute("PRAGMA secure_delete = ON")
        catalog._db.execute(f"DROP TABLE IF EXISTS {OLD_TABLE}")
        catalog._db.commit()
