"""doctor run while the app uploads says no false problem (review 59, rev-maint t12).

An upload writes its chunks as a pending version before their vectors, then makes it current before it retires
the older one. doctor read that half-way state as problems and exited 1: "chroma/：99 条向量，文档目录有 118 块"
and "文档 w4 有 2 个同时生效的版本". A pending version's chunks are not counted, and the consistency checks run
only while the catalog's writer lock can be held; while a writer holds it, doctor says （应用正在写入，稍后再检查）.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.assistant import Assistant

POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n\n第二条 病假须提供医院诊断证明。\n"


@pytest.fixture()
def app(tmp_path: Path):
    assistant = fake_assistant(tmp_path / "store")
    assert assistant.ingest_bytes(POLICY.encode(), "leave.md").ok
    yield assistant
    assistant.catalog.close()
    assistant.release_data_dir()


def new_version(data_dir: Path, status: str) -> None:
    """What an upload of leave.md v2 has written so far: its chunks (no vectors yet) and its row in `status`."""
    con = sqlite3.connect(data_dir / "catalog.sqlite3")
    with con:
        con.execute("INSERT INTO documents SELECT doc_id, 2, title, source, audience, content_hash, chunk_count, "
                    "ingested_at, effective_date, ? FROM documents WHERE doc_id = 'leave'", (status,))
        con.execute("INSERT INTO chunks SELECT chunk_id || '-v2', doc_id, 2, idx, text, source, title, section, page, "
                    "audience, content_hash, ingested_at, overlap, tokens FROM chunks WHERE doc_id = 'leave'")
    con.close()


def problems(data_dir: Path) -> list[str]:
    return [c.line() for c in Assistant.doctor_data_dir(data_dir) if not c.ok]


def test_a_pending_versions_chunks_are_not_counted_against_the_vectors(app) -> None:
    data_dir = Path(app.settings.data_dir)
    new_version(data_dir, "pending")
    assert problems(data_dir) == []  # its vectors come next: not "N 条向量，文档目录有 2N 块"


def test_while_a_writer_holds_the_lock_doctor_says_so_instead_of_a_problem(app) -> None:
    data_dir = Path(app.settings.data_dir)
    with app.catalog.writer.hold():  # between switch_current and retiring v1: both current for a moment
        new_version(data_dir, "current")
        checks = Assistant.doctor_data_dir(data_dir)
    assert [c.line() for c in checks if not c.ok] == []
    shown = {c.file: c.detail for c in checks}
    assert "应用正在写入，稍后再检查" in shown["catalog.sqlite3"]
    assert "应用正在写入，稍后再检查" in shown["chroma/"]


def test_with_no_writer_at_work_two_versions_in_effect_are_still_a_problem(app) -> None:
    data_dir = Path(app.settings.data_dir)
    new_version(data_dir, "current")  # left by a crash or two writers without the lock: a real problem
    found = problems(data_dir)
    assert any("2 个同时生效的版本" in line for line in found)
    assert any(line.startswith("chroma/") for line in found)  # 2N chunks in effect, N vectors
