"""Review 61 (own1b R2): a standard answer's audience passes the label rule an upload's does (`bad_label`, the
accounts' own rule): "hr, managers" was stored as ('hr', ' managers') and "finance team" as a label nobody holds,
so the answer reached none of the readers meant. Refused with the upload's words, nothing stored. Fake assistant."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core.insights.standard import StandardAnswerError
from rag_core.types import Principal

ADMIN = Principal("boss", "admin")


@pytest.mark.parametrize("typed", [["hr, managers"], ["managers,finance"], ["finance team"], ["hr", "a" * 33]])
def test_a_label_no_account_may_hold_is_refused_and_nothing_is_stored(tmp_path, typed):
    a = fake_assistant(tmp_path / "s")
    upload = a.ingest_bytes("# 加班制度\n\n第二条 加班费按一点五倍计算。".encode(), "加班制度.md", audience=typed, actor=ADMIN)
    assert upload.status == "refused"
    with pytest.raises(StandardAnswerError) as refused:
        a.add_standard_answer("加班费怎么算", "一点五倍。", audience=typed, actor=ADMIN)
    assert "受众标签不合法" in str(refused.value) and str(refused.value) in upload.error
    assert a.standard_answers(actor=ADMIN) == []


def test_labels_as_the_pages_name_them_still_work(tmp_path):
    a = fake_assistant(tmp_path / "s")
    entry = a.add_standard_answer("加班费怎么算", "一点五倍。", audience=["HR", "管理者", "finance_2"], actor=ADMIN)
    assert entry.audience == ("finance_2", "hr", "managers")
    assert a.add_standard_answer("年假几天", "五天。", actor=ADMIN).audience == ("all",)
