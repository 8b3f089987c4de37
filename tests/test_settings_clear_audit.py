"""A clear of the settings page's changes that the engine refuses is in the audit trail as failed, as a refused
save is (it wrote no row at all)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import fake_assistant
from test_settings_fix51b_unreadable import SAVED_FILE, store_with

from rag_core import Principal, SettingsError

LOCAL = Principal(user="local", role="admin")


def test_a_refused_clear_leaves_a_failed_row(tmp_path, monkeypatch) -> None:
    assistant = fake_assistant(store_with(tmp_path))
    unlink = Path.unlink

    def refusing(self: Path, missing_ok: bool = False) -> None:
        if self.name == SAVED_FILE:
            raise PermissionError(13, "Permission denied", str(self))
        return unlink(self, missing_ok=missing_ok)

    monkeypatch.setattr(Path, "unlink", refusing)
    with pytest.raises(SettingsError):
        assistant.forget_saved_settings(actor=LOCAL)
    rows = [r for r in assistant.audit_entries(actor=LOCAL) if r.action == "settings.change"]
    assert [r.outcome for r in rows] == ["failed"] and "没有清除" in rows[0].detail, rows
