"""`docs delete` and `docs list` say what the documents page says (review 322): the delete the version history, the
scheduled versions that will never take effect and the standard answers held for review; the list the versions
scheduled to replace a document."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from cli_support import invoke
from fakes import fake_assistant

import rag_core.cli as cli

LATER = (datetime.date.today() + datetime.timedelta(days=30)).isoformat()
V1 = "# 裁员补偿办法\n\n第一条 企鹅计划裁撤岗位的补偿标准为 N+3。\n"


@pytest.fixture()
def library(capsys, monkeypatch, tmp_path):
    store = tmp_path / "store"
    assistant = fake_assistant(store)
    monkeypatch.setattr(cli, "open_assistant", lambda args: assistant)
    assert assistant.ingest_bytes(V1.encode(), "comp.md").ok
    assert assistant.ingest_bytes(V1.replace("N+3", "N+4").encode(), "comp.md", effective_date=LATER).ok
    return assistant, lambda *args: invoke(capsys, "--data-dir", str(Path(store)), *args)


def test_the_list_names_the_version_scheduled_to_replace_one(library) -> None:
    _, run = library
    listed = run("docs", "list")
    assert listed.exit_code == 0 and f"v2 将于 {LATER} 生效" in listed.stdout
    [doc] = run("docs", "list", "--json").json()["documents"]
    assert [v["version"] for v in doc["scheduled"]] == [2]


def test_the_delete_says_what_went_with_it(library) -> None:
    assistant, run = library
    assistant.add_standard_answer("企鹅计划裁撤补偿标准是多少", "补偿标准为 N+3。", sources=["comp"],
                                  clauses=["《裁员补偿办法》第一条 企鹅计划裁撤岗位的补偿标准为 N+3。"])
    said = run("docs", "delete", "comp")
    assert said.exit_code == 0 and not assistant.document_versions("comp")
    assert "版本历史" in said.stdout and f"v2（原定 {LATER} 生效），到期也不会再生效" in said.stdout
    assert "1 条依据它的标准答复（“企鹅计划裁撤补偿标准是多少”）已暂停使用" in said.stdout
