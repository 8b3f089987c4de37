"""A settings.json with a BOM is read, and a bad alias variable is named as it was set (review rev51a 8).

A BOM (Notepad's UTF-8) made the whole file 第 1 行第 1 列格式有误 and no saved knob was used; MEMORY_THRESHOLD=0,2
was reported as RAG_MEMORY_THRESHOLD, a variable the admin never set.
"""

from __future__ import annotations

import json

import pytest

from rag_core.errors import SettingsError, explain_json_error
from rag_core.settings import SAVED_FILE, Settings
from rag_core.storage.saved_settings import with_saved_changes


def test_a_settings_file_saved_with_a_bom_is_read(tmp_path):
    (tmp_path / SAVED_FILE).write_bytes(b"\xef\xbb\xbf" + json.dumps({"top_k": 8}).encode())
    settings, notice, applied = with_saved_changes(Settings(data_dir=tmp_path))
    assert (settings.top_k, notice, applied) == (8, "", {"top_k"})


def test_a_bom_is_explained_in_chinese_to_other_callers():
    with pytest.raises(json.JSONDecodeError) as exc:
        json.loads("\ufeff{}")
    what = explain_json_error(exc.value.msg)
    assert "BOM" in what and "格式有误" not in what, what




def test_a_bad_alias_variable_is_named_as_it_was_set(clean_env):
    clean_env.setenv("MEMORY_THRESHOLD", "0,2")
    with pytest.raises(SettingsError) as exc:
        Settings.from_env(env_file=None)
    assert "MEMORY_THRESHOLD='0,2'" in str(exc.value) and "RAG_MEMORY_THRESHOLD" not in str(exc.value), str(exc.value)


def test_a_bad_rag_variable_is_still_named_by_its_rag_name(clean_env):
    clean_env.setenv("RAG_MEMORY_THRESHOLD", "0,2")
    clean_env.setenv("MEMORY_THRESHOLD", "0.3")
    with pytest.raises(SettingsError, match="RAG_MEMORY_THRESHOLD='0,2'"):
        Settings.from_env(env_file=None)
