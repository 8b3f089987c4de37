"""An upload's audience labels follow the accounts' rule (review 61, rev-docs s5).

"managers, finance" was reported as one label but stored split on the comma ('managers', ' finance'): a finance
employee found nothing. "finance team" was indexed though no account may hold it: the file reached no one. Both are
refused now, naming the label, and nothing is written.
"""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core.types import Principal

ADMIN = Principal("boss", "admin")
FIN = Principal("f1", "employee", ("finance",))
POLICY = "# 报销制度\n\n第一条 差旅报销须在出差结束后十五天内提交。\n".encode()


@pytest.fixture
def a(tmp_path):
    return fake_assistant(tmp_path / "s")


@pytest.mark.parametrize("typed", ["managers, finance", "finance team", "x" * 33, "财务/人事"])
def test_a_label_accounts_refuse_is_refused_on_upload(a, typed):
    report = a.ingest_bytes(POLICY, "报销制度.md", audience=[typed], actor=ADMIN)
    assert report.status == "refused"
    assert "受众标签不合法" in report.error and "多个受众请分别填写" in report.error
    assert typed.strip()[:20] in report.error
    assert a.list_documents(actor=ADMIN) == []
    estimate = a.estimate_ingest(POLICY, "报销制度.md", audience=[typed], actor=ADMIN)
    assert estimate.error and "受众标签不合法" in estimate.error


def test_labels_given_one_by_one_reach_their_readers(a):
    report = a.ingest_bytes(POLICY, "报销制度.md", audience=["managers", " finance ", "管理者"], actor=ADMIN)
    assert report.ok and report.audience == ("finance", "managers")
    assert [v.audience for v in a.document_versions(report.doc_id, actor=ADMIN)] == [("finance", "managers")]
    assert a.search("差旅报销 提交", actor=FIN).hits


def test_a_department_label_in_chinese_is_kept(a):
    report = a.ingest_bytes(POLICY, "报销制度.md", audience=["财务部", "全体员工"], actor=ADMIN)
    assert report.ok and report.audience == ("all", "财务部")
