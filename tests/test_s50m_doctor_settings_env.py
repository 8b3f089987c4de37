"""doctor checks settings.json against the settings the app runs with (environment and .env), not the defaults.

settings.json {"chunk_overlap": 300} with RAG_CHUNK_SIZE=800 started fine, yet doctor said
有问题 settings.json：…chunk_overlap 的值现在不被接受.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.assistant import Assistant

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture()
def store(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)  # no .env of the checkout
    data = tmp_path / "store"
    fake_assistant(data).release_data_dir()
    (data / "settings.json").write_text('{"chunk_overlap": 300}', encoding="utf-8")
    return data


def _row(checks):
    rows = [c for c in checks if c.file == "settings.json"]
    assert len(rows) == 1, rows
    return rows[0]


def test_doctor_on_a_data_dir_reads_the_environment(store: Path, monkeypatch) -> None:
    monkeypatch.setenv("RAG_CHUNK_SIZE", "800")
    row = _row(Assistant.doctor_data_dir(store))
    assert row.ok, row.line()


def test_doctor_on_a_data_dir_reads_dot_env(store: Path, tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("RAG_CHUNK_SIZE=800\n", encoding="utf-8")
    try:
        row = _row(Assistant.doctor_data_dir(store))
    finally:
        os.environ.pop("RAG_CHUNK_SIZE", None)  # load_dotenv set it for this process
    assert row.ok, row.line()


def test_a_running_assistants_doctor_uses_its_own_settings(store: Path) -> None:
    app = fake_assistant(store, chunk_size=800)  # as RAG_CHUNK_SIZE=800 would give it
    assert app.settings.chunk_overlap == 300 and not app.store_notices
    row = _row(app.doctor())
    assert row.ok, row.line()


def test_a_value_the_running_settings_refuse_is_still_named(store: Path, monkeypatch) -> None:
    (store / "settings.json").write_text('{"chunk_overlap": 900}', encoding="utf-8")
    monkeypatch.setenv("RAG_CHUNK_SIZE", "800")
    row = _row(Assistant.doctor_data_dir(store))
    assert not row.ok and "chunk_overlap" in row.line()


def test_cli_doctor_with_the_environment_says_ok(store: Path) -> None:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False", "RAG_CHUNK_SIZE": "800"}
    done = subprocess.run([sys.executable, "-m", "rag_core", "--data-dir", str(store), "doctor"],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    line = [x for x in done.stdout.splitlines() if "settings.json" in x]
    assert line and line[0].startswith("正常"), done.stdout + done.stderr
