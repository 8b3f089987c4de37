"""Upload messages name audiences as people read them (全体员工 / 管理者 / HR), not by their labels
(review of s49, defect 4). The engine owns the one mapping; the pages take it from there."""

from __future__ import annotations

from fakes import fake_assistant

from rag_core.types import Principal

HR = Principal("hr1", "hr")
ADMIN = Principal("root", "admin")
V1 = "# 年假制度\n\n员工每年享有五天带薪年假。".encode()
V2 = "# 年假制度\n\n员工每年享有十天带薪年假。".encode()


def test_the_narrower_audience_warning_names_the_audiences_in_chinese(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(V1, "年假制度.md", audience=["all"], actor=ADMIN).ok
    assert a.ingest_bytes(V2, "年假制度.md", audience=["managers", "hr"], actor=ADMIN).ok  # from 全体员工: narrower
    report = a.ingest_bytes(V1, "年假制度.md", audience=["hr"], actor=ADMIN)  # from HR+管理者: narrower again
    warning = next(w for w in report.warnings if "窄" in w)
    assert "（HR）" in warning and "管理者" in warning, warning
    assert "managers" not in warning, warning


def test_the_refusal_of_an_unreadable_audience_names_it_in_chinese(tmp_path):
    a = fake_assistant(tmp_path / "store")
    report = a.ingest_bytes(V1, "年假制度.md", audience=["managers"], actor=HR)
    estimate = a.estimate_ingest(V1, "年假制度.md", audience=["managers"], actor=HR)
    for said in (report.error, estimate.error):
        assert "（管理者）" in said and "managers" not in said, said


def test_an_audience_without_a_chinese_name_keeps_its_label(tmp_path):
    a = fake_assistant(tmp_path / "store")
    report = a.ingest_bytes(V1, "年假制度.md", audience=["sales"], actor=HR)
    assert "（sales）" in report.error


def test_the_pages_use_the_engines_mapping():
    from rag_core import Assistant
    from ui.state import AUDIENCE_LABELS

    assert AUDIENCE_LABELS is Assistant.AUDIENCE_LABELS
    assert AUDIENCE_LABELS == {"all": "全体员工", "hr": "HR", "managers": "管理者"}
