"""A save that cannot write leaves settings.json in place and says why in Chinese (review rev51a 4).

The save moved settings.json aside before writing; a failed write (a full disk, a quota) left no settings.json, the
page showed an English errno, and the next start silently ran without the saved knobs. The new file is now written
first, and only then is the old one kept aside and replaced. Real SQLite and Chroma, the fake embedder.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.errors import SettingsError
from rag_core.settings import SAVED_FILE

REFUSED = json.dumps({"top_k": 500, "candidates": 40})


def store_with(tmp_path: Path, text: str) -> Path:
    store = tmp_path / "store"
    store.mkdir()
    (store / SAVED_FILE).write_text(text, encoding="utf-8")
    return store


def kept_copies(store: Path) -> list[Path]:
    return sorted(store.glob("settings.original-*.json"))


def test_a_failed_write_leaves_the_file_in_place_and_says_so_in_chinese(tmp_path):
    store = store_with(tmp_path, REFUSED)
    assistant = fake_assistant(store)
    (store / (SAVED_FILE + ".tmp")).mkdir()  # stands for a full disk or a quota on the write
    with pytest.raises(SettingsError) as refused:
        assistant.update_settings(token_budget=2000)
    assert "设置没有保存" in str(refused.value) and "Errno" not in str(refused.value), str(refused.value)
    assert (store / SAVED_FILE).read_text(encoding="utf-8") == REFUSED and not kept_copies(store)
    assert assistant.settings.token_budget != 2000  # nothing put in force either
    (store / (SAVED_FILE + ".tmp")).rmdir()
    assert fake_assistant(store).settings.candidates == 40


def test_a_failed_write_of_a_file_this_process_wrote_keeps_it(tmp_path):
    assistant = fake_assistant(tmp_path / "store")
    assistant.update_settings(candidates=40)
    before = (tmp_path / "store" / SAVED_FILE).read_bytes()
    (tmp_path / "store" / (SAVED_FILE + ".tmp")).mkdir()
    with pytest.raises(SettingsError, match="磁盘已满或没有写权限"):
        assistant.update_settings(top_k=6)
    assert (tmp_path / "store" / SAVED_FILE).read_bytes() == before
