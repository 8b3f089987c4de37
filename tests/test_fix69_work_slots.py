"""Review 372 #2: a new post or probation status kept both facts, and both went into the answer (经理 +20%, 总监
+50%: the model had to guess). A post and probation are slots now, one value at a time, as a city or a department."""

from __future__ import annotations

import pytest
from fakes import fake_assistant_with_samples

from rag_core.memory.text import slots


@pytest.mark.parametrize(("first", "then", "kept"), [
    ("我是经理", "我升职成总监了", "用户升职成总监了"),
    ("我还在试用期", "我已经转正了", "用户已经转正了"),
])
def test_a_new_post_or_status_replaces_the_old(tmp_path, first, then, kept):
    a = fake_assistant_with_samples(tmp_path / "d")
    a.ask(first, user="u1")
    a.ask(then, user="u1")
    assert [m.content for m in a.list_memories("u1")] == [kept]


@pytest.mark.parametrize(("fact", "found"), [
    ("用户是研发部经理", {"department": "研发部"}),  # the unit's post names the department, as before
    ("用户同事升职成总监了", {}),  # someone else's post
    ("用户还没转正", {}),  # denied, not a status told
    ("用户是理想主义者", {}),
    # review 374 #3: a wish, a plan or a past post replaced the current one
    ("用户希望明年能升职为经理", {}), ("用户以前是主管", {}), ("用户下个月转正", {}), ("用户快转正了", {}),
    ("用户希望早点转正", {}),
])
def test_only_the_persons_own_post_is_a_slot(fact, found):
    assert slots(fact) == found
