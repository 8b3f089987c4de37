"""A clause naming the document and quoting its words (《年假制度》：员工每年享有五天…) is decided by those words:
an edit elsewhere in the policy leaves the answer served (review 55f, defect 2: every such answer was held).

Each test failed before its fix (checked by running it on the unfixed code) unless it says otherwise.
"""

from __future__ import annotations

from fakes import fake_assistant

from rag_core.types import Principal

HR, EMP = Principal("li", "hr"), Principal("zhang", "employee")
FIVE = "# 年假制度\n\n第一条 员工每年享有五天带薪年假，需提前三天申请。\n\n第二条 年假可以分次休。\n".encode()
TEN = "# 年假制度\n\n第一条 员工每年享有十天带薪年假，需提前三天申请。\n\n第二条 年假可以分次休。\n".encode()
SECOND = "# 年假制度\n\n第一条 员工每年享有五天带薪年假，需提前三天申请。\n\n第二条 年假可以分两次休。\n".encode()
QUESTION = "年假有几天"
QUOTING = "《年假制度》：员工每年享有五天带薪年假，需提前三天申请。"


def served(a) -> bool:
    return a.ask(QUESTION, user="", remember=False, actor=EMP).answerer == "标准答复"


def with_clause(tmp_path, clause: str):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=HR).ok
    entry = a.add_standard_answer(QUESTION, "员工每年享有五天带薪年假。", clauses=[clause], actor=HR)
    assert served(a)
    return a, entry


def test_an_edit_elsewhere_leaves_an_answer_quoting_the_document_served(tmp_path):
    a, _ = with_clause(tmp_path, QUOTING)
    assert a.ingest_bytes(SECOND, "年假制度.md", actor=HR).version == 2
    assert served(a) and a.standard_answer_holds(actor=HR) == {}


def test_the_quoted_words_changing_still_holds_it(tmp_path):
    """Passed before the fix too: the guard that the quote comparison still decides."""
    a, entry = with_clause(tmp_path, QUOTING)
    assert a.ingest_bytes(TEN, "年假制度.md", actor=HR).version == 2
    assert not served(a) and entry.id in a.standard_answer_holds(actor=HR)
