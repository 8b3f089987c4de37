"""HR publishes only for the audiences it reads, and hears when a new version narrows who can read a policy."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core.types import Principal

HR = Principal("hr1", "hr")
V1 = "# 年假制度\n\n员工每年享有五天带薪年假。".encode()
V2 = "# 年假制度\n\n员工每年享有十天带薪年假。".encode()


@pytest.fixture
def assistant(tmp_path):
    return fake_assistant(tmp_path / "store")


def test_hr_cannot_publish_a_version_for_an_audience_it_cannot_read(assistant):
    assert assistant.ingest_bytes(V1, "年假制度.md", actor=HR).status == "indexed"
    estimate = assistant.estimate_ingest(V2, "年假制度.md", audience=["managers"], actor=HR)
    report = assistant.ingest_bytes(V2, "年假制度.md", audience=["managers"], actor=HR)
    assert report.status == "refused" and "管理者" in report.error and "看不到的受众" in report.error
    assert estimate.error and "管理者" in estimate.error
    assert [d.version for d in assistant.list_documents(actor=HR)] == [1]  # nothing written, HR still manages it
    assert [v.version for v in assistant.catalog.versions("年假制度")] == [1]
    mixed = assistant.ingest_bytes(V2, "年假制度.md", audience=["hr", "managers"], actor=HR)
    assert mixed.status == "refused"  # one unreadable label is enough


def test_an_admin_may_publish_for_any_audience_and_a_narrower_audience_is_warned(assistant):
    assert assistant.ingest_bytes(V1, "年假制度.md", actor=HR).status == "indexed"
    report = assistant.ingest_bytes(V2, "年假制度.md", audience=["hr"], actor=HR)
    assert report.status == "indexed"
    assert any("比它取代的 v1" in w and "窄" in w for w in report.warnings)
    admin = assistant.ingest_bytes(V1, "年假制度.md", audience=["managers"], actor=Principal("root", "admin"))
    assert admin.status == "indexed"
    wider = assistant.ingest_bytes(V2, "年假制度.md", actor=Principal("root", "admin"))
    assert not any("窄" in w for w in wider.warnings)
