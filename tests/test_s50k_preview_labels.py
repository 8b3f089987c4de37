"""A preview label is checked within what the actor may read (review s50k defect 3): the refusal names only
labels the actor can read, and another audience's label is refused with the unknown label's words.

`Assistant.search` and `ask` must pass the actor's `readable` to `checked_preview` (rag_core/assistant.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.facade.audience_preview import checked_preview, preview_labels
from rag_core.text.inputs import InputError
from rag_core.types import Principal

ADMIN = Principal("boss", "admin")
HR = Principal("hr_li", "hr")
EMPLOYEE = Principal("emp_wang", "employee")
SECRET = "董事会-裁员项目组"
DOC = "# 裁员项目说明\n\n## 第一条\n\n项目组名单保密。\n".encode()


@pytest.fixture()
def catalog(tmp_path: Path):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(DOC, "secret.md", audience=[SECRET], actor=ADMIN).ok
    return a.catalog


def refusal(role: str, catalog, actor: Principal) -> str:
    with pytest.raises(InputError) as refused:
        checked_preview(role, catalog, actor.readable)
    return str(refused.value)


def test_an_employee_is_never_told_another_audiences_label(catalog):
    assert preview_labels(catalog, EMPLOYEE.readable) == ["all", "hr", "managers"]  # the engine's own: no secret
    unknown, hidden = refusal("nope", catalog, EMPLOYEE), refusal(SECRET, catalog, EMPLOYEE)
    assert SECRET not in unknown and hidden == unknown.replace("nope", SECRET)  # the same words: no hint it exists
    assert checked_preview("all", catalog, EMPLOYEE.readable) == "all"


def test_hr_previews_its_own_labels_and_an_administrator_every_one(catalog):
    assert preview_labels(catalog, HR.readable) == ["all", "hr", "managers"]
    assert SECRET not in refusal("HR", catalog, HR) and checked_preview("hr", catalog, HR.readable) == "hr"
    assert checked_preview(SECRET, catalog, ADMIN.readable) == SECRET
    assert SECRET in refusal("HR", catalog, ADMIN)
    reader = Principal("board_zhao", "employee", audiences=(SECRET,))
    assert checked_preview(SECRET, catalog, reader.readable) == SECRET
