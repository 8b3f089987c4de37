"""Review 52k1 #3: 我是‹部门›的‹姓名› is two facts, so a department change keeps the name."""

from __future__ import annotations

from rag_core.memory.extraction import rule_facts
from tests.fakes import fake_assistant_with_samples


def test_department_and_name_are_two_facts():
    assert [f.content for f in rule_facts("我是财务部的李娜")] == ["用户在财务部工作", "用户名叫李娜"]


def test_a_role_after_the_department_is_no_name():
    assert "用户名叫经理" not in [f.content for f in rule_facts("我是财务部的经理")]


def test_a_department_change_keeps_the_name(tmp_path):
    a = fake_assistant_with_samples(tmp_path / "s")
    a.ask("我是财务部的李娜", user="u1", conversation="c1")
    a.ask("我调到人事部了", user="u1", conversation="c1")
    contents = [m.content for m in a.list_memories("u1")]
    assert any("李娜" in c for c in contents), contents
    assert not any("财务部" in c for c in contents), contents
    assert any("人事部" in c for c in contents), contents
