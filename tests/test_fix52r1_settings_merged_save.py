"""A save that merged another replica's settings.json keeps no copy of it aside (review 52r #2).

The save reads the file as it is now and writes every value of it back with its own change, but the file was
judged against this process's start-time fingerprint: every save after another replica's save kept a
settings.original-* copy and said 原来的 settings.json 已原样另存为…其中不在新设置里的值如仍需要…, though
nothing was dropped. A file in a save's own form, read whole by the save, is now known; one the save cannot use
whole (a refused value, a hand edit) is still kept aside. Real SQLite and Chroma, the fake embedder.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.settings import LIMITS, SAVED_FILE

TESTS = Path(__file__).resolve().parent


def kept_copies(store: Path) -> list[Path]:
    return sorted(store.glob("settings.original-*.json"))


def as_a_save_writes(store: Path, values: dict) -> None:
    """settings.json written as another replica's save writes it (another process: this one never wrote it)."""
    ordered = {k: values[k] for k in LIMITS if k in values}
    (store / SAVED_FILE).write_bytes(json.dumps(ordered, ensure_ascii=False, indent=1).encode())


def test_a_save_after_another_replicas_save_keeps_no_copy(tmp_path):
    store = tmp_path / "store"
    replica_a = fake_assistant(store)
    replica_a.update_settings(memory_top_k=2)
    as_a_save_writes(store, {"memory_top_k": 2, "top_k": 9})  # replica B saves top_k
    replica_a.update_settings(candidates=40)
    replica_a.update_settings(top_k=7)  # and a second save after it: nothing to keep either
    assert kept_copies(store) == []
    assert replica_a.settings_notice == ""
    assert json.loads((store / SAVED_FILE).read_text(encoding="utf-8")) == {"top_k": 7, "candidates": 40, "memory_top_k": 2}
    rows = replica_a.audit_entries(action="settings.change")
    assert not any("另存为" in row.detail for row in rows), rows


def test_a_replica_file_with_a_refused_value_is_still_kept(tmp_path):
    store = tmp_path / "store"
    replica_a = fake_assistant(store)
    as_a_save_writes(store, {"top_k": 500, "candidates": 40})  # a value this code refuses
    replica_a.update_settings(memory_top_k=2)
    [copy] = kept_copies(store)
    assert json.loads(copy.read_text(encoding="utf-8")) == {"top_k": 500, "candidates": 40}
    assert copy.name in replica_a.settings_notice


@pytest.mark.slow  # spawns a process: the other replica is a real second app on the same data dir
def test_a_real_second_replicas_save_leaves_no_copy(tmp_path):
    store = tmp_path / "store"
    replica_a = fake_assistant(store)
    replica_a.update_settings(memory_top_k=2)
    script = ("import sys; sys.path[:0] = [sys.argv[1]]; from fakes import fake_assistant; "
              "fake_assistant(sys.argv[2]).update_settings(top_k=9)")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
    subprocess.run([sys.executable, "-c", script, str(TESTS), str(store)], check=True, env=env, cwd=TESTS.parent)
    replica_a.update_settings(candidates=40)
    assert kept_copies(store) == [] and replica_a.settings_notice == ""
    assert replica_a.settings.top_k == 9
