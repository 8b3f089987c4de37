"""Adding and deleting a standard answer (served to every employee ahead of the policies) leaves one audit row
each, failed attempts too; the audit page names the actions in Chinese."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core import Principal
from rag_core.accounts.audit import ACTION_NAMES
from rag_core.errors import RagError

ADMIN, HR = Principal("wang", "admin"), Principal("lihr", "hr")


@pytest.fixture()
def assistant(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.add_user("wang", "admin", "correct horse")
    a.add_user("lihr", "hr", "correct horse", actor=ADMIN)
    return a


def _since(a, before: int):
    rows = a.audit_entries(actor=ADMIN)
    return [(r.actor, r.action, r.target, r.outcome, r.detail) for r in rows[: len(rows) - before]]


def test_add_and_delete_each_leave_one_row(assistant):
    before = len(assistant.audit_entries(actor=ADMIN))
    entry = assistant.add_standard_answer("公司有班车吗？联系 13812345678", "没有班车，请自行解决。", actor=HR)
    assistant.delete_standard_answer(entry.id, actor=HR)
    rows = _since(assistant, before)
    assert [(r[0], r[1], r[3]) for r in rows] == [("lihr", "standard.delete", "ok"), ("lihr", "standard.add", "ok")]
    add = rows[1]
    assert entry.id in add[2] and "公司有班车吗" in add[2] and "13812345678" not in add[2]
    assert "所有人" in add[4] or "全员" in add[4] or add[4].startswith("受众")
    assert entry.id in rows[0][2]


def test_failed_add_and_delete_are_audited(assistant):
    before = len(assistant.audit_entries(actor=ADMIN))
    with pytest.raises(RagError):
        assistant.add_standard_answer("公司有班车吗？", "   ", actor=HR)  # no answer: refused
    with pytest.raises(RagError):
        assistant.delete_standard_answer("nosuchid", actor=HR)
    rows = _since(assistant, before)
    assert [(r[1], r[3]) for r in rows] == [("standard.delete", "failed"), ("standard.add", "failed")]
    assert "nosuchid" in rows[0][2] and "公司有班车吗" in rows[1][2]


def test_the_actions_have_chinese_names():
    assert ACTION_NAMES["standard.add"] == "添加标准答复" and ACTION_NAMES["standard.delete"] == "删除标准答复"


def test_a_failed_add_masks_before_it_cuts(assistant):
    """The typed question is cut to 60 characters for the row: cut first, an ID number straddling the cut kept 17
    of its 18 digits, no longer read as one (review 206)."""
    before = len(assistant.audit_entries(actor=ADMIN))
    question = "员" * 43 + "110101199003074514"  # the number ends past the 60th character
    with pytest.raises(RagError):
        assistant.add_standard_answer(question, "   ", actor=HR)
    [row] = _since(assistant, before)
    assert "11010119900307" not in row[2], row[2]
