"""A given-but-blank audience for a standard answer is refused, never read as 全体员工 (review rev51b defect 1).

Only an omitted audience (None: the CLI without --audience, a call without `audience=`) means everyone, as for
an upload (SECURITY.md: an empty 可见范围 is refused). The assistant is the fake one: no model loads.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import invoke
from fakes import fake_assistant

import rag_core.cli as cli
from rag_core.errors import RagError
from rag_core.insights.records import GapGroup
from rag_core.types import Principal

HR = Principal("hr_li", "hr")
EMPLOYEE = Principal("alice", "employee")
HR_ONLY = "# HR内部薪酬调整办法\n\n绩效调薪幅度为百分之十，HR 内部掌握，不对员工公开。\n"
QUESTION = "绩效调薪幅度"


@pytest.fixture()
def store(monkeypatch, tmp_path: Path) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "open_assistant", lambda args: fake_assistant(Path(args.data_dir)))
    return tmp_path / "store"


@pytest.mark.parametrize("blank", [" ", "", "\u3000"])
def test_faq_add_with_a_blank_audience_is_refused_and_nothing_is_served(capsys, store, tmp_path, blank):
    (tmp_path / "tiaoxin.md").write_text(HR_ONLY, encoding="utf-8")
    assert invoke(capsys, "--data-dir", str(store), "ingest", str(tmp_path / "tiaoxin.md"), "--audience", "hr").exit_code == 0
    r = invoke(capsys, "--data-dir", str(store), "faq", "add", QUESTION, "--answer", "百分之十（仅HR）",
               "--audience", blank)
    assert r.exit_code == 1
    assert "请选择可见范围" in r.stderr and "Traceback" not in r.stderr
    a = fake_assistant(store)
    assert a.standard_answers(actor=HR) == []
    assert "百分之十（仅HR）" not in a.ask(QUESTION, actor=EMPLOYEE).answer


def test_faq_add_without_audience_is_for_everyone(capsys, store):
    r = invoke(capsys, "--data-dir", str(store), "faq", "add", "公司有班车吗？", "--answer", "有。", "--json")
    assert r.json()["audience"] == ["all"]


def test_facade_refuses_an_empty_or_blank_label_list(tmp_path):
    a = fake_assistant(tmp_path / "store")
    for given in ([], (), [" ", ""]):
        with pytest.raises(RagError, match="请选择可见范围"):
            a.add_standard_answer("公司有班车吗？", "有。", audience=given, actor=HR)
    assert a.standard_answers(actor=HR) == []
    assert list(a.add_standard_answer("公司有班车吗？", "有。", actor=HR).audience) == ["all"]


def test_standard_answer_from_gap_refuses_an_empty_audience(tmp_path):
    a = fake_assistant(tmp_path / "store")
    group = GapGroup(representative="公司有班车吗？", count=1, first_seen="", last_seen="",
                     questions=["有班车吗"], kinds={})
    with pytest.raises(RagError, match="请选择可见范围"):
        a.standard_answer_from_gap(group, "有。", audience=[], actor=HR)
    assert a.standard_answers(actor=HR) == []
