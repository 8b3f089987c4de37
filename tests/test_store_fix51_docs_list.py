"""`docs list` on an empty library says so, as `faq list` and `memory list` do (it printed nothing, exit 0)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import invoke
from fakes import fake_assistant

import rag_core.cli as cli


@pytest.fixture()
def store(monkeypatch, tmp_path) -> Path:
    monkeypatch.setattr(cli, "open_assistant", lambda args: fake_assistant(Path(args.data_dir)))
    (tmp_path / "store").mkdir()  # a reading command on a data dir that does not exist is refused (review 392 #6)
    return tmp_path / "store"


def test_docs_list_on_an_empty_library_says_there_is_none(capsys, store):
    r = invoke(capsys, "--data-dir", str(store), "docs", "list")
    assert r.exit_code == 0 and r.stdout.strip() == "（还没有文档）"
    assert invoke(capsys, "--data-dir", str(store), "docs", "list", "--json").json() == {"documents": []}


def test_docs_list_with_documents_lists_them_only(capsys, store, tmp_path):
    (tmp_path / "nianjia.md").write_text("# 年假制度\n\n员工每年享有五天带薪年假。\n", encoding="utf-8")
    assert invoke(capsys, "--data-dir", str(store), "ingest", str(tmp_path / "nianjia.md")).exit_code == 0
    lines = invoke(capsys, "--data-dir", str(store), "docs", "list").stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith("nianjia\tv1")
    json.loads(invoke(capsys, "--data-dir", str(store), "docs", "list", "--json").stdout)
