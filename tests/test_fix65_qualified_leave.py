"""A leave word that is the asked leave qualified by a word of its own names the asked leave.

员工每年享有带薪年假5天 was no answer to 年假有几天 (制度里没有写这一条 … 没有写明具体的数字或标准): every word ending in 假
that is not the asked one was blanked as another kind of leave, 带薪年假 too. A qualifier that is a dictionary word of
its own (带薪, 男方, 法定) leaves the asked leave; one character fused onto it (陪产假 for 产假) is another leave.
"""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core.text.vocabulary import governs


@pytest.mark.parametrize("term, text", [
    ("年假", "员工每年享有带薪年假5天"), ("病假", "员工每年享有带薪病假10天"), ("陪产假", "男方陪产假15天"),
])
def test_a_qualified_leave_names_the_asked_one(term, text):
    assert governs(term, text, {})


@pytest.mark.parametrize("term, text", [("产假", "男员工享受陪产假15天"), ("婚假", "员工享有婚丧假3天")])
def test_another_leave_ending_in_the_asked_one_does_not(term, text):
    assert not governs(term, text, {})


@pytest.mark.parametrize("body", ["第一条 员工每年享有带薪年假5天，需提前三天申请。", "第一条 员工每年享有五天带薪年假，需提前三天申请。"])
def test_a_policy_saying_paid_annual_leave_answers_how_many_days(tmp_path, body):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(f"# 年假制度\n\n{body}\n".encode(), "年假制度.md").ok
    answer = a.ask("年假有几天", user="", remember=False).answer
    assert "带薪年假" in answer and "没有写明" not in answer, answer
