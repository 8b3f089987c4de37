"""Review 333: what HR is told of standard answers follows what HR may read.

An upload's report counted the standard answers its new version held, also an administrator's answer for managers
that HR cannot list; a held answer resting on a policy narrowed to managers is covered by test_fix60_std_quote.py.
"""

from __future__ import annotations

from fakes import fake_assistant

from rag_core.types import Principal

ADMIN, HR, HR_M = Principal("wang", "admin"), Principal("li", "hr"), Principal("zhao", "hr", audiences=("managers",))
V1 = "# 年假制度\n\n第一条 员工每年享有五天带薪年假，需提前三天申请。\n".encode()
V2 = "# 年假制度\n\n第一条 员工每年享有十天带薪年假，需提前一周申请。\n".encode()
V3 = "# 年假制度\n\n第一条 员工每年享有十五天带薪年假，需提前两周申请。\n".encode()


def _held_lines(report) -> list[str]:
    return [w for w in report.warnings if "标准答复" in w]


def test_an_upload_report_counts_only_the_held_answers_the_uploader_may_read(tmp_path):
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(V1, "年假制度.md", actor=HR).ok
    managers = a.add_standard_answer("经理年假有几天？", "经理口径：员工每年享有五天带薪年假，经理另加三天。",
                                     clauses=["《年假制度》第一条 员工每年享有五天带薪年假"], audience=["managers"],
                                     actor=ADMIN, sources=["年假制度"])
    report = a.ingest_bytes(V2, "年假制度.md", actor=HR)
    assert report.status == "indexed" and not _held_lines(report), report.warnings
    assert managers.id in a.standard_answer_holds(actor=ADMIN)  # held all the same
    everyone = a.add_standard_answer("年假有几天？", "员工每年享有十天带薪年假。", clauses=["《年假制度》第一条 员工每年享有十天带薪年假"],
                                     actor=HR, sources=["年假制度"])
    report = a.ingest_bytes(V3, "年假制度.md", actor=HR_M)
    [line] = _held_lines(report)
    assert line.startswith("2 条"), line  # HR reading managers: both
    assert {managers.id, everyone.id} <= set(a.standard_answer_holds(actor=HR_M))


def test_usage_counts_only_questions_whose_cited_policies_the_reader_may_read(tmp_path):
    """使用情况 (and the gap page's question count) rose with questions answered only from a managers' policy."""
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes("# 休假制度\n\n第一条 员工年假五天。\n".encode(), "leave.md", actor=ADMIN).ok
    assert a.ingest_bytes("# 企鹅计划\n\n第一条 企鹅计划裁撤三成岗位，补偿N加3。\n".encode(), "penguin.md",
                          audience=["managers"], actor=ADMIN).ok
    boss = Principal("boss", "employee", ("managers",))
    for question in ("企鹅计划裁撤多少岗位？", "企鹅计划补偿是多少？", "企鹅计划裁撤几成岗位？"):
        trace = a.ask(question, user="boss", actor=boss, remember=False)
        assert trace.search.hits and {h.chunk.doc_id for h in trace.search.hits} == {"penguin"}
    a.ask("年假几天？", user="boss", actor=boss, remember=False)
    assert a.usage(actor=HR)["questions"] == 1 and a.question_window(actor=HR)["questions"] == 1
    assert a.usage(actor=HR_M)["questions"] == 4 and a.usage(actor=ADMIN)["questions"] == 4


def test_usage_leaves_out_questions_a_managers_standard_answer_served(tmp_path):
    """Review 336: a standard answer cites no document, so questions it served passed the documents' filter."""
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes("# 企鹅计划\n\n第一条 企鹅计划裁撤三成岗位，补偿N加3。\n".encode(), "penguin.md",
                          audience=["managers"], actor=ADMIN).ok
    entry = a.add_standard_answer("企鹅计划裁撤多少岗位？", "企鹅计划裁撤三成岗位。", clauses=["《企鹅计划》第一条 企鹅计划裁撤三成岗位"],
                                  audience=["managers"], actor=ADMIN, sources=["penguin"])
    boss = Principal("boss", "employee", ("managers",))
    assert a.ask("企鹅计划裁撤多少岗位？", user="boss", actor=boss, remember=False).standard_answer["id"] == entry.id
    assert a.usage(actor=HR)["questions"] == 0 and a.question_window(actor=HR)["questions"] == 0
    assert a.usage(actor=HR_M)["questions"] == 1 and a.usage(actor=ADMIN)["questions"] == 1
    a.delete_standard_answer(entry.id, actor=ADMIN)  # gone: nothing tells whose it was, counted (review 338)
    assert a.usage(actor=HR)["questions"] == 1 and a.usage(actor=ADMIN)["questions"] == 1


def test_a_delete_preview_names_no_standard_answer_hidden_from_the_actor(tmp_path):
    """Review 336: HR's delete confirmation named, by its question, an answer held for a policy narrowed to managers."""
    a = fake_assistant(tmp_path / "s")
    leave, bonus = "# 休假制度\n\n第一条 员工每年享有五天带薪年假。\n".encode(), "# 奖金制度\n\n第一条 年终奖按绩效发放。\n".encode()
    assert a.ingest_bytes(leave, "leave.md", actor=HR).ok and a.ingest_bytes(bonus, "bonus.md", actor=HR).ok
    a.add_standard_answer("企鹅计划期间年假和年终奖怎么算？", "年假五天照休，年终奖按绩效。", actor=HR, sources=["leave", "bonus"],
                          clauses=["《休假制度》第一条 员工每年享有五天带薪年假", "《奖金制度》第一条 年终奖按绩效发放"])
    assert a.ingest_bytes(bonus, "bonus.md", audience=["managers"], actor=ADMIN).ok
    assert a.delete_preview("leave", actor=HR).held == []
    assert a.delete_preview("leave", actor=HR_M).held == ["企鹅计划期间年假和年终奖怎么算？"]


def test_usage_with_the_standard_answers_file_lost_opens_no_new_one(tmp_path):
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(V1, "年假制度.md", actor=ADMIN).ok
    entry = a.add_standard_answer("年假有几天？", "五天。", clauses=["《年假制度》第一条 员工每年享有五天带薪年假"], actor=ADMIN)
    assert a.ask("年假有几天？", user="", remember=False).standard_answer["id"] == entry.id
    b = fake_assistant(tmp_path / "s")
    (tmp_path / "s" / "standard_answers.sqlite3").unlink()
    assert b.usage(actor=HR)["questions"] == 0 and b.usage(actor=ADMIN)["questions"] == 1
    assert not (tmp_path / "s" / "standard_answers.sqlite3").exists()
