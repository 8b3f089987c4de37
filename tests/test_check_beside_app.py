"""`check` repairs by rewriting vectors; beside an app running in another process (embedded Chroma keeps its index in
memory) that rewrite is refused, as an upload is; `check --no-repair` only reads and still runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import fake_assistant
from test_store_fix51_beside_app import ANNUAL, _cli

pytestmark = pytest.mark.slow


def test_check_with_repairs_is_refused_beside_a_running_app(tmp_path: Path) -> None:
    store = tmp_path / "store"
    (tmp_path / "nianjia.md").write_text(ANNUAL, encoding="utf-8")
    assert _cli(tmp_path, store, "ingest", str(tmp_path / "nianjia.md")).returncode == 0
    app = fake_assistant(store)
    refused = _cli(tmp_path, store, "check")
    assert refused.returncode == 1 and "正在使用这个数据目录" in refused.stderr, refused.stderr
    assert _cli(tmp_path, store, "check", "--no-repair").returncode == 0
    app.release_data_dir()
    assert _cli(tmp_path, store, "check").returncode == 0
