"""An upload's audit row names the file as its report does: personal data masked, on every upload path."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.types import Principal

ADMIN = Principal("boss", "admin")
HR = Principal("hr_li", "hr")
POLICY = "# 报销说明\n\n第一条 报销在每月五日前提交。\n".encode()
NAMES = ["张三_身份证110101199003071234.docx", "13812345678报销.xlsx", "zhang.san@corp.com.md"]
RAW = ("110101199003071234", "13812345678", "zhang.san@corp.com")


def targets(a) -> list[str]:
    return [e.target for e in a.audit_log.entries() if "document.upload" in (e.action + e.target)]


@pytest.mark.parametrize("name", NAMES)
def test_uploaded_and_refused_rows_name_the_file_as_the_report_does(tmp_path: Path, name: str):
    a = fake_assistant(tmp_path / "store")
    stem = name.rsplit(".", 1)[0] + ".md"  # the fake embedder reads Markdown; the name is what is audited
    ok = a.ingest_bytes(POLICY, stem, actor=HR)
    refused = a.ingest_bytes(POLICY, stem, audience=[], actor=HR)
    denied = a.ingest_bytes(POLICY, stem, audience=["manager"], actor=HR)
    assert ok.ok and not refused.ok and not denied.ok
    rows = targets(a)
    assert len(rows) == 3 and not any(raw in row for row in rows for raw in RAW)
    assert sorted(rows) == sorted([ok.filename, f"document.upload {refused.filename}", f"document.upload {denied.filename}"])


def test_the_cli_path_ingest_file_audits_the_masked_name(tmp_path: Path):
    a = fake_assistant(tmp_path / "store")
    path = tmp_path / "zhang.san@corp.com_13812345678.md"
    path.write_bytes(POLICY)
    report = a.ingest_file(path, actor=ADMIN)
    assert report.ok and targets(a) == [report.filename] and "13812345678" not in report.filename
