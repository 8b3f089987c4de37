"""`doctor` reads the settings page's saved changes as a start reads them, and says what the start says.

A damaged settings.json gave doctor "all ok" while the app warned at every start.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.assistant import Assistant

ROOT = Path(__file__).resolve().parent.parent
POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n"


@pytest.fixture()
def store(tmp_path: Path) -> Path:
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(POLICY.encode(), "leave.md").ok
    data = Path(a.settings.data_dir)
    a.catalog.close()
    del a
    gc.collect()
    return data


def _settings_row(data: Path):
    rows = [c for c in Assistant.doctor_data_dir(data) if c.file == "settings.json"]
    assert len(rows) == 1, rows
    return rows[0]


def test_a_damaged_settings_file_is_reported_as_the_start_reports_it(store: Path) -> None:
    (store / "settings.json").write_bytes(b"\x00\xff garbage {")
    row = _settings_row(store)
    assert not row.ok and row.status == "damaged"
    start = [n for n in fake_assistant(store).store_notices if n.startswith("settings.json")]
    assert start and row.line() == "settings.json：" + start[0].removeprefix("settings.json")


def test_a_refused_knob_is_reported_too(store: Path) -> None:
    (store / "settings.json").write_text('{"chunk_size": -5}', encoding="utf-8")
    row = _settings_row(store)
    assert not row.ok and "chunk_size" in row.line()


def test_a_healthy_settings_file_is_ok(store: Path) -> None:
    (store / "settings.json").write_text('{"top_k": 5}', encoding="utf-8")
    assert _settings_row(store).ok


def test_cli_doctor_exits_1_on_a_damaged_settings_file(store: Path) -> None:
    (store / "settings.json").write_bytes(b"\x00\xff garbage {")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
    done = subprocess.run([sys.executable, "-m", "rag_core", "--data-dir", str(store), "doctor"],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "有问题 settings.json" in done.stdout
