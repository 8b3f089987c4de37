"""An empty 可见范围 is refused, never published to 全体员工 (the form, the facade and the CLI)."""

from __future__ import annotations

import pytest
from cli_support import invoke
from fakes import fake_assistant
from test_upload_fixes_support import facade, page, policy, submit, text_of  # noqa: F401 (fixture)

import rag_core.cli as cli


def test_form_refuses_an_empty_audience_and_writes_nothing(facade):  # noqa: F811
    at = submit(page(), [("管理层薪酬调整方案.md", policy(tag="管理层"))], audience=[])
    assert not at.exception, [e.value for e in at.exception]
    assert facade.list_documents() == []
    assert "请选择可见范围" in text_of(at)


def test_facade_refuses_an_explicit_empty_audience(tmp_path):
    a = fake_assistant(tmp_path / "s")
    for empty in ([], [""], ["  "]):
        estimate = a.estimate_ingest(policy(), "管理层薪酬.md", audience=empty)
        report = a.ingest_bytes(policy(), "管理层薪酬.md", audience=empty)
        assert not estimate.ok and "请选择可见范围" in estimate.error
        assert not report.ok and "请选择可见范围" in report.error
    assert a.list_documents() == []
    assert a.ingest_bytes(policy(), "年假.md", audience=None).audience == ("all",)  # not given: everyone


@pytest.fixture()
def cli_facade(tmp_path, monkeypatch):
    a = fake_assistant(tmp_path / "s")
    monkeypatch.setattr(cli, "open_assistant", lambda args: a)
    return a


def test_cli_empty_audience_is_refused_and_the_default_is_everyone(cli_facade, capsys, tmp_path):
    path = tmp_path / "福利.md"
    path.write_bytes(policy())
    refused = invoke(capsys, "ingest", "--audience", "", str(path))
    assert refused.exit_code == 1 and "请选择可见范围" in refused.stderr
    assert cli_facade.list_documents() == []
    assert invoke(capsys, "ingest", str(path)).exit_code == 0
    assert [d.audience for d in cli_facade.list_documents()] == [("all",)]
