"""`memory delete` names the ids it could not find, and the insight commands export and print what they promise
(review 62, CLI defects 4 and 6, and `usage`):
- `memory delete A Bx` deleted A, skipped the mistyped Bx silently and exited 0;
- `insights-export gaps` could not export what `gaps --weak` lists (no --weak, no feedback filters), and an export
  without rows was a bare BOM, no header row, said as 已导出;
- `usage` printed neither the per-day counts nor the outcome split its help promises.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from cli_support import invoke
from fakes import fake_assistant, fake_assistant_with_samples

from rag_core.text.pii import redact_text


def _use(monkeypatch, facade) -> None:
    import rag_core.cli

    monkeypatch.setattr(rag_core.cli, "open_assistant", lambda args: facade)


@pytest.mark.parametrize("as_user", [False, True], ids=["local-admin", "--user"])
def test_memory_delete_names_the_ids_it_did_not_find(tmp_path: Path, capsys, monkeypatch, as_user: bool) -> None:
    _use(monkeypatch, fake_assistant(tmp_path / "store"))
    first = invoke(capsys, "memory", "add", "我是研发部的", "--user", "fay", "--json").json()["id"]
    second = invoke(capsys, "memory", "add", "我在杭州办公", "--user", "fay", "--json").json()["id"]
    typo, phone = second + "x", "13812345678"
    who = ["--user", "fay"] if as_user else []
    result = invoke(capsys, "memory", "delete", first, typo, phone, *who)
    assert result.exit_code == 1
    assert "已删除 1 条" in result.stdout
    # every CLI line is masked: a uuid with a long digit run reads as a number (1 in ~50 ids), masked like the phone
    assert "另有 2 条找不到" in result.stderr and redact_text(typo) in result.stderr
    assert phone not in result.stderr  # an id typed with personal data is masked, as every error line is
    assert first not in result.stderr
    listed = invoke(capsys, "memory", "list", "--user", "fay")
    assert second in listed.stdout and first not in listed.stdout  # the mistyped one's original is untouched


def test_memory_delete_of_every_id_found_still_exits_0(tmp_path: Path, capsys, monkeypatch) -> None:
    _use(monkeypatch, fake_assistant(tmp_path / "store"))
    ids = [invoke(capsys, "memory", "add", text, "--user", "fay", "--json").json()["id"]
           for text in ("我是研发部的", "我在杭州办公")]
    result = invoke(capsys, "memory", "delete", *ids, ids[0])  # named twice: deleted once, nothing missing
    assert result.exit_code == 0 and "已删除 2 条" in result.stdout and not result.stderr


@pytest.fixture()
def weak_gap(tmp_path: Path, monkeypatch):
    facade = fake_assistant_with_samples(tmp_path / "store")
    _use(monkeypatch, facade)
    trace = facade.ask("年假有几天？", user="alice")
    assert trace.outcome == "weak"  # listed by `gaps --weak` only
    return facade


def _rows(path: Path) -> list[list[str]]:
    return [row for row in csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"))) if row]


def test_insights_export_gaps_weak_exports_what_gaps_weak_lists(weak_gap, tmp_path: Path, capsys) -> None:
    listed = invoke(capsys, "gaps", "--weak")
    assert "年假有几天？" in listed.stdout
    out = tmp_path / "gaps.csv"
    result = invoke(capsys, "insights-export", "gaps", "--weak", "--format", "csv", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    rows = _rows(out)
    assert rows[0][0] == "代表问题" and any("年假有几天？" in row for row in rows[1:])
    assert "只写了表头" not in result.stdout


def test_an_export_without_rows_has_its_header_row_and_says_so(weak_gap, tmp_path: Path, capsys) -> None:
    out = tmp_path / "gaps.csv"
    result = invoke(capsys, "insights-export", "gaps", "--format", "csv", "--out", str(out))  # no --weak: no gap
    assert result.exit_code == 0, result.stderr
    assert _rows(out) == [["代表问题", "次数", "首次出现", "最近出现", "不同问法", "类型", "最接近的条款", "已有标准答复"]]
    assert "没有数据，只写了表头" in result.stdout
    feedback = tmp_path / "feedback.xlsx"
    result = invoke(capsys, "insights-export", "feedback", "--rating", "down", "--unread", "--doc-id", "01_attendance_leave",
                    "--out", str(feedback))
    assert result.exit_code == 0, result.stderr
    assert "没有数据，只写了表头" in result.stdout
    from openpyxl import load_workbook

    header = [c.value for c in next(load_workbook(feedback).worksheets[0].iter_rows(max_row=1))]
    assert header[:4] == ["编号", "时间", "用户", "问题"]


def test_a_filter_of_another_export_is_refused(weak_gap, tmp_path: Path, capsys) -> None:
    result = invoke(capsys, "insights-export", "usage", "--weak", "--out", str(tmp_path / "u.xlsx"))
    assert result.exit_code == 2 and "--weak" in result.stderr and not (tmp_path / "u.xlsx").exists()


def test_usage_prints_the_days_and_the_outcomes(weak_gap, capsys) -> None:
    result = invoke(capsys, "usage")
    assert result.exit_code == 0, result.stderr
    assert "已回答（依据较弱） 1" in result.stdout
    assert "每日提问数" in result.stdout
    assert any(line.strip().endswith(" 1") and line.strip()[:4].isdigit() for line in result.stdout.splitlines())
