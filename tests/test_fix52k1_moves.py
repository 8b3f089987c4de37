"""Review 52k1 #1: telling a move (city or department) in everyday words replaces the old fact."""

from __future__ import annotations

import pytest

from rag_core.memory.text import slots
from tests.fakes import fake_assistant_with_samples


@pytest.fixture(scope="module")
def assistant(tmp_path_factory):
    a = fake_assistant_with_samples(tmp_path_factory.mktemp("moves") / "s")
    return a


def _contents(a, user: str) -> list[str]:
    return [m.content for m in a.list_memories(user)]


@pytest.mark.parametrize("moved", ["我现在在上海工作", "我现在在上海上班", "我搬到上海了", "我现在base上海", "我在上海",
                                   "我住在上海", "我回上海了", "我常驻上海了"])
def test_a_new_city_replaces_the_old(assistant, moved):
    user = f"city-{moved}"
    assistant.ask("我常驻杭州", user=user, conversation=f"c-{moved}")
    assistant.ask(moved, user=user, conversation=f"c-{moved}")
    contents = _contents(assistant, user)
    assert not any("杭州" in c for c in contents), contents
    assert any("上海" in c for c in contents), contents


@pytest.mark.parametrize("moved", ["我去人事部了", "我换到人事部了", "我调到人事部了", "我现在归人事部了"])
def test_a_new_department_replaces_the_old(assistant, moved):
    user = f"dept-{moved}"
    assistant.ask("我在财务部工作", user=user, conversation=f"c-{moved}")
    assistant.ask(moved, user=user, conversation=f"c-{moved}")
    contents = _contents(assistant, user)
    assert not any("财务部" in c for c in contents), contents


@pytest.mark.parametrize(("fact", "slot", "value"), [
    ("用户常驻上海了", "city", "上海"), ("用户改名叫李丽了", "name", "李丽"), ("用户搬去深圳了", "city", "深圳"),
    ("用户在上海市办公", "city", "上海"), ("用户去人事部了", "department", "人事部"),
])
def test_slot_values_carry_no_trailing_le(fact, slot, value):
    assert slots(fact).get(slot) == value


@pytest.mark.parametrize("fact", ["用户在公司上班", "用户回老家了", "用户住在宿舍", "用户在家里办公", "用户去人事部办手续",
                                  "用户在上海出差", "用户老婆在上海工作", "用户搬到新办公室了"])
def test_what_is_no_move_gives_no_city_or_department(fact):
    found = slots(fact)
    assert "city" not in found and "department" not in found, found
