"""The Chroma probe at start, end to end on a store big enough to have an HNSW segment (review 51).

Child processes (the probe's, the store's build), so slow. A probe that timed out once stamped a garbled
index as checked: the next start on an idle machine did not probe, and the app died on its first question.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from test_vector_probe import BUILD, _run

from rag_core.storage import vector_probe
from rag_core.storage.health import open_checks

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def big_store(tmp_path_factory) -> Path:
    store = tmp_path_factory.mktemp("hnsw51") / "store"
    built = _run(BUILD, store)
    assert built.returncode == 0, built.stderr[-2000:]
    assert vector_probe.segment_files(store / "chroma")
    return store


def test_a_timed_out_probe_leaves_a_garbled_index_to_the_next_start(big_store, tmp_path, monkeypatch):
    store = tmp_path / "store"
    shutil.copytree(big_store, store)
    data = next((store / "chroma").glob(f"*/{vector_probe.HNSW_DATA}"))
    data.write_bytes(os.urandom(data.stat().st_size))
    real_run = subprocess.run

    def timed_out(*_args, **_kwargs):
        raise subprocess.TimeoutExpired("probe", vector_probe.PROBE_SECONDS)

    monkeypatch.setattr(vector_probe.subprocess, "run", timed_out)  # a busy machine
    assert open_checks(store) == []
    monkeypatch.setattr(vector_probe.subprocess, "run", real_run)  # the next start, idle
    notices = " ".join(open_checks(store))
    assert "向量索引" in notices and "chroma.damaged-" in notices, notices


def test_a_healthy_index_loads_in_the_child_and_is_stamped(big_store, tmp_path):
    store = tmp_path / "store"
    shutil.copytree(big_store, store)
    assert vector_probe.probe_vectors(store / "chroma").loads
