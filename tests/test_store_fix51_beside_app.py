"""A CLI upload or delete beside a running app (embedded Chroma) is refused, saying to use the web page.

Embedded Chroma keeps its index in memory per process: a document the CLI uploaded while the app ran was counted
by the app but never found by its vector search until a restart, and nothing said so. Each command here runs
in its own process, as a user runs it; the app is an assistant in this test's process.
"""

from __future__ import annotations

import dataclasses
import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fakes import fake_assistant
from holding_process import HoldingProcess

from rag_core.storage import open_lock

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]
ANNUAL = "# 年假制度\n\n员工工作满一年后，每年享有五天带薪年假。年假须提前三天申请。\n"
MATERNITY = "# 产假制度\n\n女职工生育享受一百五十八天产假，难产增加十五天。\n"

# the real CLI main(), its assistant built with the fake embedder (no model load)
CLI = f"""
import sys
sys.path[:0] = [{str(REPO / "tests")!r}, {str(REPO)!r}]
from pathlib import Path
from fakes import fake_assistant
from holding_process import HoldingProcess
import rag_core.cli as cli
cli.open_assistant = lambda args: fake_assistant(Path(args.data_dir))
sys.exit(cli.main())
"""



def _cli(tmp_path: Path, store: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
    return subprocess.run([sys.executable, "-c", CLI, "--data-dir", str(store), *args],
                          capture_output=True, text=True, env=env, cwd=tmp_path)


def test_a_cli_upload_while_the_app_runs_is_refused_and_allowed_once_it_stopped(tmp_path):
    store = tmp_path / "store"
    (tmp_path / "nianjia.md").write_text(ANNUAL, encoding="utf-8")
    (tmp_path / "chanjia.md").write_text(MATERNITY, encoding="utf-8")
    assert _cli(tmp_path, store, "ingest", str(tmp_path / "nianjia.md")).returncode == 0
    app = fake_assistant(store)
    done = _cli(tmp_path, store, "ingest", str(tmp_path / "chanjia.md"))
    assert done.returncode == 1
    assert "正在使用这个数据目录" in done.stderr and "文档页上传" in done.stderr
    deleted = _cli(tmp_path, store, "docs", "delete", "nianjia")
    assert deleted.returncode == 1 and "文档页删除" in deleted.stderr
    assert [d.doc_id for d in app.list_documents()] == ["nianjia"]  # nothing written beside the app
    assert _cli(tmp_path, store, "ingest", "--estimate", str(tmp_path / "chanjia.md")).returncode == 0  # writes nothing
    assert _cli(tmp_path, store, "docs", "list").returncode == 0

    app.release_data_dir()  # the app stopped
    assert _cli(tmp_path, store, "ingest", str(tmp_path / "chanjia.md")).returncode == 0
    assert _cli(tmp_path, store, "docs", "delete", "nianjia").returncode == 0


@pytest.fixture()
def other_process(tmp_path):
    """A process (an app) that has tmp_path/store open until the test ends."""
    store = tmp_path / "store"
    store.mkdir()
    with HoldingProcess(store):
        yield store


def test_another_process_counts_this_one_does_not(other_process):
    first = fake_assistant(other_process)
    assert first.index_open_elsewhere()
    assert first.index_open_elsewhere()  # asking twice keeps this process's own hold


def test_with_a_chroma_server_every_process_reads_the_same_index(other_process):
    assistant = fake_assistant(other_process)
    assistant._settings = dataclasses.replace(assistant._settings, chroma_host="localhost")
    assert not assistant.index_open_elsewhere()


def test_assistants_of_one_process_share_its_index(tmp_path):
    first = fake_assistant(tmp_path / "store")
    second = fake_assistant(tmp_path / "store")
    assert not first.index_open_elsewhere() and not second.index_open_elsewhere()


class _NoFlock:
    """fcntl on a file system without flock (some network mounts): nothing can tell, so nothing refuses."""

    LOCK_SH, LOCK_EX, LOCK_NB, LOCK_UN = 1, 2, 4, 8

    def flock(self, fd: int, operation: int) -> None:
        if operation != self.LOCK_UN:
            raise OSError(errno.ENOLCK, "flock")


def test_without_flock_the_cli_still_writes(other_process, monkeypatch):
    monkeypatch.setattr(open_lock, "fcntl", _NoFlock())
    assert not fake_assistant(other_process).index_open_elsewhere()
