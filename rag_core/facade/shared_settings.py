"""settings.json shared by replicas of one data dir: a save starts from the file as it is now.

Each process read the file only at its start and wrote back only its own knobs, so a save in one replica
dropped a change another replica had saved since (it came back as the .env's value at the next start).
A save now reads the file under a lock, keeps the knobs it does not change and writes them back with its own.
"""

from __future__ import annotations

from pathlib import Path

from ..documents.write_lock import held_if_writable
from ..settings import Settings
from ..storage.saved_settings import with_saved_changes

SETTINGS_LOCK = ".settings.write-lock"  # hidden: backups skip it


def saving(data_dir: str | Path):
    """One save of settings.json at a time across the replicas (read, merge, write)."""
    return held_if_writable(Path(data_dir) / SETTINGS_LOCK)


def on_file_now(env: Settings, in_force: Settings, saved: frozenset[str]) -> tuple[Settings, frozenset[str]]:
    """What a save starts from: `env` (.env and defaults) with settings.json as it is now, another replica's
    saves included, and the knobs it holds; this process's view when the file cannot be used at all
    (unreadable, or nothing in it accepted: the save keeps that file aside whole, `storage.saved_settings.save_changes`)."""
    current, notice, applied = with_saved_changes(env, now=True)  # read whole: no copy of it kept aside
    if notice and not applied:
        return in_force, saved
    return current, applied
