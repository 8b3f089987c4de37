"""A clause naming only the document and an article (《年假制度》第一条) holds the answer when that article changes
(review 55b defect 2): it quotes no words to look for in the new version, so nothing was compared and 五天 was
served after the article said 十天."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core.insights.standard_articles import article_key, named_articles
from rag_core.types import Principal

HR, EMP = Principal("li", "hr"), Principal("zhang", "employee")
FIVE = "# 年假制度\n\n第一条 员工每年享有五天带薪年假，需提前三天申请。\n\n第二条 年假可以分次休。\n".encode()
TEN = "# 年假制度\n\n第一条 员工每年享有十天带薪年假，需提前三天申请。\n\n第二条 年假可以分次休。\n".encode()
SECOND = "# 年假制度\n\n第一条 员工每年享有五天带薪年假，需提前三天申请。\n\n第二条 年假可以分两次休。\n".encode()
QUESTION = "年假有几天"


def served(a) -> bool:
    return a.ask(QUESTION, user="", remember=False, actor=EMP).answerer == "标准答复"


def with_clause(tmp_path, clause: str):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(FIVE, "年假制度.md", actor=HR).ok
    entry = a.add_standard_answer(QUESTION, "员工每年享有五天带薪年假。", clauses=[clause], actor=HR)
    assert served(a)
    return a, entry


@pytest.mark.parametrize("clause", ["《年假制度》第一条", "《年假制度》第1条", "依据年假制度第一条", "《年假制度》"])
def test_fix55b_the_named_article_changing_holds_the_answer(tmp_path, clause):
    a, entry = with_clause(tmp_path, clause)
    assert a.ingest_bytes(TEN, "年假制度.md", actor=HR).version == 2
    assert not served(a)
    assert "改动" in a.standard_answer_holds(actor=HR)[entry.id]


def test_fix55b_another_article_changing_leaves_the_answer_served(tmp_path):
    a, entry = with_clause(tmp_path, "《年假制度》第一条")
    assert a.ingest_bytes(SECOND, "年假制度.md", actor=HR).version == 2
    assert served(a) and a.standard_answer_holds(actor=HR) == {}


def test_fix55b_an_article_of_another_document_is_not_this_ones():
    assert named_articles("《考勤制度》第三条、《年假制度》第一条", ["年假制度"]) == {1}
    assert named_articles("《考勤制度》第三条", ["年假制度"]) is None
    assert article_key("第十二条 病假") == 12 and article_key("第１２条") == 12 and article_key("第一章 总则") is None
