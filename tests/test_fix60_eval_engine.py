"""Review 60 (rev-eval), the engine half: the eval searches what chat searches (D1), usage and its export read a
window of days (D2), each person's uploaded question sets are their own (D3), a line the JSON parser cannot finish
is named in Chinese (D5), and every day of the window is in 每日提问 (D7)."""

from __future__ import annotations

import io
import json
from datetime import UTC, date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from fakes import fake_assistant_with_samples

from rag_core import Principal
from rag_core.errors import RagError
from rag_core.evaluation.metrics import QuestionSetError, load_questions
from rag_core.insights.usage import usage_report

ADMIN, HR, HR2 = Principal("wang", "admin"), Principal("li", "hr"), Principal("zhao", "hr")


def jsonl(*rows: dict) -> bytes:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode()


@pytest.fixture()
def team(tmp_path):
    a = fake_assistant_with_samples(tmp_path / "s")
    for p in (ADMIN, HR, HR2):
        a.add_user(p.user, p.role, "correct horse battery", p.audiences, actor=ADMIN)
    return a


# -- D1: the eval's search is chat's ---------------------------------------------------------------------------
def test_fix60_the_eval_searches_the_question_part_as_chat_does(team, monkeypatch):
    searched: list[str] = []
    search = team.search

    def spy(question, **kwargs):
        searched.append(question)
        return search(question, **kwargs)

    monkeypatch.setattr(team, "search", spy)
    q = "我是销售部的，出差住宿标准是多少？"
    path = team.save_eval_upload("set.jsonl", jsonl({"question": q, "category": "literal", "expected": ["住宿"]}),
                                 actor=HR)
    out = team.run_eval(path, actor=HR)["results"][0]
    assert searched and all("销售部" not in s for s in searched), searched
    chat = team.search_as_chat(q, actor=HR, with_memories=False)
    assert [h["chunk_id"] for h in out["hits"]] == [h.chunk.chunk_id for h in chat.result.hits]
    assert out["searched"] == chat.question and out["not_searched"] == ""


def test_fix60_a_row_chat_does_not_search_is_said_so_not_counted_as_zero_hits(team):
    rows = [{"question": "我是销售部的。", "category": "absent"},
            {"question": "年假有几天？", "category": "absent"}]
    path = team.save_eval_upload("set.jsonl", jsonl(*rows), actor=HR)
    out = team.run_eval(path, actor=HR, mode="bm25")
    told = out["results"][0]
    assert told["not_searched"] == "told_only" and told["hit_count"] is None and told["refused"] is None
    absent = out["metrics"]["absent"]
    assert absent["n"] == 2 and absent["not_searched"] == 1
    asked = out["results"][1]
    assert absent["zero_hit_rate"] == (1.0 if asked["hit_count"] == 0 else 0.0)  # over the searched row only


# -- D2: usage and its export read the window they are given ------------------------------------------------------
def test_fix60_usage_export_reads_its_window_and_refuses_nonsense_dates(team):
    from openpyxl import load_workbook

    team.ask("年假有几天？", user=HR.user, actor=HR)

    def days(data: bytes) -> list[tuple]:
        return [tuple(r) for r in load_workbook(io.BytesIO(data))["每日提问"].iter_rows(values_only=True)][1:]

    today = datetime.now(ZoneInfo(team.settings.timezone)).date().isoformat()
    assert (today, 1) in days(team.export_insights("usage", "xlsx", actor=HR))
    january = team.export_insights("usage", "xlsx", since="2001-01-01", until="2001-01-31", actor=HR)
    assert all(n == 0 for _, n in days(january))
    assert team.usage(since="2001-01-01", until="2001-01-31", actor=HR)["questions"] == 0
    assert team.usage(since=today, until=today, actor=HR)["questions"] == 1
    for since, until in (("9999-99-99", None), (None, "yesterday")):
        with pytest.raises(RagError, match="日期格式"):
            team.export_insights("usage", "xlsx", since=since, until=until, actor=HR)
        with pytest.raises(RagError, match="日期格式"):
            team.usage(since=since, until=until, actor=HR)


def test_fix60_usage_csv_holds_all_three_tables_each_named(team):
    team.ask("年假有几天？", user=HR.user, actor=HR)
    text = team.export_insights("usage", "csv", actor=HR).decode("utf-8")
    assert text.startswith("\ufeff") and text.count("\ufeff") == 1
    for name in ("【文档引用】", "【每日提问】", "【从未引用】"):
        assert name in text


