"""Foreign shapes in the data dir's own bookkeeping: the start's check notes and a backup's manifest.

`.open_checks.json` that is valid JSON but not an object stopped every start with AttributeError;
a backup's manifest could name files `backup` itself never writes (hidden files, SQLite side files),
and restore copied them into the data dir.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.assistant import Assistant
from rag_core.storage.health import CHECKED, open_checks

POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n"


@pytest.fixture()
def store(tmp_path: Path) -> Path:
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(POLICY.encode(), "leave.md").ok
    return Path(a.settings.data_dir)


@pytest.mark.parametrize("payload", ["[]", "null", '"x"', "1", "[[1, 2]]"])
def test_check_notes_of_another_shape_are_ignored(store: Path, payload: str) -> None:
    (store / CHECKED).write_text(payload, encoding="utf-8")
    assert open_checks(store) == []
    assert isinstance(json.loads((store / CHECKED).read_text(encoding="utf-8")), dict)  # rewritten as notes


def test_the_app_starts_over_check_notes_that_are_a_list(store: Path) -> None:
    (store / CHECKED).write_text("[]", encoding="utf-8")
    assert fake_assistant(store).list_documents()


def test_restore_leaves_out_names_a_backup_never_writes(store: Path, tmp_path: Path) -> None:
    backup = tmp_path / "backup"
    Assistant.backup_data_dir(store, backup)
    planted = [CHECKED, ".evil", "catalog.sqlite3-wal", "chroma.damaged-20250101T000000/x"]
    (backup / CHECKED).write_text("[]", encoding="utf-8")
    (backup / ".evil").write_text("x", encoding="utf-8")
    (backup / "catalog.sqlite3-wal").write_bytes(b"\0" * 64)
    (backup / "chroma.damaged-20250101T000000").mkdir()
    (backup / "chroma.damaged-20250101T000000" / "x").write_text("x", encoding="utf-8")
    manifest = json.loads((backup / "backup.json").read_text(encoding="utf-8"))
    manifest["files"] += planted
    (backup / "backup.json").write_text(json.dumps(manifest), encoding="utf-8")
    target = tmp_path / "restored"
    report = Assistant.restore_data_dir(backup, target)
    for name in planted:
        assert not (target / name).exists(), name
        assert name not in report.files
    assert report.documents == 1
    assert fake_assistant(target).list_documents()
