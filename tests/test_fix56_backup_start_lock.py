"""A start holds the data dir's open lock before it opens a store or loads the model, and a failed start lets go (56).

The lock was taken when Chroma opened, after the catalog and the embedding cache were open and the model loaded
(seconds with e5): a restore in that window was not refused, and the app ran on the moved-aside catalog with the
restored Chroma. A restore in another process takes the lock alone (`open_lock.no_app`); here a second descriptor
on the lock file, which conflicts as another process's would, tries it. Real SQLite and Chroma, the fake embedder.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

import pytest
from fakes import FAKE_ANSWER_THRESHOLD, BigramEmbedder, fake_assistant

import rag_core.assistant as assistant_module
from rag_core.assistant import Assistant
from rag_core.errors import StoreBusy
from rag_core.settings import Settings
from rag_core.storage.open_lock import OPEN_LOCK, in_use


def _restore_would_be_refused(data_dir: Path) -> bool:
    """What another process's restore finds: the open lock cannot be taken alone."""
    fd = os.open(data_dir / OPEN_LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def test_the_open_lock_is_held_while_the_model_loads(tmp_path: Path, monkeypatch) -> None:
    data = tmp_path / "store"
    fake_assistant(data).release_data_dir()  # an existing data dir, nobody holding it
    seen: list[bool] = []

    def loading(*args, **kwargs):  # stands for the e5 load, seconds long
        seen.append(_restore_would_be_refused(data))
        return BigramEmbedder()

    monkeypatch.setattr(assistant_module, "load_embedder", loading)
    monkeypatch.setattr(assistant_module, "load_second_embedder", lambda *args, **kwargs: None)
    app = Assistant(Settings(data_dir=data, answer_threshold=FAKE_ANSWER_THRESHOLD), llm=None)
    assert seen == [True]
    app.release_data_dir()
    assert not _restore_would_be_refused(data)


def test_a_failed_start_lets_go_of_the_open_lock_at_once(tmp_path: Path, monkeypatch) -> None:
    data = tmp_path / "store"
    fake_assistant(data).release_data_dir()

    def failing(*args, **kwargs):  # a step after Chroma opened: the lock was held until the assistant was collected
        raise RuntimeError("backfill failed")

    monkeypatch.setattr(assistant_module, "backfill_sentences", failing)
    with pytest.raises(RuntimeError) as failed:
        fake_assistant(data)
    assert failed.value is not None  # the traceback (and with it the half-made assistant) is still alive here
    assert not in_use(data) and not _restore_would_be_refused(data)


def test_a_start_refused_by_a_restore_in_progress_opens_nothing(tmp_path: Path, monkeypatch) -> None:
    data = tmp_path / "store"
    fake_assistant(data).release_data_dir()
    opened: list[str] = []
    monkeypatch.setattr(assistant_module, "load_embedder", lambda *a, **k: opened.append("model") or BigramEmbedder())
    fd = os.open(data / OPEN_LOCK, os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)  # a restore holds the data dir alone
    try:
        with pytest.raises(StoreBusy, match="正在从备份恢复"):
            Assistant(Settings(data_dir=data, answer_threshold=FAKE_ANSWER_THRESHOLD), llm=None)
    finally:
        os.close(fd)
    assert opened == []  # the model was not loaded for a start that could not go on
