"""CLI refusals end in one Chinese line and exit 1, never a traceback (review s49 defects 6 and 7).

The assistant is the fake one (`fakes.fake_assistant` on the data dir the arguments name): no model loads.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import invoke
from fakes import fake_assistant

import rag_core.cli as cli
from rag_core.cli.output import printable
from rag_core.insights.records import InsightError
from rag_core.types import Principal


@pytest.fixture()
def run(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "open_assistant", lambda args: fake_assistant(Path(args.data_dir or tmp_path / "store")))
    store = tmp_path / "store"

    def run_command(*args: str):
        result = invoke(capsys, "--data-dir", str(store), *args)
        assert "Traceback" not in result.stderr
        return result

    return run_command


def _refused(result, *words: str) -> None:
    assert result.exit_code == 1 and result.stderr.startswith("错误：") and result.stderr.count("\n") == 1, result
    for word in words:
        assert word in result.stderr, result.stderr


def test_an_export_to_a_missing_folder_or_to_a_folder_names_the_path(run, tmp_path):
    _refused(run("insights-export", "gaps", "--out", "/nonexistent/x.xlsx"), "/nonexistent/x.xlsx")
    _refused(run("insights-export", "gaps", "--format", "csv", "--out", str(tmp_path)), str(tmp_path))


def test_a_data_dir_that_is_a_file_is_named(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "open_assistant", lambda args: fake_assistant(Path(args.data_dir)))
    afile = tmp_path / "not_a_dir"
    afile.write_text("x")
    result = invoke(capsys, "--data-dir", str(afile), "faq", "list")
    assert "Traceback" not in result.stderr
    _refused(result, str(afile))


@pytest.mark.parametrize("window", [("--until", "9999-12-31"), ("--since", "0001-01-01")])
def test_a_date_out_of_range_is_refused_in_chinese(capsys, window):
    with pytest.raises(SystemExit) as exit_info:  # a usage error since review 392 #7: exit 2, as audit's
        cli.main(["gaps", *window])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and err.startswith("错误：") and "1900" in err and "9998" in err, err


def test_the_facade_refuses_a_date_out_of_range(tmp_path):
    a = fake_assistant(tmp_path / "s")
    for window in ({"until": "9999-12-31"}, {"since": "0001-01-01"}):
        with pytest.raises(InsightError, match="1900"):
            a.knowledge_gaps(actor=Principal("hr_li", "hr"), **window)


def test_a_lone_surrogate_in_an_argument_is_refused_not_a_crash(run):
    _refused(run("faq", "add", "\udcff问题", "--answer", "有。"), "无法识别的字符")
    _refused(run("faq", "delete", "\udcffab"), "\\udcff")
    _refused(run("docs", "delete", "\udcff问"), "参数里有无法识别的字符")  # reached SQLite: UnicodeEncodeError
    _refused(run("audit", "--user", "\udcff问"), "参数里有无法识别的字符")


def test_printable_escapes_a_lone_surrogate():
    assert printable("a\udcffb") == "a\\udcffb"
    printable("a\udcffb").encode("utf-8")


def test_faq_add_takes_audiences_and_faq_list_shows_them(run):
    added = run("faq", "add", "公司有班车吗？", "--answer", "有。", "--audience", "managers", "--audience", "hr",
                "--json").json()
    assert sorted(added["audience"]) == ["hr", "managers"]  # as an upload's labels: in the engine's order
    run("faq", "add", "食堂几点开门？", "--answer", "七点。")
    listed = run("faq", "list")
    assert listed.exit_code == 0
    assert "受众 HR、管理者" in next(v for v in listed.stdout.splitlines() if "班车" in v), listed.stdout
    assert "受众 全体员工" in next(v for v in listed.stdout.splitlines() if "食堂" in v), listed.stdout
