"""Review 392 (the command line): no English from argparse, the OS or jieba; no traceback without stdin or stdout;
one exit status for one bad date; the author of a standard answer named as people read it; a missing backup
folder said as missing; every argument explained in --help."""

from __future__ import annotations

import errno
import os
import sys

import pytest
from cli_support import invoke
from fakes import fake_assistant

import rag_core.cli
from rag_core.cli import build_parser, main
from rag_core.documents.safe_read import read_regular_file
from rag_core.errors import IngestError


@pytest.fixture()
def fake_store(monkeypatch, tmp_path):
    """The CLI on the fake-embedder facade: no model loads in the fast tier."""
    monkeypatch.setattr(rag_core.cli, "open_assistant", lambda args: fake_assistant(tmp_path / "store"))
    return tmp_path


def _usage_error(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as exit_info:
        main(list(argv))
    assert exit_info.value.code == 2
    return capsys.readouterr().err


@pytest.mark.parametrize("argv", [["ingest", "--e", "x", "a.md"], ["search", "年假", "--json=1"]])
def test_argparses_last_english_messages_are_said_in_chinese(argv, monkeypatch, capsys) -> None:
    monkeypatch.setattr(rag_core.cli, "open_assistant", lambda args: pytest.fail("opened the store"))
    err = _usage_error(capsys, *argv)
    assert "ambiguous" not in err and "ignored" not in err and "选项" in err, err


@pytest.mark.parametrize("command", ["gaps", "usage", "audit"])
def test_a_bad_date_exits_2_from_every_command(command, monkeypatch, capsys) -> None:
    monkeypatch.setattr(rag_core.cli, "open_assistant", lambda args: pytest.fail("opened the store"))
    assert "日期" in _usage_error(capsys, command, "--since", "2026-13-01")


def test_no_stdin_for_a_password_is_one_chinese_line(fake_store, monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", None)
    result = invoke(capsys, "users", "add", "admin1", "--role", "admin")
    assert result.exit_code == 1 and "标准输入" in result.stderr and "Traceback" not in result.stderr


def test_no_stdout_still_runs_the_command(fake_store, monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdout", None)
    assert main(["users", "list"]) == 0


def test_an_unreadable_file_is_refused_in_chinese(tmp_path, monkeypatch) -> None:
    path = tmp_path / "考勤制度.md"
    path.write_text("第一条 八小时工作制。", encoding="utf-8")

    def refuse(*_args, **_kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    monkeypatch.setattr(os, "open", refuse)  # root reads any file: the refusal is played
    with pytest.raises(IngestError) as refused:
        read_regular_file(str(path), max_bytes=1 << 20, name=path.name)
    assert "Permission" not in str(refused.value) and "没有读写权限" in str(refused.value)


def test_faq_list_names_the_desktop_author_as_people_read_it(fake_store, capsys) -> None:
    assert invoke(capsys, "faq", "add", "实习生有年假吗？", "--answer", "实习生不享受带薪年假。").exit_code == 0
    listed = invoke(capsys, "faq", "list").stdout
    assert "本机用户" in listed and " local " not in listed, listed


def test_restoring_a_folder_that_does_not_exist_says_so(fake_store, capsys) -> None:
    result = invoke(capsys, "restore", str(fake_store / "no-such-backup"))
    assert result.exit_code == 1 and "不存在" in result.stderr and "不是完整的备份" not in result.stderr


def test_every_argument_is_explained_in_help() -> None:
    bare: list[str] = []

    def walk(parser, path: list[str]) -> None:
        for action in parser._actions:
            if isinstance(getattr(action, "choices", None), dict):
                for name, sub in action.choices.items():
                    walk(sub, [*path, name])
            elif not action.help and action.dest != "help":
                bare.append(f"{' '.join(path)}: {'/'.join(action.option_strings) or action.dest}")

    walk(build_parser(), [])
    assert not bare, bare


def test_jiebas_cache_is_kept_in_a_folder_of_this_users_own(tmp_path, monkeypatch) -> None:
    import tempfile

    from rag_core.text import tokenizer

    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(tmp_path))
    own = tokenizer._own_cache_dir()
    assert own is not None and own.startswith(str(tmp_path)) and os.stat(own).st_mode & 0o077 == 0
    if hasattr(os, "getuid"):  # a folder another user made first (planted) is not used
        monkeypatch.setattr(os, "getuid", lambda: os.stat(own).st_uid + 1)
        other = os.path.join(str(tmp_path), f"hr-assistant-jieba-{os.getuid()}")
        os.makedirs(other)
        assert tokenizer._own_cache_dir() is None


def test_resetting_the_password_of_no_account_says_so_before_asking_for_one(fake_store, monkeypatch, capsys) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("short\nother\n"))  # two passwords that would be refused
    result = invoke(capsys, "users", "reset-password", "zhangsan")
    assert result.exit_code == 1 and "找不到用户" in result.stderr and "不一致" not in result.stderr, result.stderr


def test_a_reading_command_on_a_mistyped_data_dir_creates_nothing(tmp_path, capsys) -> None:
    typo = tmp_path / "stor"
    for argv in (["users", "list"], ["docs", "list"], ["audit"], ["memory", "list", "--user", "li"]):
        result = invoke(capsys, "--data-dir", str(typo), *argv)
        assert result.exit_code == 1 and "不存在" in result.stderr, (argv, result)
    assert not typo.exists()


@pytest.mark.parametrize(("argv", "said"), [
    (["nosuch"], "命令 没有"), (["memory", "nosuch"], "命令 没有"), (["restore"], "缺少参数：备份目录"),
])
def test_usage_errors_name_arguments_in_chinese(argv, said, monkeypatch, capsys) -> None:
    monkeypatch.setattr(rag_core.cli, "open_assistant", lambda args: pytest.fail("opened the store"))
    err = _usage_error(capsys, *argv)
    assert said in err and "command" not in err and "source" not in err, err


def test_option_values_are_named_in_chinese_in_help(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["ingest", "--help"])
    shown = capsys.readouterr().out
    assert "--doc-id 文档ID" in shown and "DOC_ID" not in shown, shown
