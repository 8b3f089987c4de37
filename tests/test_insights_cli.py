"""Acceptance through the CLI on the real facade and e5: gaps, standard answers (faq), usage, export.

`main([...])` in-process on a copy of the sample store (the model loads once).
"""

from __future__ import annotations

import json

import pytest
from cli_support import invoke
from openpyxl import load_workbook

pytestmark = pytest.mark.integration

BUS = ["公司有班车吗？", "上下班有没有通勤班车可以坐？", "有没有接送员工上下班的班车？"]
PETS = "员工可以带宠物来上班吗？"
ANSWERED = "出差住宿标准是多少？"
BUS_ANSWER = "公司在早晚高峰提供免费班车，线路见行政部通知。"


@pytest.fixture()
def run(capsys, monkeypatch, tmp_path, store_copy):
    monkeypatch.chdir(tmp_path)  # no `.env` from the checkout

    def run_command(*args: str, check: bool = True):
        result = invoke(capsys, "--data-dir", str(store_copy), *args)
        if check:
            assert result.exit_code == 0, result.stderr
        return result

    return run_command


def ask(run, question: str) -> dict:
    return run("ask", question, "--json").json()


def test_gaps_group_by_meaning_and_a_standard_answer_serves_paraphrases_only(run, tmp_path):
    for question in [*BUS, PETS, ANSWERED]:
        ask(run, question)
    groups = run("gaps", "--json").json()["groups"]
    by_count = sorted(((g["count"], g["representative"]) for g in groups), reverse=True)
    assert by_count[0][0] == 3 and by_count[0][1] in BUS, groups
    assert [g for g in groups if g["representative"] == PETS and g["count"] == 1], groups
    assert len(groups) == 2 and not any(ANSWERED in g["questions"] for g in groups)
    bus = next(g for g in groups if g["count"] == 3)
    assert sorted(bus["questions"]) == sorted(BUS)
    assert {"first_seen", "last_seen", "nearest", "kinds"} <= set(bus) and bus["users"] == ["local"]  # the CLI acts as the local administrator
    assert not run("gaps", "--since", "2099-01-01", "--json").json()["groups"]

    added = run("faq", "add", BUS[0], "--answer", BUS_ANSWER, "--clause", "行政部通知〔2026〕3号", "--json").json()
    listed = run("faq", "list", "--json").json()["standard_answers"]
    assert [(e["id"], e["question"], e["hits"]) for e in listed] == [(added["id"], BUS[0], 0)]

    served = ask(run, "公司有没有班车？")
    assert served["answer"] == BUS_ANSWER and served["answerer"] == "标准答复"
    assert served["standard_answer"]["id"] == added["id"]
    assert served["standard_answer"]["clauses"] == ["行政部通知〔2026〕3号"]
    assert served["standard_answer"]["author"] and served["standard_answer"]["created_at"]
    for other in ("公司有食堂吗？", "年假有几天？", "出差可以坐高铁吗？"):
        assert ask(run, other).get("standard_answer") is None, other
    assert run("faq", "list", "--json").json()["standard_answers"][0]["hits"] == 1
    # close in meaning (e5 cosine 0.953) but another question: the word rule keeps it out
    probation = run("faq", "add", "劳动法规定的试用期最长可以约定多久？", "--answer", "最长六个月。", "--json").json()
    assert ask(run, "续订劳动合同可以再约定试用期吗？").get("standard_answer") is None
    assert ask(run, "试用期最长能约定多长时间？")["standard_answer"]["id"] == probation["id"]
    run("faq", "delete", probation["id"])

    usage = run("usage", "--json").json()
    assert usage["questions"] >= 9 and usage["never_cited"]
    assert any(row["cited_30d"] >= 1 for row in usage["documents"])
    out = tmp_path / "gaps.xlsx"
    run("insights-export", "gaps", "--out", str(out))
    rows = list(load_workbook(out).worksheets[0].values)
    assert rows[0][0] == "代表问题" and len(rows) >= 3  # the export's columns read in Chinese

    run("faq", "delete", added["id"])
    assert run("faq", "list", "--json").json()["standard_answers"] == []
    assert ask(run, "公司有没有班车？").get("standard_answer") is None


def test_bad_input_gets_a_chinese_error(run):
    with pytest.raises(SystemExit) as bad:  # a usage error since review 392 #7: exit 2, as audit's
        run("gaps", "--since", "last-week", check=False)
    assert bad.value.code == 2
    empty = run("faq", "add", "  ", "--answer", "有", check=False)
    assert empty.exit_code == 1 and "不能为空" in empty.stderr
    gone = run("faq", "delete", "nope", check=False)
    assert gone.exit_code == 1 and "没有编号" in gone.stderr
    assert json.loads(run("faq", "list", "--json").stdout) == {"standard_answers": []}
