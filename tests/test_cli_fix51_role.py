"""`ask` and `search` without --role read everything the acting person may read, as the chat page does (role=None);
--role stays an explicit preview (review rev51b defect 3: the CLI read only `all` documents, so HR's ask got
制度里没有写这一条 for HR policies and the turn landed on HR's gap list). Fake assistant: no model loads."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import invoke
from fakes import fake_assistant

import rag_core.cli as cli
from rag_core.facade.access import LOCAL_ADMIN

ANNUAL = "# 年假制度\n\n员工工作满一年后，每年享有五天带薪年假。年假须提前三天申请。\n"
HR_ONLY = "# HR内部薪酬调整办法\n\n绩效调薪幅度为百分之十，HR 内部掌握，不对员工公开。\n"
QUESTION = "绩效调薪幅度为百分之十"


@pytest.fixture()
def run(capsys, monkeypatch, tmp_path: Path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "open_assistant", lambda args: fake_assistant(Path(args.data_dir)))
    store = tmp_path / "store"
    (tmp_path / "nianjia.md").write_text(ANNUAL, encoding="utf-8")
    (tmp_path / "tiaoxin.md").write_text(HR_ONLY, encoding="utf-8")

    def run_command(*args: str):
        return invoke(capsys, "--data-dir", str(store), *args)

    assert run_command("ingest", str(tmp_path / "nianjia.md")).exit_code == 0
    assert run_command("ingest", str(tmp_path / "tiaoxin.md"), "--audience", "hr").exit_code == 0
    run_command.store = store
    return run_command


def test_cli_ask_reads_what_the_chat_page_reads(run):
    trace = run("ask", QUESTION, "--json").json()
    page = fake_assistant(run.store).ask(QUESTION, role=None, actor=LOCAL_ADMIN, remember=False)
    assert [h["doc_id"] for h in trace["hits"]] == [h.chunk.doc_id for h in page.search.hits]
    assert "tiaoxin" in [h["doc_id"] for h in trace["hits"]]
    assert all(QUESTION not in g["representative"] for g in run("gaps", "--json").json()["groups"])


def test_cli_search_reads_everything_by_default_and_role_all_previews(run):
    assert "tiaoxin" in [h["doc_id"] for h in run("search", QUESTION, "--json").json()["hits"]]
    preview = run("search", QUESTION, "--role", "all", "--json").json()
    assert "tiaoxin" not in [h["doc_id"] for h in preview["hits"]]
    asked = run("ask", QUESTION, "--role", "all", "--json").json()
    assert "tiaoxin" not in [h["doc_id"] for h in asked["hits"]]


@pytest.mark.parametrize("command", ["search", "ask"])
def test_help_says_the_default_is_everything_one_may_read(capsys, command):
    with pytest.raises(SystemExit):
        invoke(capsys, command, "--help")
    assert "默认" in capsys.readouterr().out
