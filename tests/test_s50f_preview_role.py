"""A preview audience (`--role`, `role=`) must be one the engine or a document names, else it is refused.

`search 高管年终奖是多少 --role HR` or `--role 管理者` previewed silently as an unknown audience ("all" only),
so an administrator checking what HR sees was told HR sees nothing. Fake embedder, real Chroma, SQLite and
jieba; the CLI runs in-process on the fake facade.
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
BONUS = "# 高管薪酬制度\n\n第一条 高管年终奖为十二个月基本工资。\n"


@pytest.fixture()
def run(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    data = tmp_path / "store"
    seeded = fake_assistant(data)
    assert seeded.ingest_bytes(BONUS.encode(), "高管薪酬.md", audience=["hr"], actor=ADMIN).ok
    assert seeded.ingest_bytes("# 财务制度\n\n第一条 报销单每月五日前提交。\n".encode(), "财务.md",
                               audience=["finance"], actor=ADMIN).ok
    monkeypatch.setattr(cli, "open_assistant", lambda args: fake_assistant(Path(args.data_dir)))
    return lambda *args: invoke(capsys, "--data-dir", str(data), *args)


@pytest.mark.parametrize("command", ["search", "ask"])
@pytest.mark.parametrize("label", ["HR", "管理者", "hr "])
def test_an_unknown_preview_label_is_refused_naming_the_valid_ones(run, command, label):
    result = run(command, "高管年终奖是多少", "--role", label)
    assert result.exit_code != 0 and result.stdout == ""
    assert result.stderr.startswith("错误：") and result.stderr.count("\n") == 1
    assert all(valid in result.stderr for valid in ("all", "hr", "managers", "finance")), result.stderr


def test_known_labels_and_one_a_document_carries_still_preview(run):
    shown = run("search", "高管年终奖是多少", "--role", "hr", "--json")
    assert shown.json()["hits"] and shown.json()["hits"][0]["doc_id"] == "高管薪酬"
    assert run("search", "高管年终奖是多少", "--role", "managers", "--json").json()["hit_count"] == 0
    assert run("search", "报销单什么时候交", "--role", "finance", "--json").exit_code == 0


def test_the_facade_refuses_an_unknown_preview_label(tmp_path):
    assistant = fake_assistant(tmp_path / "store")
    with pytest.raises(RagError, match="managers"):
        assistant.search("年假有几天", role="管理者", actor=ADMIN)
    assert assistant.search("年假有几天", role=None, actor=ADMIN).hit_count == 0
