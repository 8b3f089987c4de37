"""Review 384 #6: on 检索测试 HR searches as an audience (员工) and sees what employees are told, not its own HR-only
clause; the engine lists the labels the tester may search as."""

from __future__ import annotations

import pytest
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest

from rag_core.errors import PermissionDenied
from rag_core.types import Principal
from tests.test_retrieval_test_page import searched_on_the_page as _opened

HR_ONLY = "# 子女教育补贴内部口径\n\n第一条 子女教育补贴每学期按1500元标准发放，由HR内部掌握。\n"
QUESTION = "子女教育补贴每学期多少钱？"


def test_hr_searches_as_employees_and_does_not_see_its_own_clause(tmp_path, monkeypatch) -> None:
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(HR_ONLY.encode(), "子女教育补贴内部口径.md", audience=["hr"]).ok
    assert "all" in a.preview_audiences(actor=Principal("li", "hr"))
    with pytest.raises(PermissionDenied):  # the labels 检索测试 previews are HR's to know
        a.preview_audiences(actor=Principal("zhang", "employee"))
    at: AppTest = _opened(a, QUESTION, tmp_path, monkeypatch)  # the desktop default: the local administrator
    mine = at.session_state["retrieval_chat_search"][1].result
    assert any("子女教育" in h.chunk.title for h in mine.hits)
    at.selectbox(key="rt_role").set_value("all")
    next(b for b in at.button if b.label == "检索").click().run()
    assert not at.exception, [e.value for e in at.exception]
    role, found = at.session_state["retrieval_chat_search"][:2]
    assert role == "all" and not any("子女教育" in h.chunk.title for h in found.result.hits)
    assert any("员工" in m.value for m in at.markdown if "身份" in m.value)



def test_hr_is_offered_only_the_audiences_it_may_read_whole(tmp_path) -> None:
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(HR_ONLY.encode(), "管理者差旅补充规定.md", audience=["managers"]).ok
    assert "managers" not in a.preview_audiences(actor=Principal("li", "hr"))  # it would show only HR's reading
    assert "managers" in a.preview_audiences(actor=Principal("li", "hr", ("managers",)))
    assert "managers" in a.preview_audiences(actor=Principal("wang", "admin"))
