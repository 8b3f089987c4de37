"""A catalog cut shorter than SQLite's header is damage, never a new empty library (review 59, rev-maint t13/t14).

With the vectors on a Chroma server (or chroma/ gone too) nothing else was left to say the library had documents:
SQLite opened the 0-byte catalog as a new one, the start wrote a new schema into it (the evidence gone), every
question got 制度里没有写这一条, and doctor said 正常 (``None 块``), as it did of 0-byte caches.
A missing catalog is still a new install.
"""

from __future__ import annotations

import gc
import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.assistant import Assistant
from rag_core.errors import StoreDamaged
from rag_core.storage.health import open_checks

POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n\n第二条 病假须提供医院诊断证明。\n"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    data = tmp_path_factory.mktemp("cut") / "store"
    assistant = fake_assistant(data)
    assert assistant.ingest_bytes(POLICY.encode(), "leave.md").ok
    assistant.catalog.close()
    assistant.release_data_dir()
    del assistant
    gc.collect()
    for path in data.glob("*.sqlite3"):  # everything in the main files: a cut leaves no WAL to recover from
        con = sqlite3.connect(path)
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.close()
    return data


@pytest.fixture()
def store(built: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(built, tmp_path / "store"))


def cut(path: Path, size: int = 0) -> None:
    with open(path, "r+b") as f:
        f.truncate(size)
    for side in ("-wal", "-shm"):
        path.with_name(path.name + side).unlink(missing_ok=True)


@pytest.mark.parametrize("size", [0, 1])
def test_server_mode_start_refuses_a_cut_catalog_and_leaves_it_as_it_is(store: Path, size: int) -> None:
    cut(store / "catalog.sqlite3", size)
    with pytest.raises(StoreDamaged) as info:
        open_checks(store, embedded_chroma=False)  # the vectors live on a server: nothing local says "lost"
    message = str(info.value)
    assert message.startswith("catalog.sqlite3") and "可能被截断" in message and "restore" in message
    assert (store / "catalog.sqlite3").stat().st_size == size  # no new schema written over the evidence
    with pytest.raises(StoreDamaged):  # and the next start says it again: never an empty library later
        open_checks(store, embedded_chroma=False)


def test_embedded_start_with_chroma_gone_refuses_a_cut_catalog(store: Path) -> None:
    cut(store / "catalog.sqlite3")
    shutil.rmtree(store / "chroma")
    with pytest.raises(StoreDamaged) as info:
        fake_assistant(store)
    assert str(info.value).startswith("catalog.sqlite3 是空的（0 字节）")
    assert (store / "catalog.sqlite3").stat().st_size == 0
    assert not list(store.glob("catalog.sqlite3.damaged-*"))


def test_a_missing_catalog_is_still_a_new_install(tmp_path: Path) -> None:
    assistant = fake_assistant(tmp_path / "new")
    assert assistant.list_documents() == [] and not assistant.store_notices


@pytest.mark.parametrize("embedded", [True, False])
def test_doctor_reports_a_cut_catalog_and_cut_caches_as_damaged(store: Path, embedded: bool) -> None:
    for name in ("catalog.sqlite3", "embedding_cache.sqlite3", "sentences.sqlite3"):
        cut(store / name)
    shutil.rmtree(store / "chroma")
    checks = {c.file: c for c in Assistant.doctor_data_dir(store, embedded_chroma=embedded, server=("127.0.0.1", 9))}
    catalog = checks["catalog.sqlite3"]
    assert (catalog.status, catalog.ok) == ("damaged", False)
    assert "None" not in catalog.line() and "可能被截断" in catalog.detail and "restore" in catalog.fix
    for name in ("embedding_cache.sqlite3", "sentences.sqlite3"):
        assert (checks[name].status, checks[name].ok) == ("damaged", False)
        assert "可能被截断" in checks[name].detail and "缓存" in checks[name].fix
    assert (store / "catalog.sqlite3").stat().st_size == 0  # doctor changes nothing


# Review of 700677a: a first start on a full disk leaves a 0-byte catalog (created at connect, its header never
# written). Nothing shows a library existed: the next start sets it aside and starts as a new install, instead of
# refusing every start with "restore from a backup" an install that never held a document.


def first_start_cut(data: Path) -> Path:
    data.mkdir(parents=True)
    (data / "catalog.sqlite3").write_bytes(b"")
    return data


