"""An app that opens the data dir while a CLI upload or delete writes (the check before it passed: an e5 ingest
takes minutes) gets the CLI's note to restart it, since its in-memory index misses the change (review 51e 3)."""

from __future__ import annotations

from pathlib import Path

from cli_support import invoke
from fakes import fake_assistant

import rag_core.cli as cli

ANNUAL = "# 年假制度\n\n员工工作满一年后，每年享有五天带薪年假。\n"


def _cli_whose_app_opens_during_the_write(monkeypatch, opened: list[bool]) -> None:
    """The CLI's assistant, with an app that is absent at the check before the write and present after it."""

    def open_assistant(args):
        assistant = fake_assistant(Path(args.data_dir))
        asked: list[int] = []

        def index_open_elsewhere() -> bool:
            asked.append(1)
            return opened[0] and len(asked) > 1

        assistant.index_open_elsewhere = index_open_elsewhere
        return assistant

    monkeypatch.setattr(cli, "open_assistant", open_assistant)


def test_an_app_that_opened_during_the_upload_or_delete_is_told_to_restart(capsys, monkeypatch, tmp_path) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "nianjia.md").write_text(ANNUAL, encoding="utf-8")
    store = tmp_path / "store"
    opened = [False]
    _cli_whose_app_opens_during_the_write(monkeypatch, opened)
    quiet = invoke(capsys, "--data-dir", str(store), "ingest", str(tmp_path / "nianjia.md"))
    assert quiet.exit_code == 0 and "请重启应用" not in quiet.stderr
    opened[0] = True
    (tmp_path / "nianjia.md").write_text(ANNUAL + "\n年假须提前三天申请。\n", encoding="utf-8")
    told = invoke(capsys, "--data-dir", str(store), "ingest", str(tmp_path / "nianjia.md"))
    assert told.exit_code == 0 and "上传期间应用启动了" in told.stderr, told.stderr
    deleted = invoke(capsys, "--data-dir", str(store), "docs", "delete", "nianjia")
    assert deleted.exit_code == 0 and "删除期间应用启动了" in deleted.stderr, deleted.stderr
