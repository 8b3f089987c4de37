"""What the settings page changes outlives a restart, and only what may change at run time can be changed.

The page says 修改立即对所有页面生效; the changes lived in memory only, so after a restart a store re-chunked at
the page's chunk size was mixed with uploads cut at the .env's, and nothing said so (helper-36 4-5). Real SQLite
and Chroma, the fake embedder.
"""

from __future__ import annotations

import math

import pytest
from fakes import fake_assistant

from rag_core.errors import SettingsError
from rag_core.settings import SAVED_FILE, Settings
from rag_core.types import Principal

ADMIN = Principal("boss", "admin")


def test_changes_made_on_the_page_are_in_force_after_a_restart(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.update_settings(chunk_size=500, chunk_overlap=50, top_k=2, actor=ADMIN)
    a.update_settings(answer_threshold=0.5, actor=ADMIN)
    b = fake_assistant(tmp_path / "store")  # the same data dir, a new process
    assert (b.settings.chunk_size, b.settings.chunk_overlap, b.settings.top_k) == (500, 50, 2)
    assert b.settings.answer_threshold == 0.5


def test_a_damaged_saved_file_starts_on_the_env_and_says_so(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.update_settings(top_k=2, actor=ADMIN)
    (tmp_path / "store" / SAVED_FILE).write_text("{不是 json", encoding="utf-8")
    b = fake_assistant(tmp_path / "store")
    assert b.settings.top_k == Settings().top_k
    assert any(SAVED_FILE in notice for notice in b.store_notices)


@pytest.mark.parametrize("changes", [{"data_dir": "/tmp/elsewhere"}, {"embedding_model": "use"},
                                     {"llm_base_url": "http://127.0.0.1:9/v1"}])
def test_what_needs_a_restart_is_refused_at_run_time(tmp_path, changes):
    a = fake_assistant(tmp_path / "store")
    with pytest.raises(SettingsError, match="不能在运行中修改"):
        a.update_settings(**changes, actor=ADMIN)
    assert not (tmp_path / "store" / SAVED_FILE).exists()


@pytest.mark.parametrize("size", [math.inf, math.nan])
def test_an_infinite_file_size_limit_is_refused(size):
    with pytest.raises(SettingsError, match="文件大小上限"):
        Settings(max_file_mb=size).validate()
