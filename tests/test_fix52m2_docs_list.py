"""`docs list` marks a scheduled document 待生效（date） and names audiences as people read them (review 52m #3)."""

from __future__ import annotations

from fakes import fake_assistant

import rag_core.cli as cli

FIVE = "# 年假制度\n\n第一条 员工每年享有五天带薪年假，需提前三天申请。\n".encode()
TRAVEL = "# 差旅制度\n\n第一条 出差住宿每晚五百元。\n".encode()


def test_fix52m2_docs_list_marks_the_scheduled_document_and_shows_audience_names(tmp_path, monkeypatch, capsys):
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(FIVE, "年假制度.md").ok
    assert a.ingest_bytes(TRAVEL, "差旅制度.md", audience=["managers"], effective_date="2099-01-01").ok
    monkeypatch.setattr(cli, "open_assistant", lambda args: a)
    assert cli.main(["--data-dir", str(tmp_path / "s"), "docs", "list"]) == 0
    lines = {line.split("\t")[0]: line.split("\t") for line in capsys.readouterr().out.splitlines()}
    assert lines["差旅制度"][1:3] == ["v1 待生效（2099-01-01）", "管理者"], lines
    assert lines["年假制度"][1:3] == ["v1", "全体员工"], lines
