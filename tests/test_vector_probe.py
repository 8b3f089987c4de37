"""A garbled HNSW segment (Chroma's on-disk vector index) is found before it crashes the app.

Before, a start probed only `count()` in process: random bytes in `data_level0.bin` segfaulted the
app at start or on its first question, and `doctor` said all was well. The store here is made big
enough (about 1,400 chunks) for Chroma to persist an HNSW segment; the fake embedder keeps it fast.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rag_core.storage import health, vector_probe
from rag_core.storage.health import doctor, open_checks

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
BUILD = """
import sys
sys.path[:0] = [{root!r}, {tests!r}]
from fakes import fake_assistant
a = fake_assistant(sys.argv[1], chunk_size=120, chunk_overlap=0)
body = "# 福利发放办法\\n\\n" + "\\n\\n".join(
    f"第{{i}}条 员工第{{i}}项福利按月发放，标准为{{i}}元，由人力资源部负责核算与审批。" for i in range(1, 1400))
assert a.ingest_bytes(body.encode(), "big.md").ok
"""
ASK = """
import sys
sys.path[:0] = [{root!r}, {tests!r}]
from fakes import fake_assistant
a = fake_assistant(sys.argv[1], chunk_size=120, chunk_overlap=0)
print("NOTICES", a.store_notices)
print("HITS", a.search("第7项福利的标准是多少").hit_count)
"""


def _run(script: str, data_dir: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
    code = script.format(root=str(ROOT), tests=str(TESTS))
    return subprocess.run([sys.executable, "-c", code, str(data_dir)], capture_output=True, text=True, env=env,
                          timeout=600, check=False)


@pytest.fixture(scope="module")
def big_store(tmp_path_factory) -> Path:
    store = tmp_path_factory.mktemp("hnsw") / "store"
    built = _run(BUILD, store)
    assert built.returncode == 0, built.stderr[-2000:]
    assert vector_probe.segment_files(store / "chroma"), "the store is too small for Chroma to persist a segment"
    return store


def _garbled_copy(big_store: Path, tmp_path: Path) -> Path:
    import shutil

    store = tmp_path / "store"
    shutil.copytree(big_store, store)
    data = next((store / "chroma").glob(f"*/{vector_probe.HNSW_DATA}"))
    data.write_bytes(os.urandom(data.stat().st_size))
    return store


def test_a_garbled_segment_is_set_aside_at_start_and_answers_still_come(big_store, tmp_path):
    store = _garbled_copy(big_store, tmp_path)
    asked = _run(ASK, store)
    assert asked.returncode == 0, f"the app died ({asked.returncode}): {asked.stderr[-1500:]}"
    assert "向量索引" in asked.stdout and "chroma.damaged-" in asked.stdout
    assert "HITS 0" not in asked.stdout


def test_doctor_names_a_garbled_segment(big_store, tmp_path):
    store = _garbled_copy(big_store, tmp_path)
    chroma = next(c for c in doctor(store) if c.file == "chroma/")
    assert chroma.status == "damaged" and "向量索引" in chroma.detail
    assert next(c for c in doctor(big_store) if c.file == "chroma/").ok


def test_a_healthy_segment_is_probed_once_until_its_bytes_change(big_store, tmp_path, monkeypatch):
    import shutil

    store = tmp_path / "store"
    shutil.copytree(big_store, store)
    probes: list[Path] = []
    real = vector_probe.probe_vectors
    monkeypatch.setattr(health, "probe_vectors", lambda path: probes.append(path) or real(path))
    assert open_checks(store) == []
    assert open_checks(store) == []
    assert len(probes) == 1  # the second start trusts the stamp
    for segment in vector_probe.segment_files(store / "chroma"):  # Chroma rewrites them, same bytes, at each open
        segment.write_bytes(segment.read_bytes())
    assert open_checks(store) == []
    assert len(probes) == 1  # a new mtime alone is no change: an mtime stamp probed every start (0.7 s)
    data = next((store / "chroma").glob(f"*/{vector_probe.HNSW_DATA}"))
    data.write_bytes(os.urandom(data.stat().st_size))  # damaged after a healthy start: other bytes, same size
    assert "向量索引" in " ".join(open_checks(store))
    assert len(probes) == 2


def test_damage_that_keeps_the_files_times_is_probed_and_set_aside(big_store, tmp_path, monkeypatch):
    """Review 335: a segment damaged where it sits (a bad sector, a copy keeping the times) kept its size and time,
    the start trusted them, and every start of the app died in Chroma's native code."""
    import shutil

    store = tmp_path / "store"
    shutil.copytree(big_store, store)
    probes: list[Path] = []
    real = vector_probe.probe_vectors
    monkeypatch.setattr(health, "probe_vectors", lambda path: probes.append(path) or real(path))
    assert open_checks(store) == [] and len(probes) == 1
    data = next((store / "chroma").glob(f"*/{vector_probe.HNSW_DATA}"))
    st = data.stat()
    data.write_bytes(os.urandom(st.st_size))
    os.utime(data, ns=(st.st_atime_ns, st.st_mtime_ns))  # the times it had
    assert "向量索引" in " ".join(open_checks(store))
    assert len(probes) == 2


def test_a_probe_that_cannot_tell_sets_nothing_aside(tmp_path, monkeypatch):
    def too_slow(*_args, **_kwargs):
        raise subprocess.TimeoutExpired("probe", vector_probe.PROBE_SECONDS)

    monkeypatch.setattr(vector_probe.subprocess, "run", too_slow)
    found = vector_probe.probe_vectors(tmp_path)
    assert found.outcome == vector_probe.UNKNOWN and not found.problem  # nor is it called healthy (review 51)


