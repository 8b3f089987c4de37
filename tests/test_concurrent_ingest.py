"""One current version per document, whoever writes at the same time.

Two processes ingesting the same file once left v1 and v2 both current, every chunk live
twice, and `doctor` said 正常. Guards: the data dir's writer lock (documents/write_lock.py,
held by the indexer for a whole write and respected by start-up recovery), the catalog's
version switch that reads what else is current inside its BEGIN IMMEDIATE transaction, and
doctor's check for a document with more than one version in effect.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from cli_support import invoke
from fakes import fake_assistant

from rag_core.storage.health import CATALOG, chroma_collections, doctor

ROOT = Path(__file__).resolve().parent.parent
OLD = "第一条 灯塔补贴每月 1 元。\n第二条 灯塔补贴随工资发放。\n"
NEW = "第一条 灯塔补贴每月 2 元。\n第二条 灯塔补贴随工资发放。\n第三条 灯塔补贴由人事部核定。\n"

CHILD = r"""
import json, sys, time
from pathlib import Path
root, data_dir, file, ready, go = sys.argv[1:6]
sys.path[:0] = [root, root + "/tests"]
from fakes import fake_assistant
assistant = fake_assistant(data_dir)
assistant.indexer.fail_point = lambda name: time.sleep(1.0)  # widen the window between vectors and the switch
Path(ready).touch()
deadline = time.time() + 60
while not Path(go).exists() and time.time() < deadline:
    time.sleep(0.005)
