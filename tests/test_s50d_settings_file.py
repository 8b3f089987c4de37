"""A settings.json the start could not use whole is kept aside before a save rewrites it (s50d review).

A trailing comma made the file unreadable; the next change on the settings page wrote {"top_k": 9} over it and
the other saved knobs were gone with no copy. Now the first save moves it aside as settings.original-<time>.json
(like the thesaurus), and the start's notice says in Chinese where the file is wrong.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core import Settings
from rag_core.settings import SAVED_FILE
from rag_core.storage.saved_settings import save_changes, with_saved_changes

DAMAGED = '{"candidates": 40, "memory_top_k": 5, "top_k": 8,}'


def kept_copies(store: Path) -> list[Path]:
    return sorted(store.glob("settings.original-*.json"))


def store_with(tmp_path: Path, text: str) -> Path:
    store = tmp_path / "store"
    store.mkdir()
    (store / SAVED_FILE).write_text(text, encoding="utf-8")
    return store


def test_a_damaged_file_is_kept_aside_before_the_first_save(tmp_path):
    store = store_with(tmp_path, DAMAGED)
    assistant = fake_assistant(store)
    assistant.update_settings(top_k=9)
    assert json.loads((store / SAVED_FILE).read_text(encoding="utf-8")) == {"top_k": 9}
    [copy] = kept_copies(store)
    assert copy.read_text(encoding="utf-8") == DAMAGED
    assistant.update_settings(top_k=7)  # the file is now what a save writes: no second copy
    assert kept_copies(store) == [copy]


def test_the_notice_names_the_place_in_chinese(tmp_path):
    store = store_with(tmp_path, DAMAGED)
    _, notice, applied = with_saved_changes(Settings(data_dir=store))
    assert applied == frozenset()
    assert "第 1 行第 50 列" in notice and "逗号" in notice, notice
    assert "settings.original-" in notice and "Expecting" not in notice, notice


@pytest.mark.parametrize("text", ['{"top_k": 99, "candidates": 40}', '{"top_k": 8, "colour": "blue"}', "[1, 2]",
                                  '{"top_k": 8.5}'])
def test_a_file_a_save_would_not_write_back_whole_is_kept(tmp_path, text):
    store = store_with(tmp_path, text)
    settings, _, _ = with_saved_changes(Settings(data_dir=store))
    kept = save_changes(settings.with_changes(top_k=9), {"top_k"})
    assert kept and (store / kept).read_text(encoding="utf-8") == text


def test_a_clean_file_is_rewritten_without_a_copy(tmp_path):
    store = store_with(tmp_path, '{"candidates": 40, "top_k": 8}')
    settings, notice, applied = with_saved_changes(Settings(data_dir=store))
    assert not notice and applied == {"candidates", "top_k"}
    assert save_changes(settings.with_changes(top_k=9), applied) == ""
    assert not kept_copies(store)
    assert json.loads((store / SAVED_FILE).read_text(encoding="utf-8")) == {"top_k": 9, "candidates": 40}
