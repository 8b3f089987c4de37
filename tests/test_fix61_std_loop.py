"""Review 61, standard answers and their loop: the gap form follows its group, a blank 依据 still holds the answer on
what its text names (and both forms warn when it names nothing), a new edition's title is no change to its
articles, and a 👎 on a standard answer says which one in 反馈审阅."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_support import logged_in_with
from fakes import fake_assistant

from rag_core.errors import RagError
from rag_core.types import Principal

APP = str(Path(__file__).resolve().parents[1] / "app.py")
PASSWORD = "correct horse"
ADMIN, HR, EMP = Principal("wang", "admin"), Principal("li", "hr"), Principal("zhang", "employee")
BODY = "\n\n## 第一条 年假天数\n\n员工每年享有五天带薪年假，需提前三天申请。\n\n## 第二条 病假\n\n病假须提供医院证明。\n"
V1 = ("# 年假制度" + BODY).encode()
V2 = V1.replace("五天".encode(), "十天".encode())
CITING = "依据《年假制度》第一条，员工每年享有五天带薪年假。"


@pytest.fixture
def assistant(tmp_path: Path):
    a = fake_assistant(tmp_path / "store")
    a.add_user("wang", "admin", PASSWORD)
    return a


def page(a, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, path: str):
    at = logged_in_with(a, APP, "wang", PASSWORD, tmp_path, monkeypatch)
    at.switch_page(path).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


# -- 3: the gap form's text stays with its group ---------------------------------------------------------------
def test_a_refused_gap_answer_stays_with_its_group_when_the_groups_reorder(assistant, tmp_path, monkeypatch):
    for question in ("公司有班车吗", "公司有班车吗？"):
        assistant.ask(question, actor=EMP)
    assistant.ask("可以带宠物来上班吗", actor=EMP)
    at = page(assistant, tmp_path, monkeypatch, "pages/gaps.py")
    assert "班车" in at.expander[0].label
    at.text_area(key="gap_answer_0").set_value("公司在早晚高峰提供免费班车。")
    at.multiselect(key="gap_audience_0").set_value([])  # no audience: refused, the text kept
    next(b for b in at.button if b.label == "设为标准答复").click().run()
    assert at.error
    for _ in range(3):  # the pet question now comes first
        assistant.ask("可以带宠物来上班吗", actor=EMP)
    at.run()
    labels = [e.label for e in at.expander]
    shuttle = next(i for i, label in enumerate(labels) if "班车" in label)
    pets = next(i for i, label in enumerate(labels) if "宠物" in label)
    assert shuttle != 0
    assert at.text_area(key=f"gap_answer_{shuttle}").value == "公司在早晚高峰提供免费班车。"
    assert at.text_area(key=f"gap_answer_{pets}").value == ""
    at.multiselect(key=f"gap_audience_{shuttle}").set_value(["all"])
    next(b for b in at.button if b.label == "设为标准答复" and b.form_id == f"gap_to_standard_{shuttle}").click().run()
    assert not at.exception, [e.value for e in at.exception]
    stored = [(e.question, e.answer) for e in assistant.standard_answers(actor=HR)]
    assert len(stored) == 1 and "班车" in stored[0][0] and "班车" in stored[0][1]


# -- 5: a blank 依据 rests on what the answer itself names -------------------------------------------------------
def test_an_answer_with_blank_clauses_naming_the_policy_is_held_when_it_changes(assistant):
    assert assistant.ingest_bytes(V1, "年假制度.md", actor=ADMIN).ok
    entry = assistant.add_standard_answer("年假有几天", CITING, clauses=[], actor=ADMIN)
    assert assistant.ingest_bytes(V1, "年假制度.md", actor=ADMIN).ok  # the same text again: still served
    assert entry.id not in assistant.standard_answer_holds(actor=ADMIN)
    assert assistant.ingest_bytes(V2, "年假制度.md", actor=ADMIN).ok
    assert entry.id in assistant.standard_answer_holds(actor=ADMIN)


def test_an_answer_with_blank_clauses_naming_the_policy_is_held_when_it_is_deleted(assistant):
    assert assistant.ingest_bytes(V1, "年假制度.md", actor=ADMIN).ok
    entry = assistant.add_standard_answer("年假有几天", CITING, clauses=[], actor=ADMIN)
    other = assistant.add_standard_answer("公司有班车吗", "有，早晚各一班。", clauses=[], actor=ADMIN)
    assistant.delete_document(assistant.catalog.live_versions()[0].doc_id, actor=ADMIN)
    holds = assistant.standard_answer_holds(actor=ADMIN)
    assert entry.id in holds and other.id not in holds


def test_the_standard_answer_page_warns_when_the_answer_rests_on_nothing(assistant, tmp_path, monkeypatch):
    assert assistant.ingest_bytes(V1, "年假制度.md", actor=ADMIN).ok
    at = page(assistant, tmp_path, monkeypatch, "pages/standard_answers.py")
    for question, answer in (("公司有班车吗", "有，早晚各一班。"), ("年假有几天", CITING)):
        at.text_input(key="standard_question").set_value(question)
        at.text_area(key="standard_answer").set_value(answer)
        next(b for b in at.button if b.label == "添加").click().run()
        assert not at.exception, [e.value for e in at.exception]
        said = " ".join(str(e.value) for e in [*at.success, *at.warning, *at.info, *at.toast])
        assert "已添加标准答复" in said, said
        assert ("依据为空" in said) == (question == "公司有班车吗"), said


def test_the_gap_form_warns_about_clauses_and_blank_basis_that_anchor_nothing(assistant, tmp_path, monkeypatch):
    assistant.ask("公司有班车吗", actor=EMP)
    assistant.ask("可以带宠物来上班吗", actor=EMP)
    at = page(assistant, tmp_path, monkeypatch, "pages/gaps.py")
    labels = [e.label for e in at.expander]
    shuttle, pets = (next(i for i, label in enumerate(labels) if word in label) for word in ("班车", "宠物"))
    at.text_area(key=f"gap_answer_{shuttle}").set_value("公司在早晚高峰提供免费班车。")
    at.text_area(key=f"gap_clauses_{shuttle}").set_value("按行政部规定")
    next(b for b in at.button if b.label == "设为标准答复" and b.form_id == f"gap_to_standard_{shuttle}").click().run()
    assert any("没有对应到任何文档" in s.value and "按行政部规定" in s.value for s in at.success), \
        [s.value for s in at.success]
    labels = [e.label for e in at.expander]
    pets = next(i for i, label in enumerate(labels) if "宠物" in label)
    at.text_area(key=f"gap_answer_{pets}").set_value("不可以。")
    next(b for b in at.button if b.label == "设为标准答复" and b.form_id == f"gap_to_standard_{pets}").click().run()
    assert any("依据为空" in s.value for s in at.success), [s.value for s in at.success]


# -- 6: a new edition's title is no change to its articles --------------------------------------------------------
@pytest.mark.parametrize("clauses", [["《年假制度》第一条"], ["年假制度第一条：员工每年享有五天带薪年假"]])
def test_a_new_edition_title_does_not_hold_an_answer_on_an_untouched_article(assistant, clauses):
    assert assistant.ingest_bytes(V1, "leave.md", actor=ADMIN).ok
    entry = assistant.add_standard_answer("年假有几天", "五天。", clauses=clauses, actor=ADMIN)
    revised = ("# 年假制度（2024年修订）" + BODY.replace("医院证明", "二级以上医院证明")).encode()
    assert assistant.ingest_bytes(revised, "leave.md", actor=ADMIN).ok
    assert entry.id not in assistant.standard_answer_holds(actor=ADMIN)
    changed = ("# 年假制度（2025年修订）" + BODY.replace("五天", "十天")).encode()
    assert assistant.ingest_bytes(changed, "leave.md", actor=ADMIN).ok
    assert entry.id in assistant.standard_answer_holds(actor=ADMIN)


@pytest.mark.parametrize("clauses", [["按《年假制度》执行"], ["年假制度"]])
def test_a_renamed_policy_with_the_same_text_does_not_hold_an_answer_naming_it(assistant, clauses):
    assert assistant.ingest_bytes(V1, "leave.md", actor=ADMIN).ok
    entry = assistant.add_standard_answer("年假有几天", "五天。", clauses=clauses, actor=ADMIN)
    assert assistant.ingest_bytes(("# 年假管理制度" + BODY).encode(), "leave.md", actor=ADMIN).ok
    assert entry.id not in assistant.standard_answer_holds(actor=ADMIN)


# -- 7: a 👎 on a standard answer says which one ------------------------------------------------------------------
def test_a_dislike_of_a_standard_answer_names_it_in_feedback_review(assistant, tmp_path, monkeypatch):
    entry = assistant.add_standard_answer("年假有几天？", "年假五天。", clauses=["《年假制度》第一条"], actor=ADMIN)
    trace = assistant.ask("年假有几天？", user="zhang", actor=EMP, conversation="c1")
    assert trace.standard_answer
    assistant.record_feedback(trace, -1, actor=EMP, reason="信息过时")
    searched = assistant.ask("可以带宠物来上班吗", user="zhang", actor=EMP, conversation="c1")
    assistant.record_feedback(searched, -1, actor=EMP, reason="答非所问")
    rows = assistant.feedback_reviews(actor=ADMIN)
    named = assistant.feedback_standard_answers([r.id for r in rows], actor=HR)
    rated = next(r for r in rows if r.reason == "信息过时")
    assert named == {rated.id: {"id": entry.id, "question": "年假有几天？", "author": "wang"}}
    at = page(assistant, tmp_path, monkeypatch, "pages/feedback_review.py")
    shown = [i.value for i in at.info]
    assert any(f"标准答复 编号 {entry.id}" in v and "标准答复”页" in v for v in shown), shown
    assert sum("标准答复 编号" in v for v in shown) == 1


@pytest.mark.parametrize("clauses", [["按《年假制度》执行"], ["《年假制度》第一条"], ["年假制度"]])
def test_an_answer_naming_a_title_the_policy_had_before_a_rename_is_held_when_it_changes(tmp_path, clauses):
    admin = Principal("wang", "admin")
    body = "\n\n## 第一条 年假天数\n\n员工每年享有五天带薪年假，需提前三天申请。\n"
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(("# 年假制度" + body).encode(), "leave.md", actor=admin).ok
    entry = a.add_standard_answer("年假有几天", "五天。", clauses=clauses, actor=admin)
    assert a.ingest_bytes(("# 年假管理制度" + body).encode(), "leave.md", actor=admin).ok  # renamed, same text
    assert entry.id not in a.standard_answer_holds(actor=admin)
    assert a.ingest_bytes(("# 年假管理制度" + body.replace("五天", "十天")).encode(), "leave.md", actor=admin).ok
    assert entry.id in a.standard_answer_holds(actor=admin)  # it names the title of two versions ago


def test_setting_a_gap_as_a_standard_answer_names_the_wordings_that_ask_otherwise(assistant, tmp_path, monkeypatch):
    for question in ("公司有班车吗", "公司有班车吗？"):
        assistant.ask(question, actor=EMP)
    # which wordings ask otherwise is the engine's (tests/test_fix61_std_match_gap.py); bigram vectors do not group a
    # negated wording with these, so the page is handed one here
    kept_apart = type(assistant).standard_gap_variants
    monkeypatch.setattr(type(assistant), "standard_gap_variants",
                        lambda self, group: (kept_apart(self, group)[0], ["公司没有班车吗？"]))
    at = page(assistant, tmp_path, monkeypatch, "pages/gaps.py")
    number = next(i for i, e in enumerate(at.expander) if "班车" in e.label)
    at.text_area(key=f"gap_answer_{number}").set_value("公司在早晚高峰提供免费班车。")
    at.multiselect(key=f"gap_audience_{number}").set_value(["all"])
    next(b for b in at.button if b.label == "设为标准答复" and b.form_id == f"gap_to_standard_{number}").click().run()
    said = " ".join(s.value for s in at.success)
    assert "已添加标准答复" in said and "没有算作它的其他问法" in said and "公司没有班车吗？" in said, said


def test_an_answer_for_everyone_whose_text_quotes_a_managers_only_policy_is_refused(assistant):
    """Its 依据 left blank, the answer rests on what its text names: for everyone it would serve a managers' rule."""
    managers = "# 经理津贴办法\n\n## 第一条 津贴\n\n部门经理每月发放管理津贴2000元。\n".encode()
    assert assistant.ingest_bytes(managers, "allowance.md", audience=["managers"], actor=ADMIN).ok
    with pytest.raises(RagError):
        assistant.add_standard_answer("经理津贴多少", "依据《经理津贴办法》第一条，每月2000元。", audience=["all"],
                                      actor=ADMIN)
    kept = assistant.add_standard_answer("经理津贴多少", "依据《经理津贴办法》第一条，每月2000元。", audience=["managers"],
                                         actor=ADMIN)
    assert kept.id in {e.id for e in assistant.standard_answers(actor=ADMIN)}
