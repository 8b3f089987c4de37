"""The Chroma probe at start has three outcomes: loads, damaged, could not tell (review 51).

A probe that could not tell (timed out, could not start, a folder it cannot write) was read as "loads":
the segment files were stamped as checked, a garbled index was never probed again and every later start
died on it (signal 11). Now only a child that loaded everything stamps them.

No child process here: the probe's child (`subprocess.run` in `vector_probe`) is replaced by what it would
report, and the segment is a stand-in file Chroma never reads.
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

from rag_core.storage import vector_probe
from rag_core.storage.health import CHECKED, doctor, open_checks

CRASHED = -11  # what the child's return code is when Chroma's native code segfaults on a garbled file


def _store(tmp_path: Path) -> Path:
    """A data dir whose chroma/ has one segment that may hold vectors (no readable header): a start probes it."""
    store = tmp_path / "store"
    segment = store / "chroma" / "0a1b2c3d-segment"
    segment.mkdir(parents=True)
    (segment / vector_probe.HNSW_DATA).write_bytes(os.urandom(4096))
    return store


def _child(returncode: int, stdout: str = "", stderr: str = ""):
    """A stand-in for the probe's `subprocess.run` that reports what the child did."""
    def run(args, **_kwargs):
        return subprocess.CompletedProcess(args, returncode, stdout, stderr)
    return run


def _timed_out(*_args, **_kwargs):
    raise subprocess.TimeoutExpired("probe", vector_probe.PROBE_SECONDS)


def _cannot_start(*_args, **_kwargs):
    raise OSError(errno.EAGAIN, "fork")


LOADED = _child(0, "LOADED\n")  # what the probe's child prints once every collection loaded and answered


def _stamped(store: Path) -> bool:
    path = store / CHECKED
    return path.exists() and vector_probe.SEGMENT_BYTES in json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("cannot_tell", [_timed_out, _cannot_start, _child(0, "")],
                         ids=["timed-out", "cannot-start", "exit-0-before-loading-all"])
def test_a_probe_that_could_not_tell_stamps_nothing_and_the_next_start_probes_again(tmp_path, monkeypatch,
                                                                                    cannot_tell):
    store = _store(tmp_path)
    monkeypatch.setattr(vector_probe.subprocess, "run", cannot_tell)  # a busy machine
    assert open_checks(store) == []  # nothing set aside, no alarm
    assert not _stamped(store)
    monkeypatch.setattr(vector_probe.subprocess, "run", _child(CRASHED))  # the next start, on an idle machine
    notices = open_checks(store)
    assert "向量索引" in " ".join(notices) and "chroma.damaged-" in " ".join(notices), notices


def test_a_folder_the_probe_cannot_write_stamps_nothing(tmp_path, monkeypatch):
    store = _store(tmp_path)
    real_access = os.access
    chroma = store / "chroma"
    monkeypatch.setattr(os, "access", lambda path, mode: Path(path) != chroma and real_access(path, mode))
    monkeypatch.setattr(vector_probe.subprocess, "run", lambda *a, **k: pytest.fail("probed a read-only folder"))
    assert open_checks(store) == []
    assert not _stamped(store)


def test_only_an_index_that_loaded_is_stamped_and_then_not_probed_again(tmp_path, monkeypatch):
    store = _store(tmp_path)
    monkeypatch.setattr(vector_probe.subprocess, "run", LOADED)
    assert open_checks(store) == []
    assert _stamped(store)
    monkeypatch.setattr(vector_probe.subprocess, "run", lambda *a, **k: pytest.fail("probed unchanged files"))
    assert open_checks(store) == []


def test_the_probe_names_its_three_outcomes(tmp_path, monkeypatch):
    chroma = _store(tmp_path) / "chroma"
    for run, outcome in ((LOADED, vector_probe.LOADS), (_child(CRASHED), vector_probe.DAMAGED),
                         (_timed_out, vector_probe.UNKNOWN), (_child(0, ""), vector_probe.UNKNOWN)):
        monkeypatch.setattr(vector_probe.subprocess, "run", run)
        found = vector_probe.probe_vectors(chroma)
        assert found.outcome == outcome, (run, found)
        assert bool(found.problem) == (outcome == vector_probe.DAMAGED)


def test_doctor_says_the_index_was_not_checked_when_the_probe_could_not_tell(tmp_path, monkeypatch):
    store = _store(tmp_path)
    sqlite3.connect(store / "chroma" / "chroma.sqlite3").execute("CREATE TABLE t (x)").connection.close()
    monkeypatch.setattr(vector_probe.subprocess, "run", _timed_out)
    chroma = next(c for c in doctor(store) if c.file == "chroma/")
    assert chroma.ok and "没能检查" in chroma.detail, chroma
