"""Backup, restore and doctor on a data dir (or a backup) a newer version wrote (review rev-own3 #1): restore refuses
such a backup before anything is staged or swapped, backup refuses such a data dir and writes nothing into it, doctor
reports it as a problem (the CLI exits 1) in the start's own line, and a restore never deletes a vector layout it does
not know."""

from __future__ import annotations

import argparse
import gc
import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.assistant import Assistant
from rag_core.cli.maintenance import doctor as doctor_command
from rag_core.errors import RagError
from rag_core.facade.access import LOCAL_ADMIN
from rag_core.facade.data_format import KNOWN_LAYOUTS
from rag_core.storage.backup import restore_data_dir

NEWER = {"format": "INSERT OR REPLACE INTO meta VALUES ('data_format', '2')",
         "layout": "INSERT OR REPLACE INTO meta VALUES ('vector_layout', 'audience-partitions-9')"}
SAID = "数据目录由较新版本的程序写入"


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("newer")
    data = root / "data"
    assistant = fake_assistant(data)
    assistant.ingest_bytes("# 年假制度\n\n## 第一条\n\n年休假5天。\n".encode(), "年假制度.md", actor=LOCAL_ADMIN)
    assistant.release_data_dir()
    assistant.catalog.close()
    del assistant
    gc.collect()
    backup = root / "backup"
    Assistant.backup_data_dir(data, backup, actor=LOCAL_ADMIN)
    return data, backup


def _newer(path: Path, change: str) -> Path:
    con = sqlite3.connect(path / "catalog.sqlite3")
    con.execute(NEWER[change])
    con.commit()
    con.close()
    return path


def _files(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and not p.name.endswith(("-shm", "-wal"))}


@pytest.mark.parametrize("change", sorted(NEWER))
def test_restore_refuses_a_newer_backup_before_staging(made, tmp_path: Path, change: str) -> None:
    data, backup = made
    source = _newer(Path(shutil.copytree(backup, tmp_path / "bk")), change)
    target = Path(shutil.copytree(data, tmp_path / "target"))
    before = _files(target)
    with pytest.raises(RagError) as refused:
        Assistant.restore_data_dir(source, target, actor=LOCAL_ADMIN)
    assert SAID in str(refused.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bk", "target"]  # nothing staged, nothing moved aside
    assert _files(target) | {"audit.sqlite3": ""} == before | {"audit.sqlite3": ""}  # only its refusal's audit row


def test_a_restore_never_deletes_a_layout_it_does_not_know(made, tmp_path: Path) -> None:
    data, backup = made
    source = _newer(Path(shutil.copytree(backup, tmp_path / "bk")), "layout")
    target = Path(shutil.copytree(data, tmp_path / "target"))
    before = _files(target)
    with pytest.raises(RagError, match="较新版本"):
        restore_data_dir(source, target, known_layouts=KNOWN_LAYOUTS)  # without the facade's check of the source
    assert _files(target) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bk", "target"]


@pytest.mark.parametrize("change", sorted(NEWER))
def test_backup_refuses_a_newer_data_dir_and_writes_nothing_into_it(made, tmp_path: Path, change: str) -> None:
    data, _ = made
    newer = _newer(Path(shutil.copytree(data, tmp_path / "data")), change)
    before = _files(newer)
    with pytest.raises(RagError, match=SAID):
        Assistant.backup_data_dir(newer, tmp_path / "bk", actor=LOCAL_ADMIN)
    assert not (tmp_path / "bk").exists()
    assert _files(newer) == before  # no audit row either


@pytest.mark.parametrize("change", sorted(NEWER))
def test_doctor_calls_a_newer_data_dir_a_problem(made, tmp_path: Path, change: str, monkeypatch, capsys) -> None:
    data, _ = made
    newer = _newer(Path(shutil.copytree(data, tmp_path / "data")), change)
    checks = Assistant.doctor_data_dir(newer, actor=LOCAL_ADMIN)
    problems = [c for c in checks if not c.ok]
    assert problems and SAID in problems[0].line(), [c.line() for c in checks]
    monkeypatch.delenv("CHROMA_HOST", raising=False)
    assert doctor_command(argparse.Namespace(data_dir=newer, json=False)) == 1
    assert SAID in capsys.readouterr().out
    assert all(c.ok for c in Assistant.doctor_data_dir(data, actor=LOCAL_ADMIN))  # this version's: still 正常