def test_a_directory_that_cannot_be_written_is_not_probed(tmp_path, monkeypatch):
    """Chroma opens its database for writing: on a read-only mount the probe failed and doctor called a
    healthy index damaged. Such a directory is not probed (the probe could not tell)."""
    monkeypatch.setattr(vector_probe.os, "access", lambda path, mode: mode != os.W_OK)
    monkeypatch.setattr(vector_probe.subprocess, "run", lambda *a, **k: pytest.fail("probed a read-only directory"))
    found = vector_probe.probe_vectors(tmp_path)
    assert found.outcome == vector_probe.UNKNOWN and not found.problem


def test_reopening_an_unchanged_store_does_not_probe_again(big_store, tmp_path, monkeypatch):
    """The probe's own load rewrites the segment files (length.bin with other bytes): stamped before it, every
    start saw a change and probed, 0.7 s per CLI command."""
    import gc
    import shutil

    from fakes import fake_assistant

    store = tmp_path / "store"
    shutil.copytree(big_store, store)
    probes: list[Path] = []
    real = vector_probe.probe_vectors
    monkeypatch.setattr(health, "probe_vectors", lambda path: probes.append(path) or real(path))
    for _ in range(3):
        assert fake_assistant(store, chunk_size=120, chunk_overlap=0).search("第7项福利的标准是多少").hit_count
        gc.collect()
    assert len(probes) == 1, probes


def test_a_store_whose_segment_holds_no_vector_yet_is_not_probed(tmp_path, monkeypatch):
    """Below Chroma's batch of a thousand, vectors live in its SQLite log and the segment holds none: every
    test store and the samples. Probing them cost each reopened store 0.7 s (test_damaged_stores 6 s -> 35 s)."""
    from fakes import fake_assistant

    store = tmp_path / "store"
    assert fake_assistant(store).ingest_bytes("# 年假\n\n第一条 年假5天。\n".encode(), "leave.md").ok
    assert list((store / "chroma").glob(f"*/{vector_probe.HNSW_DATA}"))
    assert vector_probe.segment_files(store / "chroma") == []
    monkeypatch.setattr(health, "probe_vectors", lambda path: pytest.fail("probed a segment with no vector"))
    assert fake_assistant(store).search("年假几天").hit_count


def test_a_data_dir_an_assistant_has_open_is_not_probed(big_store, tmp_path):
    """A probe during another process's compaction crashed on a healthy index, and the start set the live index
    aside under the app. While any assistant holds the data dir open, neither a start nor doctor probes."""
    from rag_core.storage.open_lock import hold_open, in_use

    store = _garbled_copy(big_store, tmp_path)  # a probe would find it: so none may run

    class App:
        pass

    app = App()
    hold_open(app, store)
    assert in_use(store)
    assert open_checks(store) == []
    chroma = next(c for c in doctor(store) if c.file == "chroma/")
    assert chroma.ok and "应用正在运行" in chroma.detail
    del app
    assert not in_use(store)
    assert "向量索引" in " ".join(open_checks(store))


def test_a_segment_chroma_never_saved_is_not_probed_however_its_bytes_change(big_store, tmp_path, monkeypatch):
    """Between a hundred and a thousand records, Chroma rebuilds a segment from its log at every open and writes
    its files with new random graph levels: counted, they made a third of warm starts probe again (0.9 s on a
    10k store with a 620-chunk `hr` partition). Such a segment is never loaded from disk: its bytes do not matter."""
    import shutil

    from fakes import fake_assistant

    store = tmp_path / "store"
    shutil.copytree(big_store, store)
    body = "# 人事福利\n\n" + "\n\n".join(f"第{i}条 人事第{i}项津贴标准为{i}元。" for i in range(1, 400))
    opened = fake_assistant(store, chunk_size=120, chunk_overlap=0)
    assert opened.ingest_bytes(body.encode(), "hr.md", audience=["hr"]).ok
    del opened
    fake_assistant(store, chunk_size=120, chunk_overlap=0).search("第7项福利")  # an open rebuilds it from the log
    unsaved = [d.parent for d in (store / "chroma").glob(f"*/{vector_probe.HNSW_DATA}")
               if not (d.parent / "index_metadata.pickle").exists()]
    assert unsaved and (unsaved[0] / vector_probe.HNSW_DATA).stat().st_size, "no unsaved segment with bytes"
    listed = vector_probe.segment_files(store / "chroma")
    assert listed and not any(p.parent == unsaved[0] for p in listed)
    data = unsaved[0] / vector_probe.HNSW_DATA
    data.write_bytes(os.urandom(data.stat().st_size))  # what a rebuild at the next open may do
    monkeypatch.setattr(health, "probe_vectors", lambda path: pytest.fail("probed a segment Chroma never saved"))
    assert fake_assistant(store, chunk_size=120, chunk_overlap=0).search("第7项福利的标准是多少").hit_count


def test_a_saved_segment_that_lost_its_id_map_is_still_probed(big_store, tmp_path):
    """The id map missing from a segment Chroma saved fails every open: such a segment is listed and probed."""
    import shutil

    store = tmp_path / "store"
    shutil.copytree(big_store, store)
    for pickle in (store / "chroma").glob("*/index_metadata.pickle"):
        pickle.unlink()
    assert vector_probe.segment_files(store / "chroma")
    assert not vector_probe.probe_vectors(store / "chroma").loads
