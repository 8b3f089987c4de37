"""Restoring a backup from before the first account (admin review; failed before the fix)."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core.assistant import Assistant
from rag_core.errors import RagError
from rag_core.facade.access import LOCAL_ADMIN

DOC = "# 考勤制度\n\n第一条 员工每天工作八小时。\n".encode()


def _team_after_desktop_backup(tmp_path):
    data_dir = tmp_path / "store"
    assistant = fake_assistant(data_dir)
    assistant.ingest_bytes(DOC, "k.md")
    Assistant.backup_data_dir(data_dir, tmp_path / "old", actor=LOCAL_ADMIN)  # before the first account
    assistant.add_user("wang", "admin", "password123")
    assert assistant.team_mode
    return data_dir


def test_restore_without_accounts_over_accounts_is_refused(tmp_path):
    data_dir = _team_after_desktop_backup(tmp_path)
    with pytest.raises(RagError, match="allow-no-accounts"):
        Assistant.restore_data_dir(tmp_path / "old", data_dir, actor=LOCAL_ADMIN)
    assert fake_assistant(data_dir).team_mode  # nothing was replaced


def test_restore_without_accounts_when_asked_for(tmp_path):
    data_dir = _team_after_desktop_backup(tmp_path)
    Assistant.restore_data_dir(tmp_path / "old", data_dir, actor=LOCAL_ADMIN, allow_no_accounts=True)
    assert not fake_assistant(data_dir).team_mode
