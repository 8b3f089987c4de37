"""`eval` on a question set it cannot read says why in Chinese, not with the OS's English reason (review 53 #4:
`eval /nonexist.jsonl` printed 无法读取（No such file or directory）)."""

from __future__ import annotations

import errno
import re
from pathlib import Path

from cli_support import invoke
from fakes import fake_assistant

import rag_core.cli as cli
from rag_core.cli.output import os_error_text


def test_eval_on_a_missing_question_set_says_why_in_chinese(capsys, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    assistant = fake_assistant(tmp_path / "store")
    monkeypatch.setattr(cli, "open_assistant", lambda args: assistant)
    missing = str(tmp_path / "nonexist.jsonl")
    refused = invoke(capsys, "--data-dir", str(tmp_path / "store"), "eval", missing)
    assert refused.exit_code == 1 and "找不到这个文件" in refused.stderr, refused.stderr
    assert not re.search(r"[A-Za-z]{4,} [A-Za-z]{2,}", refused.stderr.replace(missing, "")), refused.stderr


def test_an_os_error_of_another_kind_is_said_in_chinese_too() -> None:
    for code in (errno.ENAMETOOLONG, errno.EROFS, errno.ENOSPC, errno.ELOOP):
        said = os_error_text(OSError(code, "English reason", "/a/b.jsonl"))
        assert said.startswith("/a/b.jsonl：") and "English" not in said, said
