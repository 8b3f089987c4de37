"""A huge integer setting is refused like any out-of-range value (s50d review).

`math.isfinite` turns an int into a float first: 10**400 raised OverflowError, which nothing caught, so one
such number in settings.json stopped every start ("助手启动失败：int too large to convert to float"), and
RAG_TOP_K=1000…0 or `with_changes(memory_half_life_days=10**400)` did the same. Now each is the knob's usual
Chinese refusal; a saved file's other knobs still apply.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core import Settings, SettingsError
from rag_core.settings import LIMITS, SAVED_FILE
from rag_core.storage.saved_settings import with_saved_changes

ROOT = Path(__file__).resolve().parent.parent
HUGE = 10**400


@pytest.mark.parametrize("name", [*LIMITS, "max_chunks_per_file", "embed_batch_size", "memory_retention_days",
                                  "llm_timeout_s"])
@pytest.mark.parametrize("sign", [1, -1])
def test_a_huge_integer_is_a_chinese_refusal(name, sign):
    with pytest.raises(SettingsError, match="须"):
        Settings().with_changes(**{name: sign * HUGE})


def test_a_huge_environment_value_is_a_chinese_refusal(monkeypatch):
    monkeypatch.setenv("RAG_TOP_K", "1" + "0" * 400)
    with pytest.raises(SettingsError, match="top_k"):
        Settings.from_env(env_file=None)


def test_a_huge_saved_value_is_left_out_and_the_others_apply(tmp_path):
    store = tmp_path / "store"
    store.mkdir()
    (store / SAVED_FILE).write_text('{"candidates": 40, "top_k": 1' + "0" * 400 + "}", encoding="utf-8")
    settings, notice, applied = with_saved_changes(Settings(data_dir=store))
    assert settings.top_k == Settings().top_k and settings.candidates == 40
    assert applied == {"candidates"} and "top_k" in notice


def test_the_assistant_starts_with_a_huge_saved_value(tmp_path):
    store = tmp_path / "store"
    store.mkdir()
    (store / SAVED_FILE).write_text(json.dumps({"memory_top_k": 5}).replace("5", "1" + "0" * 400), encoding="utf-8")
    assistant = fake_assistant(store)
    assert assistant.settings.memory_top_k == Settings().memory_top_k
    assert any("memory_top_k" in line for line in assistant.store_notices), assistant.store_notices


def test_the_command_line_says_which_variable_is_out_of_range(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8", "RAG_TOP_K": "1" + "0" * 400,
           "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
    done = subprocess.run([sys.executable, "-m", "rag_core", "--data-dir", str(tmp_path / "store"), "doctor"],
                          capture_output=True, cwd=tmp_path, env=env, timeout=300)
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 1 and "Traceback" not in err, err
    assert "top_k 须在 1 到 50 之间" in err, err
