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


def test_fix54_a_runaway_typed_value_is_echoed_cut(tmp_path) -> None:
    """A refusal repeats at most ECHOED_CHARS of a typed value (review 54j #3: 200,000 characters came back)."""
    from fakes import fake_assistant

    a = fake_assistant(tmp_path / "s")
    doc = "# 制度\n\n第一条 测试。\n".encode()
    date_refused = a.ingest_bytes(doc, "a.md", effective_date="9" * 200_000)
    names_refused = a.ingest_bytes(doc, "b.md", redact_disabled=["手机" * 100_000, *[f"x{i}" for i in range(50)]])
    assert not date_refused.ok and len(date_refused.error) < 200 and "…" in date_refused.error
    assert not names_refused.ok and len(names_refused.error) < 600
