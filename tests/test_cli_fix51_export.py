"""`insights-export --out` never overwrites the data dir's files nor, without --force, any file; it writes a temp
file beside the destination and renames it (review rev51b defect 2: `--out <data dir>/catalog.sqlite3` wrote
101 bytes over the live catalog). In-process `main()` with the fake assistant: no model loads."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
from cli_support import invoke
from fakes import fake_assistant

import rag_core.cli as cli

ANNUAL = "# 年假制度\n\n员工工作满一年后，每年享有五天带薪年假。年假须提前三天申请。\n"


@pytest.fixture()
def store(capsys, monkeypatch, tmp_path: Path) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "open_assistant", lambda args: fake_assistant(Path(args.data_dir)))
    (tmp_path / "nianjia.md").write_text(ANNUAL, encoding="utf-8")
    store = tmp_path / "store"
    assert invoke(capsys, "--data-dir", str(store), "ingest", str(tmp_path / "nianjia.md")).exit_code == 0
    return store


def export(capsys, store: Path, out: Path | str, *extra: str):
    return invoke(capsys, "--data-dir", str(store), "insights-export", "usage", "--format", "csv", "--out", str(out),
                  *extra)


def _rows(database) -> list[str]:
    """The statements that rebuild the database's documents: its content, whatever its header's change counter says
    (and the meta rows an engine writes on its first open, a name key for instance)."""
    connection = sqlite3.connect(database)
    try:
        return [line for line in connection.iterdump() if not line.startswith('INSERT INTO "meta"')]
    finally:
        connection.close()


def test_export_into_the_live_catalog_is_refused_and_the_catalog_still_opens(capsys, store):
    catalog = store / "catalog.sqlite3"
    before = _rows(catalog)
    for extra in ((), ("--force",)):
        r = export(capsys, store, catalog, *extra)
        assert r.exit_code == 1 and "数据目录" in r.stderr and "Traceback" not in r.stderr
    assert _rows(catalog) == before  # the same database (its header's change counter moves when it is opened)
    listed = invoke(capsys, "--data-dir", str(store), "docs", "list")
    assert listed.exit_code == 0 and "nianjia" in listed.stdout


def test_export_to_the_data_dir_itself_or_a_link_into_it_is_refused(capsys, store, tmp_path):
    link = tmp_path / "report.csv"
    link.symlink_to(store / "catalog.sqlite3")
    before = _rows(store / "catalog.sqlite3")
    for out in (store, store / "new.csv", link):
        r = export(capsys, store, out, "--force")
        assert r.exit_code == 1 and "数据目录" in r.stderr, out
    assert _rows(store / "catalog.sqlite3") == before and not (store / "new.csv").exists()


def test_an_existing_file_is_kept_unless_force(capsys, store, tmp_path):
    out = tmp_path / "usage.csv"
    out.write_text("HR 的旧报表", encoding="utf-8")
    r = export(capsys, store, out)
    assert r.exit_code == 1 and "已经存在" in r.stderr and "--force" in r.stderr
    assert out.read_text(encoding="utf-8") == "HR 的旧报表"
    r = export(capsys, store, out, "--force")
    assert r.exit_code == 0, r.stderr
    assert out.read_bytes().startswith("\ufeff".encode()) and "年假" in out.read_text(encoding="utf-8-sig")


def test_a_new_file_is_written_and_no_temp_file_is_left(capsys, store, tmp_path):
    folder = tmp_path / "exports"
    folder.mkdir()
    assert export(capsys, store, folder / "usage.csv").exit_code == 0
    assert [p.name for p in folder.iterdir()] == ["usage.csv"]


def test_a_failed_write_leaves_the_old_file_and_no_temp_file(capsys, store, tmp_path, monkeypatch):
    folder = tmp_path / "exports"
    folder.mkdir()
    out = folder / "usage.csv"
    out.write_text("旧的", encoding="utf-8")

    def full_disk(src, dst):
        raise OSError(28, "No space left on device", str(dst))

    monkeypatch.setattr(os, "replace", full_disk)
    r = export(capsys, store, out, "--force")
    assert r.exit_code == 1 and "Traceback" not in r.stderr
    assert out.read_text(encoding="utf-8") == "旧的" and [p.name for p in folder.iterdir()] == ["usage.csv"]


def test_a_missing_folder_is_a_chinese_error(capsys, store, tmp_path):
    r = export(capsys, store, tmp_path / "nowhere" / "usage.csv")
    assert r.exit_code == 1 and "找不到" in r.stderr and "nowhere" in r.stderr