def test_a_first_start_that_left_a_0_byte_catalog_is_a_new_install(tmp_path: Path) -> None:
    data = first_start_cut(tmp_path / "new")
    assistant = fake_assistant(data)
    assert assistant.list_documents() == []
    assert len(assistant.store_notices) == 1 and "还没有存过文档" in assistant.store_notices[0]
    assert "restore" not in assistant.store_notices[0]
    assert [p.stat().st_size for p in data.glob("catalog.sqlite3.unfinished-*")] == [0]  # kept, not deleted
    assert assistant.ingest_bytes(POLICY.encode(), "leave.md").ok


@pytest.mark.parametrize("embedded", [True, False])
def test_open_checks_set_aside_a_cut_catalog_nothing_vouches_for(tmp_path: Path, embedded: bool) -> None:
    data = first_start_cut(tmp_path / "new")
    (data / ".open_checks.json").write_text('{"catalog.sqlite3": [0, 1, 0]}')  # a failed start's stamp of it
    notices = open_checks(data, embedded_chroma=embedded)
    assert len(notices) == 1 and not (data / "catalog.sqlite3").exists()


def test_an_earlier_start_that_found_the_catalog_whole_vouches_for_the_library(tmp_path: Path) -> None:
    data = first_start_cut(tmp_path / "old")
    (data / ".open_checks.json").write_text('{"catalog.sqlite3": [73728, 1, 0]}')
    os.utime(data / "catalog.sqlite3", (1, 1))  # settled: the refusing start may stamp it, and must still refuse
    for _ in range(2):
        with pytest.raises(StoreDamaged, match="restore"):
            open_checks(data, embedded_chroma=False)
    assert (data / "catalog.sqlite3").stat().st_size == 0


def test_a_whole_catalog_set_aside_before_vouches_for_the_library(store: Path) -> None:
    shutil.copy(store / "catalog.sqlite3", store / "catalog.sqlite3.damaged-20260101T000000000000")
    cut(store / "catalog.sqlite3")
    for name in ("audit.sqlite3", "document_history.sqlite3"):
        (store / name).unlink()
    shutil.rmtree(store / "chroma")
    with pytest.raises(StoreDamaged, match="restore"):
        open_checks(store, embedded_chroma=False)


def test_doctor_calls_a_cut_catalog_of_a_new_install_no_damage(tmp_path: Path) -> None:
    data = first_start_cut(tmp_path / "new")
    checks = {c.file: c for c in Assistant.doctor_data_dir(data, embedded_chroma=False, server=("127.0.0.1", 9))}
    assert checks["catalog.sqlite3"].status == "missing"


# Review 59 (rev-final): a real library's cut catalog with the audit trail, the version history and chroma/ gone
# too was set aside as a first start's and a new empty library began. The caches' and memories' rows vouch for it.


def strip_document_evidence(store: Path) -> None:
    cut(store / "catalog.sqlite3")
    for name in ("audit.sqlite3", "document_history.sqlite3", ".open_checks.json"):
        (store / name).unlink(missing_ok=True)
    shutil.rmtree(store / "chroma")


@pytest.mark.parametrize("embedded", [True, False])
def test_cache_rows_vouch_for_a_library_whose_other_evidence_is_gone(store: Path, embedded: bool) -> None:
    strip_document_evidence(store)
    with pytest.raises(StoreDamaged, match="restore"):
        open_checks(store, embedded_chroma=embedded)
    assert (store / "catalog.sqlite3").stat().st_size == 0 and not list(store.glob("catalog.sqlite3.unfinished-*"))


def test_a_memory_row_vouches_and_an_unreadable_cache_fails_closed(store: Path) -> None:
    strip_document_evidence(store)
    for name in ("embedding_cache.sqlite3", "sentences.sqlite3"):
        (store / name).unlink()
    memory = sqlite3.connect(store / "memory.sqlite3")
    memory.execute("CREATE TABLE IF NOT EXISTS memories (id TEXT)")
    memory.execute("INSERT INTO memories VALUES ('m1')")
    memory.commit()
    memory.close()
    with pytest.raises(StoreDamaged, match="restore"):
        open_checks(store, embedded_chroma=False)
    (store / "memory.sqlite3").unlink()
    (store / "sentences.sqlite3").write_bytes(b"not a database, but something was here" * 200)
    with pytest.raises(StoreDamaged, match="restore"):
        open_checks(store, embedded_chroma=False)
    (store / "sentences.sqlite3").unlink()  # nothing left to vouch: a first start's cut, set aside as before
    assert len(open_checks(store, embedded_chroma=False)) == 1
