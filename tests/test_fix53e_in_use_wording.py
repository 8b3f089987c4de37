"""A write refused because another process has the data dir open says that it may be another command, not only the
app, and what to do in either case (review 53 #3: a second CLI ingest beside a running one was told the app runs)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import invoke
from fakes import fake_assistant

import rag_core.cli as cli

ANNUAL = "# 年假制度\n\n员工工作满一年后，每年享有五天带薪年假。\n"


@pytest.mark.parametrize("args", [("ingest", "nianjia.md"), ("docs", "delete", "nianjia"), ("check",),
                                  ("faq", "add", "公司有班车吗？", "--answer", "有。")])
def test_a_write_beside_another_process_names_the_command_too(args, capsys, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "nianjia.md").write_text(ANNUAL, encoding="utf-8")
    assistant = fake_assistant(tmp_path / "store")
    assistant.index_open_elsewhere = lambda: True  # another `ingest` holds the data dir, or the app
    monkeypatch.setattr(cli, "open_assistant", lambda a: assistant)
    refused = invoke(capsys, "--data-dir", str(tmp_path / "store"), *args)
    assert refused.exit_code == 1
    line = refused.stderr.strip()
    assert len(line.splitlines()) == 1 and not line.startswith("错误：应用正在运行"), line
    assert "另一条命令" in line and "重试" in line and "停止应用" in line, line
