"""Review 335: a settings.json of 100,000 names the page does not set gave a start notice (and a doctor line) of
about 1.5 million characters, shown on every session's first page; a 29 MB file was read whole."""

from __future__ import annotations

import json

import pytest

from rag_core.settings import SAVED_FILE, Settings
from rag_core.storage.saved_settings import with_saved_changes


def test_a_notice_names_a_few_refused_settings_and_counts_the_rest(tmp_path):
    (tmp_path / SAVED_FILE).write_text(json.dumps({"top_k": 3, **{f"knob{i}": 1 for i in range(5_000)}}), "utf-8")
    settings, notice, applied = with_saved_changes(Settings(data_dir=tmp_path))
    assert settings.top_k == 3 and applied == {"top_k"}  # what is right is still applied
    assert "knob0" in notice and "等 5000 项" in notice and "knob4999" not in notice and len(notice) < 400


def test_a_file_far_larger_than_the_page_writes_is_refused_whole(tmp_path):
    (tmp_path / SAVED_FILE).write_text(json.dumps({"top_k": 3, "pad": "x" * 200_000}), "utf-8")
    settings, notice, applied = with_saved_changes(Settings(data_dir=tmp_path))
    assert settings.top_k == Settings().top_k and not applied
    assert "文件过大" in notice and len(notice) < 400


def test_a_huge_file_is_not_read_whole(tmp_path, monkeypatch):
    """Review 336: a 300 MB settings.json was refused, but read whole into memory at every start first."""
    from pathlib import Path

    (tmp_path / SAVED_FILE).write_bytes(b'{"top_k": 3, "pad": "' + b"x" * 300_000 + b'"}')
    monkeypatch.setattr(Path, "read_bytes", lambda self: (_ for _ in ()).throw(AssertionError("read whole")))
    settings, notice, _ = with_saved_changes(Settings(data_dir=tmp_path))
    assert "文件过大" in notice and settings.top_k == Settings().top_k


def test_a_save_over_a_huge_file_moves_it_aside_unread(tmp_path, monkeypatch):
    """Review 337: the start no longer read it whole, but a save or a clear on the page still did (and wrote a copy)."""
    from pathlib import Path

    from fakes import fake_assistant

    from rag_core.types import Principal

    store = tmp_path / "store"
    store.mkdir()
    with open(store / SAVED_FILE, "wb") as file:
        file.write(b'{"top_k": 3, "pad": "')
        file.truncate(5 * 1024 * 1024)
    a = fake_assistant(store)
    read = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda self: pytest.fail("read whole") if self.name == SAVED_FILE
                        else read(self))
    a.update_settings(top_k=7, actor=Principal("boss", "admin"))
    [kept] = store.glob("settings.original-*.json")
    assert kept.stat().st_size == 5 * 1024 * 1024 and json.loads((store / SAVED_FILE).read_text("utf-8")) == {"top_k": 7}
