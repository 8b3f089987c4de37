"""The CLI upload: a refusal names the file masked, a stored file's warnings are printed, a refusal is audited.

`_each` printed the raw file name (张三_13812345678.md) in its refusal line; the report's warnings (the same
text already stored under another name) were shown only with --json; `ingest_file` refused a file too large
or unreadable without an audit row. Fake embedder, real Chroma, SQLite and jieba; the CLI runs in-process.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import invoke
from fakes import fake_assistant

import rag_core.cli as cli
from rag_core.errors import RagError
from rag_core.types import Principal

ADMIN = Principal("boss", "admin")
PHONE = "13812345678"
POLICY = "# 考勤制度\n\n第一条 员工每日上下班各打卡一次。\n"


@pytest.fixture()
def run(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    opened: list = []

    def open_fake(args):
        opened.append(fake_assistant(Path(args.data_dir)))
        return opened[-1]

    monkeypatch.setattr(cli, "open_assistant", open_fake)
    data = tmp_path / "store"

    def run_command(*args: str):
        return invoke(capsys, "--data-dir", str(data), *args)

    run_command.opened = opened
    return run_command


def test_an_unforeseen_refusal_names_the_file_masked(run, tmp_path, monkeypatch):
    policy = tmp_path / f"张三_{PHONE}.md"
    policy.write_text(POLICY, encoding="utf-8")

    def broken(self, path, **options):
        raise RagError("读取时出错，请重试")

    monkeypatch.setattr("rag_core.assistant.Assistant.estimate_file", broken)
    monkeypatch.setattr("rag_core.assistant.Assistant.ingest_file", broken)
    for extra in ((), ("--estimate",)):
        result = run("ingest", str(policy), *extra)
        assert result.exit_code == 1 and "读取时出错" in result.stderr
        assert PHONE not in result.stdout + result.stderr and "张三_" in result.stderr


def test_a_stored_files_warnings_are_printed(run, tmp_path):
    (tmp_path / "考勤.md").write_text(POLICY, encoding="utf-8")
    (tmp_path / "考勤副本.md").write_text(POLICY, encoding="utf-8")
    assert run("ingest", str(tmp_path / "考勤.md")).exit_code == 0
    copied = run("ingest", str(tmp_path / "考勤副本.md"))
    assert copied.exit_code == 0 and copied.stdout.startswith("考勤副本.md: 已索引")
    assert "同样的内容已经存为《考勤.md》" in copied.stderr


def test_a_file_refused_before_it_is_read_is_audited_masked(tmp_path):
    assistant = fake_assistant(tmp_path / "store", max_file_mb=0.001)
    big = tmp_path / f"张三_{PHONE}.md"
    big.write_text(POLICY * 100, encoding="utf-8")
    folder = tmp_path / "folder.md"
    folder.mkdir()
    for path in (big, folder):
        assert assistant.ingest_file(path, actor=ADMIN).status == "refused"
    rows = [e for e in assistant.audit_log.entries() if "document.upload" in e.target and e.outcome == "refused"]
    assert len(rows) == 2, rows
    assert all(PHONE not in e.target + e.detail for e in rows) and any("folder.md" in e.target for e in rows)
