"""A store file comes into being whole, or not at all: every SQLite store calls `create_store` before it connects.

`sqlite3.connect` makes the file (0 bytes) before anything is written into it. When the first schema write then
failed (a full disk, a quota, a kill), a 0-byte file stayed behind, and every later check read it as a store cut
to nothing: the start moved it aside as damage, and an install that never had accounts was told its accounts
were lost and every page paused. Here the schema is written into a hidden file beside the store, in rollback-
journal mode so that every page is in the file itself when the commit returns, and linked into place only once it
holds them: the store's name shows a whole, empty store or nothing. A failure leaves nothing behind, and the
error (the full disk) goes on to the caller, who says it as before.

Two processes creating the same store at once: the first link wins, the other's file is dropped (both hold
the same empty schema). A file system without hard links (FAT, some network shares) is left to SQLite as before:
a rename over a name another process may have just taken could replace a store already in use. Scratch files a
killed process left behind are swept by the next creation of that store once they are a minute old.
"""

from __future__ import annotations

import os
import sqlite3
import time
import uuid
from pathlib import Path

from ..errors import StoreDamaged
from .sqlite_access import NOT_A_FILE, NOT_A_FILE_FIX

_SIDES = ("", "-journal", "-wal", "-shm")


def _drop(path: Path) -> None:
    for side in _SIDES:
        try:
            path.with_name(path.name + side).unlink()
        except FileNotFoundError:
            pass
        except OSError:
            pass  # removing a scratch file is best effort: it is hidden and never read as a store


def create_store(path: str | Path, schema: str, *, mode: int | None = None) -> bool:
    """Make `path` a store holding `schema` (an SQL script) when no file has that name yet; True when made here.

    Nothing is done when the file exists, whatever it holds (a cut file is the start's and doctor's business).
    Raises what SQLite or the file system raised when the schema could not be written; `path` then still does
    not exist. `mode`: the new file's permission bits (accounts: 0o600), set before it is given its name."""
    path = Path(path)
    if path.is_dir():  # said as that, not as permissions or damage (review 335); nothing is moved
        raise StoreDamaged(f"{path.name} {NOT_A_FILE}：{NOT_A_FILE_FIX}")
    if path.exists() or path.is_symlink():
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    _sweep(path)
    scratch = path.with_name(f".{path.name}.creating-{uuid.uuid4().hex[:12]}.tmp")
    try:
        return _write(scratch, path, schema, mode)
    except OSError as exc:  # said by the store as SQLite errors are (a full disk stays a full disk: the chain)
        raise sqlite3.OperationalError(f"{exc.strerror or exc}") from exc
    finally:
        _drop(scratch)


def _write(scratch: Path, path: Path, schema: str, mode: int | None) -> bool:
    con = sqlite3.connect(str(scratch))
    try:
        con.execute("PRAGMA journal_mode=DELETE")
        con.executescript(schema)
        con.commit()
    finally:
        con.close()
    if scratch.stat().st_size == 0:  # nothing reached the file (cannot happen after a commit): never link it
        raise sqlite3.OperationalError("database or disk is full")
    if mode is not None:
        scratch.chmod(mode)
    return _place(scratch, path)


def _place(scratch: Path, path: Path) -> bool:
    """Give `scratch` the name `path` unless something has it already: never over another process's store. Where
    the file system has no hard links, nothing is placed: the caller's connect creates the store as it always did."""
    try:
        os.link(scratch, path)
        return True
    except FileExistsError:
        return False
    except OSError:  # EPERM, EINVAL, ENOSYS, EACCES …: no hard links here
        return False


def _sweep(path: Path) -> None:
    """Remove scratch files of `path` a killed process left (older than a minute: a live creation takes ms)."""
    for left in path.parent.glob(f".{path.name}.creating-*.tmp"):
        try:
            if time.time() - left.lstat().st_mtime > 60:
                left.unlink()
        except OSError:
            pass
