"""Moving a damaged store file (or chroma/) aside under a name no other move has taken.

The name had a one-second stamp: two set-asides in the same second (a page rerun after a failed start)
made `shutil.move` nest the second into the first (…/chroma.damaged-<stamp>/chroma) and the start then
failed with its English "Destination path … already exists". The stamp now has microseconds, and a name
already taken gets a counter.
"""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

from ..settings import ASIDE_STAMP

_SIDES = ("-wal", "-shm", "-journal")  # SQLite's files that belong to the one set aside


def aside_stamp() -> str:
    """When a file was set aside or kept, as its new name says it (UTC, to the microsecond). Dashes and a dot
    between the parts: run together (20261207T014728576969), the time read as a phone number to the masker every
    message goes through, and the CLI named a copy that did not exist (chroma.damaged-20261207T[座机号])."""
    return datetime.now(UTC).strftime(ASIDE_STAMP)


def free_name(path: Path, label: str = "damaged") -> Path:
    """`<name>.<label>-<UTC stamp with microseconds>` beside `path`, with a counter when that name (or one of
    its side files) already exists: the target of a move is never an existing directory to move into."""
    stamp = aside_stamp()
    for number in range(1000):
        suffix = f"-{number}" if number else ""
        target = path.with_name(f"{path.name}.{label}-{stamp}{suffix}")
        taken = [target, *(target.with_name(target.name + side) for side in _SIDES)]
        if not any(p.exists() or p.is_symlink() for p in taken):
            return target
    raise FileExistsError(f"{path}: no free name to set it aside")


def set_aside(path: Path, label: str = "damaged") -> Path:
    """Move `path` (with its -wal, -shm, -journal) to a free name beside it; the new path."""
    path = Path(path)
    target = free_name(path, label)
    shutil.move(str(path), str(target))
    for side in _SIDES:
        source = path.with_name(path.name + side)
        if source.exists():
            shutil.move(str(source), str(target) + side)
    return target
