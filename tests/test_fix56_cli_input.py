"""What the command line reads before it acts (review 56, defects 2, 3, 5, 6): English log records kept off the
terminal, a blank or non-UTF-8 --data-dir refused, a non-UTF-8 data dir not taken for damage, and audiences typed
by the names the app shows stored as their labels."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest
from cli_support import invoke
from fakes import fake_assistant

from rag_core.facade.upload_input import audience_of
from rag_core.types import Principal

HR = Principal("hr1", "hr", audiences=("hr",))
POLICY = "# 薪酬制度\n\n第一条 海豚绩效奖金为月薪的三倍。\n".encode()


@pytest.fixture()
def opened(monkeypatch) -> list[str]:
    """`open_assistant` on the fake embedder; the data dirs it was asked to open."""
    import rag_core.cli

    asked: list[str] = []

    def open_fake(args):
        asked.append(args.data_dir)
        return fake_assistant(Path(args.data_dir))

    monkeypatch.setattr(rag_core.cli, "open_assistant", open_fake)
    return asked


# ------------------------------------------------------------------ 5: log records stay off the terminal


def test_library_warnings_do_not_reach_the_terminal(opened, tmp_path: Path, capsys, monkeypatch) -> None:
    import rag_core.cli

    monkeypatch.setattr(logging.root, "handlers", [])  # as in a real run: Python's last-resort handler prints to stderr
    facade = fake_assistant(tmp_path / "store")

    def warn_and_open(args):
        logging.getLogger("rag_core.storage.example").warning("store damage: file is not a database")
        return facade

    monkeypatch.setattr(rag_core.cli, "open_assistant", warn_and_open)
    result = invoke(capsys, "docs", "list")
    assert result.exit_code == 0
    assert "store damage" not in result.stderr and "store damage" not in result.stdout
    assert logging.getLogger("rag_core").propagate  # restored for a caller that goes on running


def test_log_file_keeps_the_records(opened, tmp_path: Path, capsys, monkeypatch) -> None:
    import rag_core.cli

    facade = fake_assistant(tmp_path / "store")

    def warn_and_open(args):
        logging.getLogger("rag_core.storage.example").warning("store damage: file is not a database")
        return facade

    monkeypatch.setattr(rag_core.cli, "open_assistant", warn_and_open)
    log = tmp_path / "cli.log"
    result = invoke(capsys, "--log-file", str(log), "docs", "list")
    assert result.exit_code == 0 and "store damage" not in result.stderr
    assert "store damage: file is not a database" in log.read_text(encoding="utf-8")


# ------------------------------------------------------------------ 6: a blank data dir


@pytest.mark.parametrize("blank", ["", "   ", "\t"])
def test_a_blank_data_dir_is_refused_and_nothing_is_created(opened, blank: str, tmp_path: Path, capsys,
                                                            monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stopped:
        invoke(capsys, "--data-dir", blank, "docs", "list")
    assert stopped.value.code == 2
    assert "数据目录不能为空白" in capsys.readouterr().err
    assert opened == [] and list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------ 3: a data dir whose path is not UTF-8


def _store_renamed_to_non_utf8(tmp_path: Path) -> Path:
    fake_assistant(tmp_path / "ok").ingest_bytes(POLICY, "xinchou.md")
    odd = Path(os.fsdecode(bytes(tmp_path) + b"/nu_\xff"))
    os.rename(tmp_path / "ok", odd)
    return odd


def test_a_non_utf8_data_dir_is_refused_by_the_cli(opened, tmp_path: Path, capsys) -> None:
    odd = _store_renamed_to_non_utf8(tmp_path)
    with pytest.raises(SystemExit) as stopped:
        invoke(capsys, "--data-dir", str(odd), "docs", "list")
    assert stopped.value.code == 2 and "不是 UTF-8" in capsys.readouterr().err
    assert opened == [] and sorted(p.name for p in odd.iterdir() if p.name.startswith("chroma")) == ["chroma"]


def test_a_non_utf8_data_dir_does_not_set_the_vector_index_aside(tmp_path: Path) -> None:
    odd = _store_renamed_to_non_utf8(tmp_path)  # e.g. named by RAG_DATA_DIR: the facade is opened all the same
    for _ in range(2):
        with pytest.raises(UnicodeError):
            fake_assistant(odd)
    assert sorted(p.name for p in odd.iterdir() if p.name.startswith("chroma")) == ["chroma"]


# ------------------------------------------------------------------ 2: audiences typed as the app shows them


@pytest.mark.parametrize(("typed", "label"), [
    ("全体员工", "all"), ("HR", "hr"), ("Hr", "hr"), ("ＨＲ", "hr"), (" 管理者 ", "managers"), ("ALL", "all"),
    ("Managers", "managers"), ("研发部", "研发部"), (" Sales ", "Sales"),
])
def test_audience_names_are_read_as_their_labels(typed: str, label: str) -> None:
    assert audience_of([typed]) == (label,)


def test_upload_for_the_shown_names_reaches_their_readers(tmp_path: Path) -> None:
    facade = fake_assistant(tmp_path / "store")
    report = facade.ingest_bytes(POLICY, "xinchou.md", audience=["HR"], actor=HR)  # HR reads hr, not a label "HR"
    assert report.ok and report.audience == ("hr",)
    report = facade.ingest_bytes("# 班车\n\n第一条 海豚班车八点发车。\n".encode(), "banche.md", audience=["全体员工", "all"])
    assert report.ok and report.audience == ("all",)
    assert {d.doc_id: d.audience for d in facade.list_documents()} == {"banche": ("all",), "xinchou": ("hr",)}


def test_cli_audience_by_its_shown_name(opened, tmp_path: Path, capsys) -> None:
    policy = tmp_path / "xinchou.md"
    policy.write_bytes(POLICY)
    store = str(tmp_path / "store")
    assert invoke(capsys, "--data-dir", store, "ingest", str(policy), "--audience", "管理者").exit_code == 0
    listed = invoke(capsys, "--data-dir", store, "docs", "list", "--json").json()["documents"]
    assert [d["audience"] for d in listed] == [["managers"]]
