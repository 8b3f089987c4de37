"""Account names that are personal data, and the CLI's way to restore a backup without accounts (stop 49 review)."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core.errors import RagError
from rag_core.types import Principal

ADMIN = Principal("wang", "admin")


@pytest.mark.parametrize("name", ["13812345678", "zhang.san@example.com", "110101199003074514"])
def test_a_name_that_is_personal_data_is_refused(tmp_path, name: str) -> None:
    """Names are shown everywhere (the sidebar, the audit's actor column): a phone number was stored as one."""
    a = fake_assistant(tmp_path / "store")
    a.add_user("wang", "admin", "password123", actor=ADMIN)
    with pytest.raises(RagError, match="用户名不能是手机号"):
        a.add_user(name, "employee", "password123", actor=ADMIN)
    assert [u.name for u in a.list_users(actor=ADMIN)] == ["wang"]


def test_the_cli_can_restore_a_backup_without_accounts_when_told_to(tmp_path, capsys) -> None:
    """The facade refuses such a restore unless told; the CLI had no way to tell it."""
    from test_admin_fixes_backup import _team_after_desktop_backup

    from rag_core import cli

    data = _team_after_desktop_backup(tmp_path)
    assert cli.main(["--data-dir", str(data), "restore", str(tmp_path / "old")]) == 1
    assert "allow-no-accounts" in capsys.readouterr().err
    assert cli.main(["--data-dir", str(data), "restore", str(tmp_path / "old"), "--allow-no-accounts"]) == 0
    assert not fake_assistant(data).team_mode
