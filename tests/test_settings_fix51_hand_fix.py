"""A settings.json edited after the start is kept aside before a save or a clear replaces it (review rev51a 3).

Whether to keep a copy was judged on the file now on disk, but the page writes the start's view: a file fixed by hand
after the start (as the start's notice asks: fix it and restart) was overwritten with no copy when someone saved on
the settings page first. A save now keeps aside any file that differs from what this process loaded or last wrote.
Real SQLite and Chroma, the fake embedder.
"""

from __future__ import annotations

import json
from pathlib import Path

from fakes import fake_assistant

from rag_core.settings import SAVED_FILE

REFUSED = json.dumps({"top_k": 500, "candidates": 40})
FIXED = json.dumps({"top_k": 8, "candidates": 40})


def store_with(tmp_path: Path, text: str) -> Path:
    store = tmp_path / "store"
    store.mkdir()
    (store / SAVED_FILE).write_text(text, encoding="utf-8")
    return store


def kept_copies(store: Path) -> list[Path]:
    return sorted(store.glob("settings.original-*.json"))


def test_a_file_fixed_by_hand_after_the_start_is_kept_before_a_save(tmp_path):
    store = store_with(tmp_path, REFUSED)
    assistant = fake_assistant(store)  # the start refuses top_k and says: fix the file and restart
    (store / SAVED_FILE).write_text(FIXED, encoding="utf-8")  # the admin fixes it; HR saves before the restart
    assistant.update_settings(memory_top_k=2)
    [copy] = kept_copies(store)
    assert copy.read_text(encoding="utf-8") == FIXED
    assert copy.name in assistant.settings_notice and "另存为" in assistant.settings_notice


def test_a_hand_edit_of_a_clean_file_is_kept_too(tmp_path):
    """Not only a file the start refused: any edit the page's view does not hold."""
    store = store_with(tmp_path, json.dumps({"candidates": 40}))
    assistant = fake_assistant(store)
    assert not assistant.store_notices
    (store / SAVED_FILE).write_text(json.dumps({"candidates": 50}), encoding="utf-8")
    assistant.update_settings(top_k=6)
    [copy] = kept_copies(store)
    assert json.loads(copy.read_text(encoding="utf-8")) == {"candidates": 50}


def test_a_doctor_run_after_the_hand_fix_does_not_vouch_for_it(tmp_path):
    """The health page reads settings.json as a start does; that read is not what the page's view holds."""
    store = store_with(tmp_path, REFUSED)
    assistant = fake_assistant(store)
    (store / SAVED_FILE).write_text(FIXED, encoding="utf-8")
    assistant.doctor()
    assistant.update_settings(memory_top_k=2)
    assert [copy.read_text(encoding="utf-8") for copy in kept_copies(store)] == [FIXED]


def test_clearing_a_file_edited_after_the_start_keeps_it_aside(tmp_path):
    store = store_with(tmp_path, json.dumps({"candidates": 40}))
    assistant = fake_assistant(store)
    (store / SAVED_FILE).write_text(FIXED, encoding="utf-8")
    assistant.forget_saved_settings()
    assert not (store / SAVED_FILE).exists()
    assert [copy.read_text(encoding="utf-8") for copy in kept_copies(store)] == [FIXED]


def test_what_this_process_wrote_is_rewritten_without_a_copy(tmp_path):
    assistant = fake_assistant(tmp_path / "store")
    assistant.update_settings(top_k=6)
    assistant.update_settings(candidates=40)
    assistant.forget_saved_settings()
    assert not kept_copies(tmp_path / "store") and assistant.settings_notice == ""
