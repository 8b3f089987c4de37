"""A start probes Chroma's index, and sets it aside, only while it holds the data dir's open lock alone (review 51).

`in_use` took the lock and let go at once: another app or CLI process could open the data dir, and write,
during the probe (0.9 s, up to 300 s), and a bad verdict then moved chroma/ away under that live process.
A second descriptor on the lock file stands for another process (flock locks belong to an open, not a
process); the probe's child is replaced by what it would report.
"""

from __future__ import annotations

import errno
import fcntl
import os
import threading
from pathlib import Path

import pytest
from test_probe_fix51 import CRASHED, LOADED, _child, _stamped, _store

from rag_core.errors import StoreBusy
from rag_core.storage import health, open_lock, vector_probe
from rag_core.storage.health import open_checks


def _shared_elsewhere(store: Path) -> bool:
    """Could another process open the data dir now? (a second descriptor is another open, as in another process)"""
    fd = os.open(store / open_lock.OPEN_LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(fd)


def test_the_data_dir_is_held_alone_while_the_probe_runs_and_let_go_after(tmp_path, monkeypatch):
    store = _store(tmp_path)
    during: list[bool] = []

    def child(*args, **kwargs):
        during.append(_shared_elsewhere(store))
        return _child(CRASHED)(*args, **kwargs)

    monkeypatch.setattr(vector_probe.subprocess, "run", child)
    assert "chroma.damaged-" in " ".join(open_checks(store))
    assert during == [False]  # no other process could open the data dir while probed and set aside
    assert _shared_elsewhere(store)


def test_two_starts_at_once_do_not_both_probe(tmp_path, monkeypatch):
    store = _store(tmp_path)
    probes: list[str] = []

    def child(*args, **kwargs):
        probes.append("probe")
        if len(probes) == 1:
            assert open_checks(store) == []  # a second start meanwhile (another open of the lock file)
        return LOADED(*args, **kwargs)

    monkeypatch.setattr(vector_probe.subprocess, "run", child)
    assert open_checks(store) == []
    assert probes == ["probe"]


def test_an_assistant_opening_during_the_probe_waits_until_chroma_is_set_aside(tmp_path, monkeypatch):
    """The second start neither opens under the probe nor is refused as if a restore ran: it waits."""
    store = _store(tmp_path)
    events: list[str] = []

    class App:
        pass

    app = App()
    releases: list = []

    def open_app() -> None:
        try:
            releases.append(open_lock.hold_open(app, store))
            events.append("opened")
        except StoreBusy as exc:
            events.append(f"refused: {exc}")

    opener = threading.Thread(target=open_app)
    real_set_aside = health._set_aside

    def set_aside(path: Path) -> Path:
        moved = real_set_aside(path)
        events.append("set aside")
        return moved

    def child(*args, **kwargs):
        opener.start()
        opener.join(timeout=1)  # lets an open that is not held back finish first (no assertion on time)
        return _child(CRASHED)(*args, **kwargs)

    monkeypatch.setattr(health, "_set_aside", set_aside)
    monkeypatch.setattr(vector_probe.subprocess, "run", child)
    try:
        assert "chroma.damaged-" in " ".join(open_checks(store))
        opener.join()
        assert events == ["set aside", "opened"]
        assert open_lock.in_use(store)
    finally:
        for release in releases:
            release()


def test_a_data_dir_another_process_has_open_is_not_probed(tmp_path, monkeypatch):
    store = _store(tmp_path)
    fd = os.open(store / open_lock.OPEN_LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)  # another process's assistant
        monkeypatch.setattr(vector_probe.subprocess, "run", lambda *a, **k: pytest.fail("probed a live data dir"))
        assert open_checks(store) == []
        assert not _stamped(store)
    finally:
        os.close(fd)


class _NoFlock:
    """fcntl on a file system without flock (ENOLCK): the probe runs unlocked, as before the lock."""

    LOCK_SH, LOCK_EX, LOCK_NB, LOCK_UN = fcntl.LOCK_SH, fcntl.LOCK_EX, fcntl.LOCK_NB, fcntl.LOCK_UN

    def flock(self, fd: int, operation: int) -> None:
        if operation != fcntl.LOCK_UN:
            raise OSError(errno.ENOLCK, "flock")


def test_without_flock_the_probe_still_runs(tmp_path, monkeypatch):
    store = _store(tmp_path)
    monkeypatch.setattr(open_lock, "fcntl", _NoFlock())
    monkeypatch.setattr(vector_probe.subprocess, "run", _child(CRASHED))
    assert "chroma.damaged-" in " ".join(open_checks(store))