print(json.dumps(assistant.ingest_file(file).to_dict(), ensure_ascii=False))
"""


def live_rows(data_dir: Path) -> tuple[list[tuple[int, str]], list[str]]:
    """(version, status) of lighthouse and the texts of its live chunks, read straight from the catalog."""
    con = sqlite3.connect(data_dir / CATALOG)
    try:
        versions = con.execute("SELECT version, status FROM documents WHERE doc_id='lighthouse' ORDER BY version").fetchall()
        texts = [r[0] for r in con.execute(
            "SELECT c.text FROM chunks c JOIN documents d ON c.doc_id=d.doc_id AND c.version=d.version "
            "WHERE d.status='current' AND c.doc_id='lighthouse'"
        )]
    finally:
        con.close()
    return versions, texts


def test_two_processes_ingesting_one_file_leave_one_current_version(tmp_path: Path) -> None:
    data_dir = tmp_path / "store"
    first = fake_assistant(data_dir)
    assert first.ingest_bytes(OLD.encode(), "lighthouse.txt").version == 1
    first.catalog.close()
    del first
    upload = tmp_path / "lighthouse.txt"
    upload.write_text(NEW, encoding="utf-8")
    go = tmp_path / "go"
    ready = [tmp_path / f"ready{i}" for i in range(2)]
    children = [
        subprocess.Popen(
            [sys.executable, "-c", CHILD, str(ROOT), str(data_dir), str(upload), str(ready[i]), str(go)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        for i in range(2)
    ]
    deadline = time.time() + 180
    while not all(r.exists() for r in ready) and time.time() < deadline:
        time.sleep(0.05)
    go.touch()  # both have opened the store: start at once
    outputs = [child.communicate(timeout=240) for child in children]
    assert all(child.returncode == 0 for child in children), [err[-2000:] for _, err in outputs]
    reports = [json.loads(out.strip().splitlines()[-1]) for out, _ in outputs]
    versions, texts = live_rows(data_dir)
    assert [s for _, s in versions].count("current") == 1, versions
    assert len(texts) == len(set(texts)) == 3  # no chunk live twice
    assert sorted(r["status"] for r in reports) == ["indexed", "unchanged"]  # the second waited, then saw the first
    assert sum(chroma_collections(data_dir).values()) == len(texts)  # no stray vectors either
    assert all(check.status != "inconsistent" for check in doctor(data_dir))


def test_the_version_switch_alone_keeps_one_current_version(tmp_path: Path) -> None:
    """Without any writer lock (a platform without fcntl): the switch reads what is current in its transaction."""
    facade = fake_assistant(tmp_path / "store")
    facade.ingest_bytes(OLD.encode(), "lighthouse.txt")
    facade.indexer._locked = lambda step, check: contextlib.nullcontext()  # no lock at all
    held, release = threading.Event(), threading.Event()

    def hold_first(name: str) -> None:
        if not held.is_set():
            held.set()
            release.wait(30)  # the first writer stops between its vectors and its switch

    facade.indexer.fail_point = hold_first
    box = {}
    writer = threading.Thread(target=lambda: box.setdefault("a", facade.ingest_bytes(NEW.encode(), "lighthouse.txt")))
    writer.start()
    assert held.wait(30)
    later = facade.ingest_bytes((NEW + "第四条 另一份。\n").encode(), "lighthouse.txt")  # v3, written and switched first
    release.set()
    writer.join(60)
    assert box["a"].version == 2 and later.version == 3
    assert any("v3 已经生效" in w for w in box["a"].warnings)
    versions, texts = live_rows(tmp_path / "store")
    assert versions == [(1, "retired"), (2, "retired"), (3, "current")]
    assert len(texts) == len(set(texts)) == later.chunk_count


def test_start_up_recovery_leaves_a_running_writers_pending_version_alone(tmp_path: Path) -> None:
    """Guard: recover_pending takes the writer lock without waiting, and skips while a writer holds it."""
    data_dir = tmp_path / "store"
    facade = fake_assistant(data_dir)
    held, release = threading.Event(), threading.Event()

    def hold(name: str) -> None:
        held.set()
        release.wait(30)

    facade.indexer.fail_point = hold
    box = {}
    writer = threading.Thread(target=lambda: box.setdefault("r", facade.ingest_bytes(NEW.encode(), "lighthouse.txt")))
    writer.start()
    assert held.wait(30) and len(facade.catalog.pending()) == 1
    fake_assistant(data_dir)  # a second process starting now (the CLI while the app ingests)
    assert len(facade.catalog.pending()) == 1
    release.set()
    writer.join(60)
    assert box["r"].ok and box["r"].version == 1
    assert live_rows(data_dir)[0] == [(1, "current")]


def test_doctor_reports_a_document_with_two_current_versions_and_a_reingest_heals_it(tmp_path: Path, capsys) -> None:
    data_dir = tmp_path / "store"
    facade = fake_assistant(data_dir)
    facade.ingest_bytes(OLD.encode(), "lighthouse.txt")
    facade.ingest_bytes(NEW.encode(), "lighthouse.txt")
    assert all(check.ok for check in doctor(data_dir))
    con = sqlite3.connect(data_dir / CATALOG)  # what two unguarded writers left: v1 never retired
    con.execute("UPDATE documents SET status='current' WHERE doc_id='lighthouse' AND version=1")
    con.commit()
    con.close()
    bad = [check for check in doctor(data_dir) if not check.ok]
    assert [check.status for check in bad] == ["inconsistent"]
    assert "lighthouse" in bad[0].detail and "v1" in bad[0].detail and "v2" in bad[0].detail and bad[0].fix
    result = invoke(capsys, "--data-dir", str(data_dir), "doctor")
    assert result.exit_code == 1 and "有问题" in result.stdout and "lighthouse" in result.stdout
    healed = facade.ingest_bytes(NEW.encode(), "lighthouse.txt")  # the fix doctor names
    assert healed.status == "unchanged" and any("v1" in w and "已停用" in w for w in healed.warnings)
    assert all(check.ok for check in doctor(data_dir))


def test_a_version_scheduled_for_later_is_not_a_second_current_version(tmp_path: Path) -> None:
    data_dir = tmp_path / "store"
    facade = fake_assistant(data_dir)
    facade.ingest_bytes(OLD.encode(), "lighthouse.txt")
    assert facade.ingest_bytes(NEW.encode(), "lighthouse.txt", effective_date="2999-01-01").ok
    assert [s for _, s in live_rows(data_dir)[0]] == ["current", "current"]
    assert all(check.ok for check in doctor(data_dir))


class OtherModel:
    """The fake embedder under another model id: opening a store built by the first one re-embeds it."""

    def __init__(self):
        from fakes import BigramEmbedder

        self._inner = BigramEmbedder()
        self.model_id, self.dim = "fake-bigrams-64-other", self._inner.dim

    def embed_passages(self, texts):
        return self._inner.embed_passages(texts)

    def embed_query(self, text):
        return self._inner.embed_query(text)


def test_the_start_up_rebuild_of_the_vectors_holds_the_writer_lock(tmp_path, monkeypatch):
    """Another model opening the store rebuilds every vector; an upload or a second process starting at the
    same moment must wait for it rather than write beside it."""
    import rag_core.assistant as assistant_module
    from rag_core.documents.write_lock import WriterLock

    store = tmp_path / "store"
    first = fake_assistant(store)
    assert first.ingest_bytes(OLD.encode("utf-8"), "灯塔.md").ok
    lock_path = first.catalog.writer.path
    del first
    seen: list[bool] = []
    rebuild = assistant_module.reembed_all

    def spying(catalog, vectors, embedder):
        with WriterLock(lock_path).try_hold() as taken:  # another holder: the lock is free only if nobody has it
            seen.append(not taken)
        return rebuild(catalog, vectors, embedder)

    monkeypatch.setattr(assistant_module, "reembed_all", spying)
    fake_assistant(store, embedder=OtherModel())
    assert seen == [True]
