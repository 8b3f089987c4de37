"""Review 52n2 #2: a job or a workplace with 咨询 in it is a fact; only a verb of asking or knowing that is the
clause's main verb (after the subject) says the clause tells nothing of the person."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core.memory.extraction import rule_facts
from rag_core.text.discourse import asks_or_knows

JOBS = ["我是咨询顾问", "我在咨询公司上班", "我是HR咨询专员", "我负责员工咨询工作", "我在咨询行业工作"]


@pytest.mark.parametrize("told", JOBS)
def test_a_job_with_zixun_is_kept(told):
    assert not asks_or_knows(told)
    assert rule_facts(told), told


@pytest.mark.parametrize("said", ["我在咨询年假", "我是来咨询年假的", "我咨询过HR", "我昨天问过HR了", "用户想问问年假",
                                  "用户是新员工，想问问年假", "我觉得年假太少"])
def test_the_verb_itself_still_tells_nothing(said):
    assert asks_or_knows(said)


@pytest.mark.parametrize("told", ["我是咨询顾问", "我在咨询公司上班", "我是HR咨询专员"])
def test_the_job_is_remembered(tmp_path, told):
    a = fake_assistant(tmp_path / "store")
    a.ask(told, user="n2a", conversation="c")
    assert a.list_memories("n2a"), told
