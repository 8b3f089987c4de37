"""A turn that tells something and then only announces a question (我怀孕了有些问题想问) remembers what it told,
not the announcement: the memory page had kept 用户怀孕了有些问题想问, and 我刚入职有几个疑问 kept nothing."""

from __future__ import annotations

import pytest
from fakes import fake_assistant


@pytest.mark.parametrize(("typed", "kept"), [("我怀孕了有些问题想问", "用户怀孕了"), ("我刚入职有几个疑问", "用户刚入职")])
def test_the_told_part_is_remembered_without_the_announcement(tmp_path, typed, kept):
    a = fake_assistant(tmp_path / "store")
    trace = a.ask(typed, user="u", conversation="c")
    assert trace.search_question == ""
    assert [m.content for m in a.memory.list("u")] == [kept]
