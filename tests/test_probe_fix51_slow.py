"""The Chroma probe at start, end to end on a store big enough to have an HNSW segment (review 51).

Child processes (the probe's, the store's build), so slow. A probe that timed out once stamped a garbled
index as checked: the next start on an idle machine did not probe, and the app died on its first question.
And an app started during another start's probe opened the data dir under it: chroma/ was then set aside
under that live process.
"""

from __future__ import annotations

import os
import selectors
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_vector_probe import BUILD, ROOT, TESTS, _run

from rag_core.storage import health, vector_probe
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


OPEN_APP = """
import sys, time
sys.path[:0] = [{root!r}, {tests!r}]
from fakes import fake_assistant
a = fake_assistant(sys.argv[1], chunk_size=120, chunk_overlap=0)
print("OPEN", time.monotonic_ns(), flush=True)
sys.stdin.read()
"""


def test_an_app_started_during_the_probe_opens_only_after_chroma_is_set_aside(big_store, tmp_path, monkeypatch):
    store = tmp_path / "store"
    shutil.copytree(big_store, store)
    data = next((store / "chroma").glob(f"*/{vector_probe.HNSW_DATA}"))
    data.write_bytes(os.urandom(data.stat().st_size))
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
    apps: list[subprocess.Popen] = []
    set_aside_at: list[int] = []
    real_run, real_set_aside = subprocess.run, health._set_aside

    def probe(*args, **kwargs):
        app = subprocess.Popen([sys.executable, "-c", OPEN_APP.format(root=str(ROOT), tests=str(TESTS)), str(store)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        apps.append(app)
        with selectors.DefaultSelector() as ready:  # epoll: select() refuses a descriptor above 1024 (a long run)
            ready.register(app.stdout, selectors.EVENT_READ)
            ready.select(20)  # an app that may open during the probe has (no assertion on time)
        return real_run(*args, **kwargs)

    def set_aside(path: Path) -> Path:
        moved = real_set_aside(path)
        set_aside_at.append(time.monotonic_ns())
        return moved

    monkeypatch.setattr(vector_probe.subprocess, "run", probe)
    monkeypatch.setattr(health, "_set_aside", set_aside)
    try:
        notices = " ".join(open_checks(store))
        assert "chroma.damaged-" in notices, notices
        line = apps[0].stdout.readline().split()  # the app opens once the start has let go
        assert line[:1] == ["OPEN"], f"the app did not open: {line}"
        assert int(line[1]) > set_aside_at[0], "the app opened the data dir while chroma/ was probed and set aside"
    finally:
        for app in apps:
            app.kill()
            app.wait()
