"""Ctrl-C once the new version is live: the steps after the switch are finished, and the CLI, the facade and the
audit say the version went live instead of "nothing written" (review 56, defect 1)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import invoke
from fakes import fake_assistant

from rag_core.search import after_switch
from rag_core.search.indexer import Indexer

OLD = "# 考勤制度\n\n第一条 迟到一次扣款五十元。\n"
NEW = "# 考勤制度\n\n第一条 迟到一次扣款八十元。海豚打卡机位于一楼大厅。\n"


@pytest.fixture()
def cli_facade(tmp_path: Path, monkeypatch):
    import rag_core.cli

    facade = fake_assistant(tmp_path / "store")
    monkeypatch.setattr(rag_core.cli, "open_assistant", lambda args: facade)
    return facade


def test_an_interrupt_in_one_step_after_the_switch_still_runs_the_others() -> None:
    done: list[str] = []

    def interrupted() -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        after_switch.run_each([("a", interrupted), ("b", lambda: done.append("b")), ("c", lambda: done.append("c"))], "doc v2")
    assert done == ["b", "c"]


def test_ctrl_c_during_the_keyword_step_says_the_version_is_live(cli_facade, tmp_path: Path, capsys, monkeypatch) -> None:
    policy = tmp_path / "kaoqin.md"
    policy.write_text(OLD, encoding="utf-8")
    assert invoke(capsys, "ingest", str(policy)).exit_code == 0
    policy.write_text(NEW, encoding="utf-8")
    retired: list[int] = []
    retire = Indexer._retire

    def ctrl_c(self, chunks, tokens) -> None:
        raise KeyboardInterrupt  # SIGINT lands while the keyword index of the new version is written

    def noted(self, old) -> None:
        retired.append(old.version)
        retire(self, old)

    monkeypatch.setattr(Indexer, "_add_keywords", ctrl_c)
    monkeypatch.setattr(Indexer, "_retire", noted)
    result = invoke(capsys, "ingest", str(policy))
    assert result.exit_code == 130
    assert "没有写入任何内容" not in result.stderr and "v2 已生效" in result.stderr
    assert retired == [1]  # the step after the interrupted one still ran: v1 no longer answers beside v2
    status = {v.version: v.status for v in cli_facade.catalog.versions("kaoqin")}
    assert status == {1: "retired", 2: "current"}
    last = cli_facade.audit_entries()[0]
    assert last.outcome == "ok" and "v2 已生效" in last.detail and "未写入任何内容" not in last.detail


def test_an_interrupt_after_the_indexer_returned_is_reported_live_by_the_facade(cli_facade, monkeypatch) -> None:
    cli_facade.ingest_bytes(OLD.encode(), "kaoqin.md")

    def ctrl_c(*args, **kwargs):
        raise KeyboardInterrupt  # lands in the checks the facade makes once the version is live

    monkeypatch.setattr(type(cli_facade), "_held_by_version", ctrl_c)
    with pytest.raises(KeyboardInterrupt) as caught:
        cli_facade.ingest_bytes(NEW.encode(), "kaoqin.md")
    assert after_switch.went_live(caught.value) == ("kaoqin", 2)
    assert "v2 已生效" in cli_facade.audit_entries()[0].detail


def test_an_interrupt_before_the_switch_still_says_nothing_was_written(cli_facade) -> None:
    cli_facade.ingest_bytes(OLD.encode(), "kaoqin.md")

    def interrupt(name: str) -> None:
        raise KeyboardInterrupt

    cli_facade.indexer.fail_point = interrupt  # after the vectors, before the switch
    with pytest.raises(KeyboardInterrupt) as caught:
        cli_facade.ingest_bytes(NEW.encode(), "kaoqin.md")
    assert after_switch.went_live(caught.value) is None
    assert [(v.version, v.status) for v in cli_facade.catalog.versions("kaoqin")] == [(1, "current")]
    last = cli_facade.audit_entries()[0]
    assert last.outcome == "failed" and "未写入任何内容" in last.detail
