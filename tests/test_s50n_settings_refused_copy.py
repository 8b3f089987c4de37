"""A settings.json value the start refused is kept aside by the next save, whatever it was checked against.

The save judged the file on its own: {"chunk_overlap": 300} was refused at the start against the default chunk
size (240), the notice promised a settings.original-<time>.json copy, and update_settings(top_k=6) wrote
{"top_k": 6} over it with no copy. The save now asks the start's own question, on the .env and defaults.
"""

from __future__ import annotations

import json
from pathlib import Path

from fakes import fake_assistant

from rag_core.settings import SAVED_FILE


def store_with(tmp_path: Path, saved: dict) -> Path:
    store = tmp_path / "store"
    store.mkdir()
    (store / SAVED_FILE).write_text(json.dumps(saved), encoding="utf-8")
    return store


def test_an_overlap_refused_against_the_default_size_is_kept_by_the_next_save(tmp_path):
    store = store_with(tmp_path, {"chunk_overlap": 300})
    assistant = fake_assistant(store)
    assert any("chunk_overlap" in line for line in assistant.store_notices)
    assistant.update_settings(top_k=6)
    assert json.loads((store / SAVED_FILE).read_text(encoding="utf-8")) == {"top_k": 6}
    [copy] = store.glob("settings.original-*.json")
    assert json.loads(copy.read_text(encoding="utf-8")) == {"chunk_overlap": 300}


def test_an_overlap_refused_against_the_env_size_is_kept_even_when_the_save_changes_the_size(tmp_path):
    """Checked against the settings being saved (size 500 now) the old overlap looked fine: lost with no copy."""
    store = store_with(tmp_path, {"chunk_overlap": 300})
    assistant = fake_assistant(store, chunk_size=200, chunk_overlap=20)  # as if .env said so
    assistant.update_settings(chunk_size=500)
    assert json.loads((store / SAVED_FILE).read_text(encoding="utf-8")) == {"chunk_size": 500}
    assert len(list(store.glob("settings.original-*.json"))) == 1


def test_an_overlap_the_env_size_accepts_is_written_back_without_a_copy(tmp_path):
    store = store_with(tmp_path, {"chunk_overlap": 300})
    assistant = fake_assistant(store, chunk_size=500, chunk_overlap=50)
    assert not assistant.store_notices and assistant.settings.chunk_overlap == 300
    assistant.update_settings(top_k=6)
    assert json.loads((store / SAVED_FILE).read_text(encoding="utf-8")) == {"top_k": 6, "chunk_overlap": 300}
    assert not list(store.glob("settings.original-*.json"))
