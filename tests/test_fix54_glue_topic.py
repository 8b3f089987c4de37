"""A follow-up that names no topic of its own (要提前多久申请 after 婚假有几天) goes on with the conversation's
topic when the question alone finds its best clause in another policy and glued it stays in the last answer's
(`conversations.glue`); a question that finds its clause where the last answer came from is left as typed."""

from __future__ import annotations

from fakes import fake_assistant

from rag_core.conversations.glue import GLUE_MARGIN, STAYS, LastAnswer, Reading, reads_better, stays_on_topic

MARRIAGE = ("# 婚假管理办法\n\n第一条 员工依法登记结婚的，可享受婚假10天。\n\n"
            "第二条 申请婚假应提前两周提出，婚假申请由部门负责人批准。\n")
TRAVEL = ("# 出差管理办法\n\n第一条 员工出差要提前多久申请：应提前3天申请，填写出差申请单。\n\n"
          "第二条 出差申请提前提交，紧急出差可事后补办申请。\n")


MARRIED = LastAnswer(("marriage",), "第二条 申请婚假应提前两周提出，婚假申请由部门负责人批准。")


def test_glued_when_the_question_alone_leaves_the_last_answers_policy() -> None:
    typed, glued = Reading(0.95, 3, "travel"), Reading(0.97, 3, "marriage")
    assert stays_on_topic("要提前多久申请？", typed, glued, MARRIED)
    assert reads_better("要提前多久申请？", typed, glued, MARRIED)
    assert not reads_better("要提前多久申请？", typed, Reading(0.95, 3, "marriage"), MARRIED)  # not more answerable
    assert not reads_better("要提前多久申请？", typed, glued, LastAnswer(("other",), MARRIED.text))  # no topic kept


def test_not_glued_when_the_question_names_what_the_last_answer_does_not() -> None:
    """离职需要提前几天申请 after 年假 names 离职, which the last answer's clauses do not: a question of its own
    (review 54h #1: it was glued and answered with annual leave's 提前3个工作日)."""
    typed, glued = Reading(0.95, 3, "travel"), Reading(0.95, 3, "marriage")
    assert not stays_on_topic("离职需要提前多久申请？", typed, glued, MARRIED)
    assert not reads_better("离职需要提前多久申请？", typed, glued, MARRIED)


def test_not_glued_when_the_question_alone_stays_or_the_glued_reading_is_worse() -> None:
    assert not stays_on_topic("要提前多久申请？", Reading(0.95, 3, "marriage"), Reading(0.99, 3, "marriage"), MARRIED)
    worse = Reading(0.95 - GLUE_MARGIN, 3, "marriage")
    assert not reads_better("要提前多久申请？", Reading(0.95, 3, "travel"), worse, MARRIED)
    assert not reads_better("要提前多久申请？", Reading(0.2, 3, "travel"), Reading(0.9, 0, ""), MARRIED)  # no hits


def test_a_complete_question_after_annual_leave_is_searched_as_typed(tmp_path) -> None:
    """Review 54h #1, through the facade on the samples."""
    from fakes import fake_assistant_with_samples

    a = fake_assistant_with_samples(tmp_path / "s")
    a.ask("年假有几天？", user="u1", conversation="c1")
    trace = a.ask("离职需要提前几天申请？", user="u1", conversation="c1")
    assert trace.search_question == "离职需要提前几天申请？", trace.followup


def test_a_follow_up_without_a_topic_goes_on_with_the_conversations(tmp_path) -> None:
    """The facade reads where the last answer came from: with the question alone nearly as answerable as glued
    (within GLUE_MARGIN), the topic decides."""
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(MARRIAGE.encode(), "婚假管理办法.md").ok
    assert a.ingest_bytes(TRAVEL.encode(), "出差管理办法.md").ok
    a.ask("婚假有几天？", user="u1", conversation="c1")
    search = a.search

    def as_answerable(question, **kwargs):  # the question alone reads nearly as answerable as glued
        result = search(question, **kwargs)
        if question == "要提前多久申请？":
            result.answerable = 0.99
        return result

    a.search = as_answerable
    trace = a.ask("要提前多久申请？", user="u1", conversation="c1")
    assert trace.search_question != "要提前多久申请？", trace.followup
    assert STAYS in trace.followup
    assert trace.search.hits[0].chunk.title.startswith("婚假")
