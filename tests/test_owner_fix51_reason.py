"""A rating's unknown reason is echoed masked in its refusal (review rev51c: '张三 13800138000' came back raw)."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core import Principal
from rag_core.insights.fields import feedback_fields
from rag_core.insights.records import InsightError

LOCAL = Principal(user="local", role="admin")
ANNUAL = "# 年假制度\n\n员工工作满一年后，每年享有五天带薪年假。年假须提前三天申请。\n"


def test_an_unknown_reason_is_masked_in_the_refusal():
    with pytest.raises(InsightError) as refused:
        feedback_fields(-1, "张三 13800138000", "")
    assert "13800138000" not in str(refused.value) and "张三 [手机号]" in str(refused.value)


def test_record_feedback_with_an_unknown_reason_keeps_and_echoes_no_phone_number(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(ANNUAL.encode(), "年假.md", actor=LOCAL).ok
    trace = a.ask("年假几天", actor=LOCAL, conversation=a.new_conversation_id())
    with pytest.raises(InsightError) as refused:
        a.record_feedback(trace, -1, actor=LOCAL, reason="张三 13800138000", comment="x")
    assert "13800138000" not in str(refused.value)
    assert a.feedback_reviews(actor=LOCAL) == []