# -- D3: an upload is its uploader's -------------------------------------------------------------------------------
def test_fix60_two_people_uploading_one_name_keep_their_own_sets(team):
    mine = {"question": "年假有几天？", "category": "literal", "expected": ["年假"]}
    theirs = {"question": "病假工资怎么发放？", "category": "literal", "expected": ["病假"]}
    p1 = team.save_eval_upload("题集.jsonl", jsonl(mine), actor=HR)
    p2 = team.save_eval_upload("题集.jsonl", jsonl(theirs), actor=HR2)
    assert p1 != p2 and p1.parent == p2.parent == Path(team.settings.data_dir) / "eval_uploads"
    assert team.run_eval(p1, actor=HR, mode="bm25")["results"][0]["question"] == mine["question"]
    assert team.run_eval(p2, actor=HR2, mode="bm25")["results"][0]["question"] == theirs["question"]
    assert team.resolve_eval_file(f"eval_uploads/{p1.name}", actor=HR) == p1.resolve()
    for typed in (f"eval_uploads/{p1.name}", str(p1)):  # by name or by full path: not another HR person's
        with pytest.raises(RagError, match="只能打开数据目录"):
            team.resolve_eval_file(typed, actor=HR2)
        with pytest.raises(RagError, match="只能打开数据目录"):
            team.run_eval(typed, actor=HR2)
    assert team.resolve_eval_file(f"eval_uploads/{p1.name}", actor=ADMIN) == p1.resolve()  # an admin reads all


def test_fix60_an_older_shared_upload_is_an_administrators_only(team):
    old = Path(team.settings.data_dir) / "eval_uploads" / "题集.jsonl"  # the layout before review 60: nobody's own
    old.parent.mkdir(parents=True, exist_ok=True)
    old.write_bytes(jsonl({"question": "年假有几天？", "category": "literal"}))
    with pytest.raises(RagError):
        team.resolve_eval_file("eval_uploads/题集.jsonl", actor=HR)
    assert team.resolve_eval_file("eval_uploads/题集.jsonl", actor=ADMIN) == old.resolve()


def test_fix60_a_persons_uploads_are_bounded(team):
    from rag_core.facade.eval_upload import KEPT_UPLOADS

    paths = [team.save_eval_upload("s.jsonl", jsonl({"question": f"问题{n}", "category": "absent"}), actor=HR)
             for n in range(KEPT_UPLOADS + 2)]
    theirs = team.save_eval_upload("s.jsonl", jsonl({"question": "别人的", "category": "absent"}), actor=HR2)
    assert paths[-1].exists() and theirs.exists()
    assert sum(p.exists() for p in paths) == KEPT_UPLOADS


# -- D5: a line the parser cannot finish -------------------------------------------------------------------------
@pytest.mark.parametrize("line", ["[" * 100_000 + "]" * 100_000,
                                  '{"question": "年假有几天？", "category": "literal", "n": ' + "9" * 5000 + "}"])
def test_fix60_an_unparseable_line_is_named_in_chinese(tmp_path, line):
    good = json.dumps({"question": "年假有几天？", "category": "literal", "expected": ["年假"]}, ensure_ascii=False)
    path = tmp_path / "odd.jsonl"
    path.write_text(good + "\n" + line + "\n", encoding="utf-8")
    with pytest.raises(QuestionSetError, match=r"odd\.jsonl:2: 无法读取这一行"):
        load_questions(path)


# -- D7: every day of the window -----------------------------------------------------------------------------------
def _rows(*days: int) -> list[dict]:
    return [{"asked_at": f"2026-03-{d:02d}T02:00:00+00:00", "cited_docs": [], "outcome": "answered"} for d in days]


def test_fix60_per_day_has_the_days_nobody_asked():
    now = datetime(2026, 3, 10, 4, tzinfo=UTC)
    per_day = usage_report(_rows(2, 9), [], now, ZoneInfo("Asia/Shanghai"))["per_day"]
    assert [r["day"] for r in per_day] == [f"2026-03-{d:02d}" for d in range(2, 11)]  # through today
    assert [r["questions"] for r in per_day] == [1, 0, 0, 0, 0, 0, 0, 1, 0]


def test_fix60_per_day_follows_the_window_within_the_retention():
    now = datetime(2026, 3, 10, 4, tzinfo=UTC)
    zone = ZoneInfo("Asia/Shanghai")
    window = usage_report(_rows(5), [], now, zone, since=date(2026, 3, 4), until=date(2026, 3, 6))["per_day"]
    assert window == [{"day": "2026-03-04", "questions": 0}, {"day": "2026-03-05", "questions": 1},
                      {"day": "2026-03-06", "questions": 0}]
    kept = usage_report([], [], now, zone, since=date(1900, 1, 1), keep_days=3)["per_day"]
    assert [r["day"] for r in kept] == ["2026-03-07", "2026-03-08", "2026-03-09", "2026-03-10"]
    assert usage_report([], [], now, zone)["per_day"] == []  # nothing asked, no window: no chart
