"""doctor says a data dir that cannot be written, with the start's own reason and remedy (review 54e #5).

doctor listed every file 正常 while nothing started (数据目录 … 无法写入（只读或没有权限）…). As root chmod does
not stop writes, so the writability probe is what the test turns off; the files are real.
"""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.errors import StoreDamaged
from rag_core.storage import store_check
from rag_core.storage.health import doctor, open_checks


@pytest.fixture()
def store(tmp_path: Path) -> Path:
    data = tmp_path / "store"
    assistant = fake_assistant(data)
    assert assistant.ingest_bytes("# 休假制度\n\n第一条 年假 5 天。\n".encode(), "leave.md").ok
    assistant.release_data_dir()
    del assistant
    gc.collect()
    return data


def test_fix54e_doctor_names_a_read_only_data_dir_as_the_start_does(store, monkeypatch):
    assert not [c for c in doctor(store) if c.file == str(store) and c.status == "unreadable"]
    monkeypatch.setattr(store_check, "_writable", lambda folder: Path(folder) != store)
    with pytest.raises(StoreDamaged) as refused:
        open_checks(store)
    rows = [c for c in doctor(store) if c.file == str(store)]
    assert [c.status for c in rows] == ["unreadable"] and not rows[0].ok
    assert "无法写入（只读或没有权限）" in rows[0].detail
    assert rows[0].detail in str(refused.value) and rows[0].fix in str(refused.value)
    assert "--data-dir" in rows[0].fix
