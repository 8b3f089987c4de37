"""Where a save or a clear put the old settings.json is said, and the start's notice about it goes (s50n review).

update_settings ignored the name save_changes returned, so nobody learned where the copy went and the start's
"…原文件会先另存为 settings.original-<时间>.json" stayed among the store notices after it was done; 清除本页保存的修改
deleted a damaged settings.json with no copy at all.
"""

from __future__ import annotations

import json
from pathlib import Path

from fakes import fake_assistant
from test_settings_bounds import settings_page

from rag_core.settings import SAVED_FILE

DAMAGED = '{"candidates": 40, "top_k": 8,}'
REFUSED = json.dumps({"top_k": 99, "candidates": 40})


def store_with(tmp_path: Path, text: str) -> Path:
    store = tmp_path / "store"
    store.mkdir()
    (store / SAVED_FILE).write_text(text, encoding="utf-8")
    return store


def start_notices(assistant) -> list[str]:
    return [line for line in assistant.store_notices if line.startswith(SAVED_FILE)]


def test_a_save_names_the_kept_copy_and_drops_the_start_notice(tmp_path):
    store = store_with(tmp_path, REFUSED)
    assistant = fake_assistant(store)
    assert start_notices(assistant)
    assistant.update_settings(top_k=6)
    [copy] = store.glob("settings.original-*.json")
    assert copy.name in assistant.settings_notice and "另存为" in assistant.settings_notice
    assert not start_notices(assistant), assistant.store_notices
    assistant.update_settings(top_k=7)  # nothing kept this time: nothing named
    assert assistant.settings_notice == ""


def test_clearing_a_damaged_file_keeps_it_aside(tmp_path):
    store = store_with(tmp_path, DAMAGED)
    assistant = fake_assistant(store)
    assert start_notices(assistant)
    assistant.forget_saved_settings()
    assert not (store / SAVED_FILE).exists()
    [copy] = store.glob("settings.original-*.json")
    assert copy.read_text(encoding="utf-8") == DAMAGED
    assert copy.name in assistant.settings_notice and not start_notices(assistant)


def test_clearing_a_clean_file_keeps_no_copy(tmp_path):
    store = store_with(tmp_path, json.dumps({"top_k": 8}))
    assistant = fake_assistant(store)
    assistant.forget_saved_settings()
    assert not (store / SAVED_FILE).exists() and not list(store.glob("settings.original-*.json"))
    assert assistant.settings_notice == ""


def test_the_settings_page_names_the_copy_after_applying(tmp_path, monkeypatch):
    store = store_with(tmp_path, REFUSED)
    assistant = fake_assistant(store)
    at = settings_page(assistant, tmp_path, monkeypatch)
    next(n for n in at.number_input if n.label == "每次检索返回条数").set_value(6)
    next(b for b in at.button if b.label == "应用").click().run()
    assert not at.exception, [e.value for e in at.exception]
    [copy] = store.glob("settings.original-*.json")
    shown = " ".join(s.value.replace("\\", "") for s in at.success)
    assert "设置已生效" in shown and copy.name in shown, shown


def test_the_settings_page_names_the_copy_after_clearing(tmp_path, monkeypatch):
    store = store_with(tmp_path, REFUSED)
    assistant = fake_assistant(store)
    at = settings_page(assistant, tmp_path, monkeypatch)
    next(b for b in at.button if b.label.startswith("清除本页保存的修改")).click().run()
    next(b for b in at.button if b.label == "确认清除").click().run()  # asked first (review 335)
    assert not at.exception, [e.value for e in at.exception]
    [copy] = store.glob("settings.original-*.json")
    assert copy.read_text(encoding="utf-8") == REFUSED
    shown = " ".join(s.value.replace("\\", "") for s in at.success)
    assert "已改回 .env 和默认值" in shown and copy.name in shown, shown
