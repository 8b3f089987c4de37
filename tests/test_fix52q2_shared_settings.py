"""A settings save keeps what another replica saved since this one started (review 52q2 #3).

settings.json was read only at start and a save wrote only the saving process's knobs: replica B's change was
dropped by replica A's next save (and came back as the .env value at the next start). The other replica's save
is its write of settings.json after this assistant started. Real SQLite and Chroma, the fake embedder.
"""

from __future__ import annotations

import json
from pathlib import Path

from fakes import fake_assistant

from rag_core.settings import SAVED_FILE


def saved(store: Path) -> dict:
    return json.loads((store / SAVED_FILE).read_text(encoding="utf-8"))


def test_a_save_keeps_a_knob_another_replica_saved_since_the_start(tmp_path: Path) -> None:
    store = tmp_path / "store"
    replica_a = fake_assistant(store)
    replica_a.update_settings(memory_top_k=2)
    (store / SAVED_FILE).write_text(json.dumps({"memory_top_k": 2, "top_k": 9}), encoding="utf-8")  # replica B saves

    replica_a.update_settings(candidates=40)

    assert saved(store) == {"memory_top_k": 2, "top_k": 9, "candidates": 40}
    assert replica_a.settings.top_k == 9 and replica_a.saved_settings["top_k"] == 9  # in force here too
    restarted = fake_assistant(store)
    assert (restarted.settings.top_k, restarted.settings.candidates, restarted.settings.memory_top_k) == (9, 40, 2)


def test_the_same_knob_saved_here_wins(tmp_path: Path) -> None:
    store = tmp_path / "store"
    replica_a = fake_assistant(store)
    (store / SAVED_FILE).write_text(json.dumps({"top_k": 9, "candidates": 40}), encoding="utf-8")
    replica_a.update_settings(top_k=6)
    assert saved(store) == {"top_k": 6, "candidates": 40}
    assert replica_a.settings.top_k == 6 and replica_a.settings.candidates == 40


def test_a_clear_by_another_replica_is_kept_too(tmp_path: Path) -> None:
    store = tmp_path / "store"
    replica_a = fake_assistant(store)
    replica_a.update_settings(top_k=9)
    (store / SAVED_FILE).unlink()  # replica B cleared the saved changes
    replica_a.update_settings(candidates=40)
    assert saved(store) == {"candidates": 40}
