"""A memory's creation time with no UTC form is refused in Chinese, not an OverflowError (review rev51e 3)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from cli_support import invoke
from fakes import fake_assistant

import rag_core.cli as cli
from rag_core import Principal
from rag_core.text.inputs import InputError

LOCAL = Principal(user="local", role="admin")
NO_UTC_FORM = ("9999-12-31T23:00:00-05:00", "0001-01-01T00:00:00+08:00")


@pytest.mark.parametrize("when", NO_UTC_FORM)
def test_remember_refuses_a_time_with_no_utc_form(tmp_path, when):
    a = fake_assistant(tmp_path / "store")
    with pytest.raises(InputError, match="超出范围"):
        a.remember("bob", "我在杭州办公室", created_at=datetime.fromisoformat(when), actor=LOCAL)
    assert a.list_memories("bob", actor=LOCAL) == []


@pytest.mark.parametrize("when", NO_UTC_FORM)
def test_cli_memory_add_says_the_time_is_out_of_range(capsys, monkeypatch, tmp_path, when):
    monkeypatch.setattr(cli, "open_assistant", lambda args: fake_assistant(Path(args.data_dir)))
    r = invoke(capsys, "--data-dir", str(tmp_path / "store"), "memory", "add", "我在杭州办公室", "--user", "bob",
               "--created-at", when)
    assert r.exit_code != 0 and "超出范围" in r.stderr and "Error" not in r.stderr, r.stderr
