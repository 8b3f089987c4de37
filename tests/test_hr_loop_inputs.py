"""What a library caller or an odd keyboard can hand the HR loop: characters an Excel file cannot hold, one string
where a list is expected, feedback ids no row can have. Each gets Chinese words or a clean file, never a traceback."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from openpyxl import load_workbook
from perm_support import HR, team_store

from rag_core import RagError
from rag_core.insights.export import to_xlsx
from rag_core.text.inputs import checked


def test_an_excel_export_drops_what_its_xml_cannot_hold() -> None:
    data = to_xlsx({"知识缺口": [{"问题": "年假\uffff几天\ufffe？\x07", "次数": 2}]})
    sheet = load_workbook(io.BytesIO(data))["知识缺口"]
    assert [c.value for c in sheet[2]] == ["年假几天？", 2]


def test_a_typed_question_loses_the_noncharacters() -> None:
    assert checked("年假\uffff几天？") == "年假 几天？"


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory):
    return team_store(Path(tmp_path_factory.mktemp("team")))


def test_one_string_is_one_clause_one_wording_one_audience(team) -> None:
    entry = team.add_standard_answer("宠物假有几天？", "宠物假 2 天。", clauses="《休假制度》第一条",
                                     variants="宠物假能休几天", audience="hr", actor=HR)
    assert entry.clauses == ["《休假制度》第一条"] and entry.variants == ["宠物假能休几天"]
    assert tuple(entry.audience) == ("hr",)


@pytest.mark.parametrize("feedback_id", [10**20, -(10**20), None, "x"])
def test_a_feedback_id_no_row_can_have_is_answered_in_chinese(team, feedback_id) -> None:
    with pytest.raises(RagError, match="没有编号为"):
        team.feedback_detail(feedback_id, actor=HR)
    assert team.mark_feedback_reviewed([feedback_id], actor=HR) == 0
    assert team.feedback_standard_answers([feedback_id], actor=HR) == {}
