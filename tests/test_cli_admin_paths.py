"""What an administrator meets on the command line (review 328): an export over a device or pipe, a restore into
`.`, an answer whose turn was not kept, a set-aside copy's name, doctor's advice without a backup, a reader that
stops early, and the Chinese names of roles, audiences and memory kinds."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import pytest
from cli_support import invoke
from fakes import fake_assistant

import rag_core.cli as cli
import rag_core.storage.set_aside as set_aside

POLICY = "# 年假制度\n\n第一条 员工年假五天。\n"


@pytest.fixture()
def store(tmp_path: Path) -> Path:
    return tmp_path / "store"


@pytest.fixture()
def run(capsys, monkeypatch, store):
    def opened(args):
        assistant = fake_assistant(Path(args.data_dir))
        for line in assistant.store_notices:  # as `open_assistant` says them
            cli.say(f"注意：{line}", err=True)
        return assistant

    monkeypatch.setattr(cli, "open_assistant", opened)
    return lambda *args, data_dir=None: invoke(capsys, "--data-dir", str(data_dir or store), *args)


@pytest.fixture()
def library(run, tmp_path: Path):
    policy = tmp_path / "年假.md"
    policy.write_text(POLICY, encoding="utf-8")
    assert run("ingest", str(policy)).exit_code == 0
    return run


def test_an_export_never_replaces_a_pipe_or_a_device(library, tmp_path: Path) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    refused = library("insights-export", "gaps", "--out", str(pipe), "--force")
    assert refused.exit_code == 1 and "不是普通文件" in refused.stderr
    assert pipe.is_fifo()


def test_a_restore_into_the_current_folder(library, store: Path, tmp_path: Path, monkeypatch) -> None:
    assert library("backup", str(tmp_path / "bk")).exit_code == 0
    monkeypatch.chdir(store)
    restored = library("restore", str(tmp_path / "bk"), data_dir=".")
    assert restored.exit_code == 0, restored.stderr
    assert "Traceback" not in restored.stderr and list(tmp_path.glob("store.before-restore-*"))


def test_ask_says_a_turn_was_not_kept(library, store: Path) -> None:
    (store / "conversations.sqlite3").write_bytes(b"garbage" * 2000)
    said = library("ask", "年假有几天？", "--conversation", "c1")
    assert said.exit_code == 0 and "注意：conversations.sqlite3" in said.stderr and "不会保存" in said.stderr


def test_a_set_aside_copy_is_named_as_it_is_on_disk(library, store: Path, monkeypatch) -> None:
    class Pinned(datetime):
        @classmethod
        def now(cls, tz=None):
            return datetime(2026, 12, 7, 1, 47, 28, 576969, tzinfo=UTC)  # run together, 014728576969 read as a phone

    monkeypatch.setattr(set_aside, "datetime", Pinned)
    chroma_db = store / "chroma" / "chroma.sqlite3"
    data = bytearray(chroma_db.read_bytes())
    data[100:4000] = os.urandom(3900)
    chroma_db.write_bytes(bytes(data))
    said = library("search", "年假")
    [moved] = [p.name for p in store.iterdir() if ".damaged-" in p.name and not p.name.endswith(("-wal", "-shm"))]
    assert moved in said.stderr, said.stderr


@pytest.mark.parametrize("name", ["conversations.sqlite3", "insights.sqlite3", "standard_answers.sqlite3"])
def test_doctor_gives_a_fix_without_a_backup(library, store: Path, name: str) -> None:
    library("ask", "年假有几天？", "--conversation", "c1")
    library("faq", "add", "年假几天", "--answer", "五天。")
    (store / name).write_bytes(b"garbage" * 2000)
    said = library("doctor")
    line = next(line for line in said.stdout.splitlines() if name in line)
    assert "没有备份时把它移走" in line, line


def test_a_reader_that_stops_early_is_no_error(capsys) -> None:
    def gone(args, assistant):
        raise BrokenPipeError(32, "Broken pipe")

    args = cli.build_parser().parse_args(["--data-dir", "x", "doctor"])
    args.handler = gone
    assert cli._run(args, False) == 141 and capsys.readouterr().err == ""


def test_roles_audiences_and_kinds_in_chinese(library) -> None:
    assert library("faq", "add", "年假几天", "--answer", "五天。", "--audience", "managers").exit_code == 0
    assert "受众 管理者" in library("faq", "list").stdout
    assert library("memory", "add", "--user", "zhang", "--kind", "preference", "回答简短一些").exit_code == 0
    assert "［偏好］" in library("memory", "list", "--user", "zhang").stdout


def test_every_kept_copy_is_named_with_a_stamp_the_masker_leaves() -> None:
    from rag_core.settings import ASIDE_STAMP
    from rag_core.text.pii import redact_text

    stamp = datetime(2026, 12, 7, 1, 47, 28, 576969, tzinfo=UTC).strftime(ASIDE_STAMP)
    for name in (f"settings.original-{stamp}.json", f"chroma.damaged-{stamp}", f"store.before-restore-{stamp}"):
        assert redact_text(name) == name
