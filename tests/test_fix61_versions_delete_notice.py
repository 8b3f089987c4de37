"""Deleting a document holds the standard answers resting on it and takes its version history: the confirmation and
the notice now say so (review 61, s6: they said neither, only the audit row did). `delete_preview` names the answers
it would hold, only those the actor may read, and changes nothing. Fake embedder; the page test runs AppTest."""

from __future__ import annotations

from pathlib import Path

from app_support import logged_in_with
from fakes import fake_assistant

from rag_core import Principal

APP = str(Path(__file__).resolve().parent.parent / "app.py")
ADMIN = Principal("boss", "admin")
HR = Principal("wang", "hr")
PASSWORD = "correct horse"


def library(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes("# 年假制度\n\n第五条 员工每年享有五天带薪年假。".encode(), "年假制度.md", actor=ADMIN).ok
    assert a.ingest_bytes("# 加班制度\n\n第二条 加班费按一点五倍计算。".encode(), "加班制度.md", actor=ADMIN).ok
    [chunk] = a.document_chunks("年假制度", actor=ADMIN)
    a.add_standard_answer("年假有几天", "每年五天。", clauses=[chunk.chunk_id], sources=["年假制度"], actor=HR)
    a.add_standard_answer("经理年假怎么休", "每年五天。", sources=["年假制度"], audience=["managers"], actor=ADMIN)
    a.add_standard_answer("加班费怎么算", "一点五倍。", sources=["加班制度"], actor=HR)
    return a


def test_the_preview_names_the_answers_a_delete_holds_and_changes_nothing(tmp_path):
    a = library(tmp_path)
    assert a.delete_preview("年假制度", actor=HR).held == ["年假有几天"]  # not the managers' answer HR cannot read
    seen = a.delete_preview("年假制度", actor=ADMIN)
    assert sorted(seen.held) == ["年假有几天", "经理年假怎么休"] and seen.versions == 1
    assert a.standard_answer_holds(actor=ADMIN) == {}  # nothing held by looking
    assert a.delete_preview("没有这份", actor=HR).held == []
    a.delete_document("年假制度", actor=ADMIN)
    held = a.standard_answer_holds(actor=ADMIN)
    assert len(held) == len(seen.held)  # the preview said what the delete did


def test_the_preview_and_the_delete_read_an_answer_resting_on_its_text_alike(tmp_path):
    """依据 left blank, an answer naming the policy in its text rests on it: the delete held it while the preview, a
    copy of the rule that had drifted, left it out. One rule (`resting_on`) now decides both."""
    a = library(tmp_path)
    a.add_standard_answer("年假最少几天", "依据《年假制度》第五条，每年五天。", actor=HR)
    seen = a.delete_preview("年假制度", actor=ADMIN)
    assert "年假最少几天" in seen.held
    a.delete_document("年假制度", actor=ADMIN)
    assert len(a.standard_answer_holds(actor=ADMIN)) == len(seen.held)


def test_the_page_names_the_held_answers_and_the_history_before_and_after(tmp_path, monkeypatch):
    a = library(tmp_path)
    a.add_user("boss", "admin", "correct horse battery")
    a.add_user("wang", "hr", PASSWORD, actor=ADMIN)
    at = logged_in_with(a, APP, "wang", PASSWORD, tmp_path, monkeypatch)
    at.switch_page("pages/documents.py").run()
    at.main.selectbox[0].set_value("年假制度").run()
    next(b for b in at.button if b.label == "删除此文档").click().run()
    assert not at.exception, [e.value for e in at.exception]
    question = next(w.value for w in at.warning if "确定删除" in w.value)
    assert "版本历史" in question and "1 条依据它的标准答复" in question and "年假有几天" in question, question
    assert "经理年假" not in question
    next(b for b in at.button if b.label == "确认删除").click().run()
    assert not at.exception, [e.value for e in at.exception]
    notice = " ".join(str(x.value) for x in [*at.success, *at.info, *at.warning, *at.markdown] if "已删除" in str(x.value))
    assert "版本历史" in notice and "1 条依据它的标准答复" in notice and "已暂停使用" in notice, notice
