"""`Assistant.backup` refuses a blank destination as `backup_data_dir` does: "   " made a folder named three spaces
in the working directory (password hashes included), "" backed up into the working directory (review 51).

Fake embedder, real Chroma, SQLite and jieba; each test failed before its fix.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.errors import RagError


def test_the_instance_backup_refuses_a_blank_destination(tmp_path: Path, monkeypatch) -> None:
    a = fake_assistant(tmp_path / "store")
    a.ingest_bytes("# 年假\n\n第一条 年假5天。\n".encode(), "leave.md")
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    for blank in ("", "   "):
        with pytest.raises(RagError, match="请给出备份目录"):
            a.backup(blank)
    assert list(here.iterdir()) == []
