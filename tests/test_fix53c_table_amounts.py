"""Review 53 #1: a table of amounts answers "how much" when the question names the column (午餐：30).

A row is indexed as "城市：成都，早餐：15，午餐：30，晚餐：30": its numbers carry no unit, so the offline answer
had said 没有写明具体的数字或标准 for 成都午餐补多少钱 even though the table states it.
"""

from __future__ import annotations

import io

import docx
import openpyxl
import pytest
from fakes import fake_assistant

from rag_core.answer.extractive import ExtractiveAnswerer
from rag_core.answer.prompt import NOT_IN_POLICY
from rag_core.types import SourceRef

ROWS = [["城市", "早餐", "午餐", "晚餐"], ["成都", 15, 30, 30], ["北京", 20, 40, 40], ["兰州", 10, 25, 25]]
CHENGDU = "城市：成都，早餐：15，午餐：30，晚餐：30"


def _xlsx() -> bytes:
    book = openpyxl.Workbook()
    for row in ROWS:
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _csv() -> bytes:
    return "\n".join(",".join(map(str, row)) for row in ROWS).encode("utf-8")


def _docx() -> bytes:
    document = docx.Document()
    table = document.add_table(rows=len(ROWS), cols=len(ROWS[0]))
    for i, row in enumerate(ROWS):
        for j, cell in enumerate(row):
            table.cell(i, j).text = str(cell)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


@pytest.mark.parametrize(("name", "make"), [("城市餐补标准.xlsx", _xlsx), ("城市餐补标准.csv", _csv),
                                            ("城市餐补标准.docx", _docx)])
def test_fix53c_uploaded_table_answers_the_amount_of_a_named_column(tmp_path, name, make):
    assistant = fake_assistant(tmp_path / "store")
    assert assistant.ingest_bytes(make(), name).ok
    answer = assistant.ask("成都午餐补多少钱？", user="").answer
    assert NOT_IN_POLICY not in answer
    assert f"- {CHENGDU} [资料1]" in answer.split("\n")
    # no column named 住宿: the bare numbers of 早餐/午餐/晚餐 state nothing about it
    refused = assistant.ask("成都住宿多少钱？", user="").answer
    assert refused.startswith(NOT_IN_POLICY) and "没有写明具体的数字或标准" in refused


def _table(text: str, section: str = "Sheet") -> SourceRef:
    return SourceRef(number=1, text=text, source="城市餐补标准.xlsx", section=section, chunk_id="meals@v1#0")


MEALS = _table("Sheet\n" + "\n".join([CHENGDU, "城市：北京，早餐：20，午餐：40，晚餐：40"]) + "\n")


def test_fix53c_a_named_column_states_the_amount_its_number_is():
    answer = ExtractiveAnswerer().answer("北京晚餐多少钱？", [MEALS])
    assert "- 城市：北京，早餐：20，午餐：40，晚餐：40 [资料1]" in answer.split("\n")


@pytest.mark.parametrize("question", ["成都住宿多少钱？", "成都午餐补几天？", "成都午餐能报几次？", "上海午餐补多少钱？"])
def test_fix53c_a_bare_number_states_no_other_item_and_no_other_kind(question):
    """Near-keyword traps stay refused: a column the question does not name, an amount read as days or times,
    or a city the table does not list (its rows are for other cities)."""
    answer = ExtractiveAnswerer().answer(question, [MEALS])
    assert answer.startswith(NOT_IN_POLICY) and "没有写明具体的数字或标准" in answer


def test_fix53c_the_unit_in_a_column_name_counts_for_its_cells():
    hotel = _table("Sheet\n城市：兰州，住宿标准（元/晚）：480\n城市：成都，住宿标准（元/晚）：500\n")
    answer = ExtractiveAnswerer().answer("兰州住宿每晚多少钱？", [hotel])
    assert "- 城市：兰州，住宿标准（元/晚）：480 [资料1]" in answer.split("\n")
    days = _table("Sheet\n假期：婚假，天数（天）：3\n假期：丧假，天数（天）：3\n")
    assert "- 假期：婚假，天数（天）：3 [资料1]" in ExtractiveAnswerer().answer("婚假天数是几天？", [days]).split("\n")
    # a number of days is no amount of money
    assert ExtractiveAnswerer().answer("婚假天数发多少钱？", [days]).startswith(NOT_IN_POLICY)
