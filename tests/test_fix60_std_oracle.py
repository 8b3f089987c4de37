"""The standard-answer form is no oracle for hidden documents' titles and ids (review 60 #3).

HR (reads all and hr) adding an answer whose clause named a managers-only title, bare or in 《》, or whose sources
named its id, was refused (「…它依据的一份你看不到的文档有些读者看不到…」) while a made-up title or id was accepted:
one guess told whether the document exists. Adding, only documents the actor may read count as a basis; releasing,
a document they cannot read counts only when the answer is held for one they cannot read (the hold already said so)."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core import RagError
from rag_core.types import Principal

ADMIN, EMP = Principal("wang", "admin"), Principal("zhang", "employee")
HR = Principal("li", "hr")
BONUS = "# 管理层绩效奖金办法\n\n## 第一条 年终奖\n\n部门经理年终奖为年薪的百分之四十，次年三月发放。\n".encode()
LEAVE = "# 年假制度\n\n第一条 员工每年享有五天带薪年假，需提前三天申请。\n".encode()
TEN = "# 年假制度\n\n第一条 员工每年享有十天带薪年假，需提前三天申请。\n".encode()


def with_hidden(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(BONUS, "bonus.txt", audience=("managers",), actor=ADMIN).ok
    return a


@pytest.mark.parametrize("clause", ["《管理层绩效奖金办法》第一条", "依据管理层绩效奖金办法第一条执行",
                                    "《高管股权激励办法》第一条", "依据高管股权激励办法第一条执行"])
def test_fix60_a_guessed_title_is_accepted_whether_or_not_it_exists(tmp_path, clause):
    a = with_hidden(tmp_path)
    entry = a.add_standard_answer("年终奖有哪些规定？", "请咨询HR。", clauses=[clause], actor=HR)
    assert entry.audience == ("all",)


@pytest.mark.parametrize("source", ["bonus", "no_such_doc"])
def test_fix60_a_guessed_source_id_is_accepted_and_not_recorded(tmp_path, source):
    a = with_hidden(tmp_path)
    entry = a.add_standard_answer("年终奖有哪些规定？", "请咨询HR。", sources=[source], actor=HR)
    assert a.standard_store.sources_of(entry.id) == []


def test_fix60_who_reads_the_document_is_still_refused_naming_it(tmp_path):
    a = with_hidden(tmp_path)
    with pytest.raises(RagError, match="《管理层绩效奖金办法》（只给管理者看）"):
        a.add_standard_answer("年终奖有哪些规定？", "请咨询HR。", clauses=["《管理层绩效奖金办法》第一条"], actor=ADMIN)
    with pytest.raises(RagError, match="《管理层绩效奖金办法》（只给管理者看）"):
        a.add_standard_answer("年终奖有哪些规定？", "请咨询HR。", sources=["bonus"], actor=ADMIN)


@pytest.mark.parametrize("hidden", [True, False], ids=["exists", "made-up"])
def test_fix60_releasing_answers_a_guess_the_same_whether_or_not_it_exists(tmp_path, hidden):
    """HR holds their own answer by changing a document they read; releasing it does not tell the guess."""
    a = with_hidden(tmp_path) if hidden else fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(LEAVE, "年假制度.md", actor=HR).ok
    entry = a.add_standard_answer("年假有几天", "五天。", clauses=["《年假制度》第一条", "《管理层绩效奖金办法》第一条"],
                                  actor=HR)
    assert a.ingest_bytes(TEN, "年假制度.md", actor=HR).ok
    seen = a.standard_answer_holds(actor=HR)[entry.id]
    a.release_standard_answer(entry.id, seen=seen, actor=HR)
    assert entry.id not in a.standard_answer_holds(actor=HR)


def test_fix60_a_hidden_version_of_a_known_document_counts_by_name_never_by_its_text(tmp_path, monkeypatch):
    """HR uploaded the policy for everyone, an administrator narrowed it from a day on with new words: HR knows the
    document (its name still refuses the answer, review 55g) but not the new text (a run of it tells nothing)."""
    from datetime import UTC, datetime, timedelta

    import rag_core.documents.catalog as catalog

    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(LEAVE, "年假制度.md", actor=HR).ok
    day = (catalog.office_day() + timedelta(days=5)).isoformat()
    assert a.ingest_bytes(BONUS.replace("管理层绩效奖金办法".encode(), "年假制度".encode()), "年假制度.md",
                          audience=["managers"], effective_date=day, actor=ADMIN).version == 2
    later = datetime.now(UTC) + timedelta(days=6)
    monkeypatch.setattr(catalog, "_utc_now", lambda: later)
    with pytest.raises(RagError, match="一份你看不到的文档"):
        a.add_standard_answer("年假有几天", "五天。", clauses=["《年假制度》第一条"], actor=HR)
    a.add_standard_answer("年终奖怎么算", "见依据。", clauses=["部门经理年终奖为年薪的百分之四十"], actor=HR)
