"""A refused upload option echoes what was typed with personal data masked (review 54i #2).

An effective date or a redaction category typed as 张三13812345678 was repeated unmasked in the refusal,
shown on the page and in the CLI. Through the facade, on a real (fake-model) assistant.
"""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core.errors import IngestError

DOC = "# 制度\n\n第一条 测试。\n".encode()
PHONE = "13812345678"


def _refusal(tmp_path, **options) -> str:
    a = fake_assistant(tmp_path / "store")
    try:
        report = a.ingest_bytes(DOC, "a.md", **options)
    except IngestError as exc:
        return str(exc)
    assert report.status != "indexed", report
    return str(report.error if hasattr(report, "error") else report)


def test_fix54i_unreadable_effective_date_is_masked(tmp_path):
    said = _refusal(tmp_path, effective_date=f"张三{PHONE}")
    assert PHONE not in said
    assert "生效日期" in said and "无法识别" in said and "YYYY-MM-DD" in said


def test_fix54i_unknown_redaction_category_is_masked(tmp_path):
    said = _refusal(tmp_path, redact_disabled=[PHONE])
    assert PHONE not in said
    assert "不认识的脱敏类别" in said and "可以保留的类别" in said


@pytest.mark.parametrize("typed", ["2026-13-01", "明天"])
def test_fix54i_date_without_personal_data_is_still_echoed(tmp_path, typed):
    assert typed in _refusal(tmp_path, effective_date=typed)
