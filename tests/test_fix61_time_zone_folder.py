"""Review 61 D2: a time zone naming one of tzdata's folders ('Asia', 'America') is refused in Chinese by the settings
check, and the helpers that fall back to UTC for a bad zone do so for it too (ZoneInfo raises IsADirectoryError)."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest

from rag_core.cli.insights import _office_zone
from rag_core.errors import SettingsError
from rag_core.memory.created import office_zone
from rag_core.settings import Settings

FOLDERS = ["Asia", "America", "Europe"]


@pytest.mark.parametrize("name", FOLDERS)
def test_a_folder_of_tzdata_is_refused_by_the_settings_check(name):
    with pytest.raises(SettingsError, match=f"时区 '{name}' 无法识别"):
        Settings(timezone=name).validate()


@pytest.mark.parametrize("name", FOLDERS)
def test_a_folder_of_tzdata_reads_as_utc_where_a_bad_zone_does(name):
    from datetime import UTC

    assert office_zone(name) is UTC
    assert _office_zone(SimpleNamespace(settings=SimpleNamespace(timezone=name))) is UTC


def test_users_list_prints_with_a_folder_for_a_zone(tmp_path, capsys):
    from fakes import fake_assistant

    from rag_core.cli.users import list_users

    a = fake_assistant(tmp_path / "s")
    a.act_as_local_administrator()
    a.add_user("wang", "admin", "password123")
    a._settings = replace(a.settings, timezone="Asia")  # as a start that skipped the check would hold it
    assert list_users(SimpleNamespace(json=False), a) == 0
    assert "wang" in capsys.readouterr().out
