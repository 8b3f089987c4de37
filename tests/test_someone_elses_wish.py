"""A wish to know said for someone else (我老公想了解一下陪产假) is asked, and nothing is remembered of it; a space
before a wish marks a statement only when what stands before it tells something (我是新员工 想问下试用期).

Before: 我老公想了解一下陪产假 was remembered whole and never searched, and 我们部门 想问下团建费 kept the memory
用户所在的部门."""

from __future__ import annotations

import pytest
from fakes import fake_assistant


@pytest.mark.parametrize(("typed", "searched", "kept"), [
    ("我老公想了解一下陪产假", "陪产假", []),
    ("我们部门 想问下团建费", "团建费", []),
    ("我老公 想了解一下陪产假", "陪产假", []),
    ("我同事想问一下年假怎么算", "年假怎么算", []),
    ("我是新员工 想问下试用期", "试用期", ["用户是新员工"]),
    ("我怀孕了 想问下产假", "产假", ["用户怀孕了"]),
])
def test_a_wish_is_asked_and_only_what_was_told_is_kept(tmp_path, typed, searched, kept):
    a = fake_assistant(tmp_path / "store")
    trace = a.ask(typed, user="u", conversation="c")
    assert trace.search_question == searched
    assert [m.content for m in a.memory.list("u")] == kept
