"""What the settings page changes outlives a restart, and only what may change at run time can be changed.

The page says 修改立即对所有页面生效; the changes lived in memory only, so after a restart a store re-chunked at
the page's chunk size was mixed with uploads cut at the .env's, and nothing said so (helper-36 4-5). Real SQLite
and Chroma, the fake embedder.
"""

from __future__ import annotations

import json
import math

import pytest
from fakes import fake_assistant

from rag_core.errors import SettingsError
from rag_core.settings import SAVED_FILE, Settings
from rag_core.types import Principal

ADMIN = Principal("boss", "admin")


def test_changes_made_on_the_page_are_in_force_after_a_restart(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.update_settings(chunk_size=500, chunk_overlap=50, top_k=2, actor=ADMIN)
    a.update_settings(answer_threshold=0.5, actor=ADMIN)
    b = fake_assistant(tmp_path / "store")  # the same data dir, a new process
    assert (b.settings.chunk_size, b.settings.chunk_overlap, b.settings.top_k) == (500, 50, 2)
    assert b.settings.answer_threshold == 0.5


def test_a_damaged_saved_file_starts_on_the_env_and_says_so(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.update_settings(top_k=2, actor=ADMIN)
    (tmp_path / "store" / SAVED_FILE).write_text("{不是 json", encoding="utf-8")
    b = fake_assistant(tmp_path / "store")
    assert b.settings.top_k == Settings().top_k
    assert any(SAVED_FILE in notice for notice in b.store_notices)


@pytest.mark.parametrize("changes", [{"data_dir": "/tmp/elsewhere"}, {"embedding_model": "use"},
                                     {"llm_base_url": "http://127.0.0.1:9/v1"}])
def test_what_needs_a_restart_is_refused_at_run_time(tmp_path, changes):
    a = fake_assistant(tmp_path / "store")
    with pytest.raises(SettingsError, match="不能在运行中修改"):
        a.update_settings(**changes, actor=ADMIN)
    assert not (tmp_path / "store" / SAVED_FILE).exists()


@pytest.mark.parametrize("size", [math.inf, math.nan])
def test_an_infinite_file_size_limit_is_refused(size):
    with pytest.raises(SettingsError, match="文件大小上限"):
        Settings(max_file_mb=size).validate()


def test_a_saved_value_the_code_no_longer_accepts_is_named_dropped_and_the_rest_kept(tmp_path):
    """One refused value used to discard all of them, and a save merged into the bad file (helper-38 4)."""
    store = tmp_path / "store"
    store.mkdir()
    (store / SAVED_FILE).write_text(json.dumps({"top_k": 999, "chunk_size": 500, "chunk_overlap": 50}), encoding="utf-8")
    a = fake_assistant(store)
    assert (a.settings.chunk_size, a.settings.chunk_overlap, a.settings.top_k) == (500, 50, Settings().top_k)
    assert any("top_k" in notice and SAVED_FILE in notice for notice in a.store_notices)
    a.update_settings(candidates=40, actor=ADMIN)
    assert json.loads((store / SAVED_FILE).read_text(encoding="utf-8")) == {
        "candidates": 40, "chunk_size": 500, "chunk_overlap": 50}
    b = fake_assistant(store)
    assert (b.settings.chunk_size, b.settings.candidates) == (500, 40) and not b.store_notices


def test_the_page_shows_what_it_saved_and_can_go_back_to_the_env(tmp_path, monkeypatch):
    """The saved knobs override .env at every start: the page says which, and clears them (helper-38 3)."""
    from test_settings_bounds import settings_page

    a = fake_assistant(tmp_path / "store", top_k=8)  # as if .env said RAG_TOP_K=8
    a.update_settings(top_k=3, actor=ADMIN)
    assert a.saved_settings == {"top_k": 3}
    at = settings_page(a, tmp_path, monkeypatch)
    assert any("settings.json" in info.value.replace("\\\\", "") for info in at.info)
    next(b for b in at.button if b.label.startswith("清除本页保存的修改")).click().run()
    next(b for b in at.button if b.label == "确认清除").click().run()  # asked first (review 335)
    assert not at.exception
    assert a.saved_settings == {} and a.settings.top_k == 8
    assert not (tmp_path / "store" / SAVED_FILE).exists()


def test_clearing_a_saved_chunk_size_asks_before_re_cutting_the_library(tmp_path, monkeypatch):
    """Review 335: 清除本页保存的修改 re-cut and re-embedded every document at one click, while 应用 asks first."""
    from test_settings_bounds import settings_page

    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes("第一条 员工每年享有五天带薪年假。\n\n第二条 请假须提前三天申请。\n".encode(), "年假.md").ok
    a.update_settings(chunk_size=200, actor=ADMIN)
    cut = []
    monkeypatch.setattr(a, "reindex", lambda **kw: cut.append(kw) or pytest.fail("re-cut before the question"))
    at = settings_page(a, tmp_path, monkeypatch)
    next(b for b in at.button if b.label.startswith("清除本页保存的修改")).click().run()
    assert any("重新切分" in w.value and "1 份文档" in w.value for w in at.warning), [w.value for w in at.warning]
    assert a.saved_settings == {"chunk_size": 200} and not cut
    next(b for b in at.button if b.label == "取消" and b.key == "clear_saved_cancel").click().run()
    assert a.saved_settings == {"chunk_size": 200} and not cut and not at.exception
    assert not any("重新切分" in w.value for w in at.warning)


def test_a_confirm_over_settings_saved_meanwhile_elsewhere_asks_again(tmp_path, monkeypatch):
    """Review 336: the question named no re-cut; a chunk size saved in another tab meanwhile was re-cut on 确认清除."""
    from test_settings_bounds import settings_page

    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes("第一条 员工每年享有五天带薪年假。\n\n第二条 请假须提前三天申请。\n".encode(), "年假.md").ok
    a.update_settings(top_k=3, actor=ADMIN)
    cut = []
    monkeypatch.setattr(a, "reindex", lambda **kw: cut.append(kw))
    at = settings_page(a, tmp_path, monkeypatch)
    next(b for b in at.button if b.label.startswith("清除本页保存的修改")).click().run()
    assert not any("重新切分" in w.value for w in at.warning)
    a.update_settings(chunk_size=200, actor=ADMIN)  # another tab
    next(b for b in at.button if b.label == "确认清除").click().run()
    assert not cut and a.saved_settings == {"top_k": 3, "chunk_size": 200}
    assert any("别处改过" in w.value for w in at.warning) and any("重新切分" in w.value for w in at.warning)


def test_applying_a_setting_withdraws_a_clear_still_asked_about(tmp_path, monkeypatch):
    """Review 337: 应用 after 清除 in the same tab was read as a change made elsewhere, and the page asked again to clear
    everything, the value just saved included."""
    from test_settings_bounds import settings_page

    a = fake_assistant(tmp_path / "store")
    a.update_settings(top_k=3, actor=ADMIN)
    at = settings_page(a, tmp_path, monkeypatch)
    next(b for b in at.button if b.label.startswith("清除本页保存的修改")).click().run()
    assert any("要清除" in w.value for w in at.warning)
    next(n for n in at.number_input if "返回条数" in n.label).set_value(4)
    next(b for b in at.button if b.label == "应用").click().run()
    warned = " ".join(w.value for w in at.warning)
    assert "别处" not in warned and "要清除" not in warned and a.saved_settings["top_k"] == 4


def test_restoring_defaults_with_nothing_to_change_leaves_the_clear_question_working(tmp_path, monkeypatch):
    """Review 338: 恢复默认值 with nothing to change withdrew the question, which stayed on screen and did nothing."""
    from test_settings_bounds import settings_page

    from rag_core.settings import Settings

    # .env says top_k 8, the page saved the default back: 恢复默认值 has nothing to change, the clear has
    a = fake_assistant(tmp_path / "store", top_k=8, answer_threshold=Settings().answer_threshold)
    a.update_settings(top_k=Settings().top_k, actor=ADMIN)
    at = settings_page(a, tmp_path, monkeypatch)
    next(b for b in at.button if b.label.startswith("清除本页保存的修改")).click().run()
    next(b for b in at.button if b.label == "恢复默认值").click().run()
    next(b for b in at.button if b.label == "确认清除").click().run()
    assert a.saved_settings == {} and any("已改回" in m.value for m in at.success)


def test_a_version_not_cut_again_is_named_inert(tmp_path, monkeypatch):
    """The names in 以下版本未能重新索引 are documents' titles: shown as text, no live link."""
    from test_settings_bounds import settings_page

    from rag_core.documents.bounds import ReindexReport

    a = fake_assistant(tmp_path / "store")
    a.update_settings(top_k=3, actor=ADMIN)
    monkeypatch.setattr(a, "forget_saved_settings", lambda **_: True)
    monkeypatch.setattr(a, "reindex", lambda **_: ReindexReport(failed=["《[点我](http://x.example)》v1：超过上限"]))
    at = settings_page(a, tmp_path, monkeypatch)
    next(b for b in at.button if b.label.startswith("清除本页保存的修改")).click().run()
    next(b for b in at.button if b.label == "确认清除").click().run()  # asked first (review 335)
    shown = " ".join(s.value for s in [*at.success, *at.error])  # what was not cut is an error since review 52q3
    assert "未能重新索引" in shown and "[点我](http" not in shown, shown


def test_a_saved_chunk_size_and_overlap_are_checked_together(tmp_path):
    """Checked one by one against the .env's overlap, a saved 100/50 lost its size (helper-39 3)."""
    store = tmp_path / "store"
    store.mkdir()
    (store / SAVED_FILE).write_text(json.dumps({"chunk_size": 100, "chunk_overlap": 50}), encoding="utf-8")
    a = fake_assistant(store, chunk_size=500, chunk_overlap=200)
    assert (a.settings.chunk_size, a.settings.chunk_overlap) == (100, 50) and not a.store_notices
