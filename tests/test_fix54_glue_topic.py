"""A complete question that shares words with the last answer's policy is searched as typed: 离职需要提前几天申请
after 年假有几天 (whose clause mentions 离职 in passing) is about resignation, not annual leave. A topic rule tried in
stop 54 glued it and answered with annual leave's 提前3个工作日 (review 54h #1); the rule was then dropped, having
lost on follow-up sessions nobody on the team had read (docs/retrieval.md, "Stop 54")."""

from __future__ import annotations

from fakes import fake_assistant_with_samples


def test_a_complete_question_after_annual_leave_is_searched_as_typed(tmp_path) -> None:
    a = fake_assistant_with_samples(tmp_path / "s")
    a.ask("年假有几天？", user="u1", conversation="c1")
    trace = a.ask("离职需要提前几天申请？", user="u1", conversation="c1")
    assert trace.search_question == "离职需要提前几天申请？", trace.followup
