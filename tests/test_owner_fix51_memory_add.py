"""`remember` audits someone else's memory with its real outcome, and refuses a creation time in the future
(review rev51b items 11 and 8: a refused `memory add` was audited 'ok'; --created-at 9999-12-31 stayed fresh forever)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from cli_support import invoke
from fakes import fake_assistant

import rag_core.cli as cli
from rag_core import Principal
from rag_core.errors import RagError

LOCAL = Principal(user="local", role="admin")


def add_rows(a) -> list[tuple[str, str]]:
    return [(e.target, e.outcome) for e in a.audit_entries(action="memory.add", actor=LOCAL)]


@pytest.mark.parametrize("content", ["长" * 1001, "   ", b"\xff\xfe"])
def test_a_refused_memory_for_someone_else_is_audited_as_failed(tmp_path, content):
    a = fake_assistant(tmp_path / "store")
    with pytest.raises(RagError):
        a.remember("bob", content, actor=LOCAL)
    assert add_rows(a) == [("bob 的记忆", "failed")]
    a.remember("bob", "我在上海办公室", actor=LOCAL)
    assert add_rows(a)[0] == ("bob 的记忆", "ok")  # newest first


def test_cli_memory_add_too_long_is_not_audited_ok(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "open_assistant", lambda args: fake_assistant(Path(args.data_dir)))
    store = tmp_path / "store"
    r = invoke(capsys, "--data-dir", str(store), "memory", "add", "长" * 1001, "--user", "bob")
    assert r.exit_code == 1
    assert [outcome for _target, outcome in add_rows(fake_assistant(store))] == ["failed"]


def test_a_creation_time_in_the_future_is_refused(tmp_path):
    a = fake_assistant(tmp_path / "store")
    with pytest.raises(RagError, match="晚于现在"):
        a.remember("local", "我家有一只猫", created_at=datetime(9999, 12, 31, tzinfo=UTC), actor=LOCAL)
    assert a.list_memories("local", actor=LOCAL) == []
    a.remember("local", "我在上海办公室", created_at=datetime.now(UTC) + timedelta(minutes=1), actor=LOCAL)  # clock skew
    a.remember("local", "我喜欢喝茶", created_at=datetime(2024, 3, 1), actor=LOCAL)  # naive: taken as UTC
    assert len(a.list_memories("local", actor=LOCAL)) == 2


def test_cli_memory_add_created_at_in_the_future_says_why(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "open_assistant", lambda args: fake_assistant(Path(args.data_dir)))
    r = invoke(capsys, "--data-dir", str(tmp_path / "store"), "memory", "add", "我家有一只猫", "--user", "zed",
               "--created-at", "9999-12-31T00:00:00+00:00")
    assert r.exit_code == 1 and "晚于现在" in r.stderr
