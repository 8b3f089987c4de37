"""A standard answer whose clauses name no document, no article and quote no policy rests on nothing: a change to the
policies cannot hold it, so HR is told when adding it (review 201). A clause that does tie it to a policy is not named."""

from __future__ import annotations

from pathlib import Path

from app_support import logged_in_with
from fakes import fake_assistant

from rag_core import Principal

APP = str(Path(__file__).resolve().parent.parent / "app.py")
SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"
HR, ADMIN = Principal("li", "hr"), Principal("wang", "admin")
LEAVE = (SAMPLES / "01_attendance_leave.md").read_bytes()


def _store(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(LEAVE, "考勤与休假管理制度.md", actor=HR).ok
    return a


def test_only_a_clause_tied_to_no_policy_is_named(tmp_path):
    a = _store(tmp_path)
    title = a.list_documents(actor=HR)[0].title
    anchored = [f"《{title}》", "考勤制度第七条", "第七条 年假天数",
                "年假以半天为最小单位申请，员工应至少提前3个工作日在OA系统提交申请"]  # a quote of the policy
    loose = ["员工手册", "人事部口头通知"]
    assert a.unanchored_clauses([*anchored, "", *loose], actor=HR) == loose


def test_the_page_tells_hr_when_a_clause_rests_on_nothing(tmp_path, monkeypatch):
    a = _store(tmp_path)
    a.add_user("wang", "admin", "correct horse")
    a.add_user("li", "hr", "correct horse", actor=ADMIN)
    at = logged_in_with(a, APP, "li", "correct horse", tmp_path, monkeypatch)
    at.switch_page("pages/standard_answers.py").run()
    assert not at.exception, [e.value for e in at.exception]
    at.text_input[0].set_value("年假能分开休吗？")
    at.text_area[0].set_value("可以，以半天为最小单位。")
    at.text_area[1].set_value("人事部口头通知\n考勤制度第七条\n[点我](http://x.example)")
    next(b for b in at.button if b.label == "添加").click().run()
    assert not at.exception and not at.error, [e.value for e in [*at.exception, *at.error]]
    [notice] = [s.value for s in at.success]
    assert "已添加标准答复" in notice and "人事部口头通知" in notice and "考勤制度第七条" not in notice
    assert "](http" not in notice, notice  # HR's clause is shown inert: no live link
