"""A memory owner kept under a name with a control character (older CLIs took "王\\t小明") stays reachable (review 54d).

The exemption for names already kept covered the personal-data rule only: such a person was listed by
`memory_users()` but their memories could no longer be read or purged. A name typed anew is still refused."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core.facade.owner_names import NAME_CONTROL_REFUSED
from rag_core.text.inputs import InputError
from rag_core.types import Principal

ADMIN = Principal("boss", "admin")


@pytest.mark.parametrize("owner", ["王\t小明", "王五\u200b"])
def test_a_kept_owner_with_a_control_character_can_be_read_and_purged(tmp_path, owner):
    a = fake_assistant(tmp_path / "s")
    a.memory.add(owner, "用户在销售部")
    assert owner in a.memory_users()
    assert a.checked_memory_owner(owner) == owner
    assert [m.content for m in a.list_memories(owner)] == ["用户在销售部"]
    assert a.purge_memories(owner).count == 1
    assert owner not in a.memory_users()  # gone: typed again, the name is a new one and meets the rules


def test_a_new_name_with_a_control_character_is_still_refused(tmp_path):
    a = fake_assistant(tmp_path / "s")
    a.memory.add("王\t小明", "用户在销售部")
    for typed in ("王\t小红", "王五\u200b", "dave\nforged"):
        with pytest.raises(InputError, match=NAME_CONTROL_REFUSED):
            a.checked_memory_owner(typed)
        with pytest.raises(InputError, match=NAME_CONTROL_REFUSED):
            a.list_memories(typed, actor=ADMIN)
