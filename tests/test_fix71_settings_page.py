"""Review 395 (settings) on the page: a 词表 save that removes entries asks first; 恢复默认值 asks before it writes
over a value .env sets, and the table says where each value comes from, in text (5, not 5.0); the time zone and the
retention periods other pages point to are shown."""

from __future__ import annotations

import pytest
from app_support import open_desktop_page, serve_desktop
from fakes import BigramEmbedder, fake_assistant

from rag_core.assistant import Assistant
from rag_core.facade.access import LOCAL_ADMIN
from rag_core.settings import Settings

pytestmark = pytest.mark.page


def _button(at, label: str):
    return next(b for b in at.button if b.label == label)


def _two_entries_on_the_page(tmp_path, monkeypatch):
    """A 词表 of two entries, and the settings page open on it."""
    a = fake_assistant(tmp_path / "store")
    a.save_custom_thesaurus("神兽金\t子女教育补贴\n打的\t出租车", actor=LOCAL_ADMIN)
    serve_desktop(a, tmp_path, monkeypatch)
    return a, open_desktop_page("pages/settings.py")


def test_emptying_the_thesaurus_asks_first(tmp_path, monkeypatch) -> None:
    a, at = _two_entries_on_the_page(tmp_path, monkeypatch)
    at.text_area[0].set_value("")
    _button(at, "保存词表").click().run()
    assert len(a.thesaurus.custom) == 2, "nothing is removed before the person confirms"
    assert any("会删除 2 条" in str(w.value) for w in at.warning)
    _button(at, "确认删除并保存").click().run()
    assert not at.exception and a.thesaurus.custom == {}
    assert list((tmp_path / "store").glob("thesaurus.before-removal-*"))


def test_restoring_defaults_over_env_values_asks_first_and_the_table_says_where_values_come_from(
        tmp_path, monkeypatch) -> None:
    (tmp_path / "store").mkdir()
    a = Assistant(Settings(data_dir=tmp_path / "store", top_k=8, answer_threshold=0.1), embedder=BigramEmbedder())
    serve_desktop(a, tmp_path, monkeypatch)
    at = open_desktop_page("pages/settings.py")
    frames = [d.value for d in at.dataframe]
    current = next(f for f in frames if "来自" in f.columns)
    row = current[current["设置"] == "每次检索返回条数"].iloc[0]
    assert row["当前值"] == "8" and "RAG_TOP_K" in row["来自"], row.to_dict()
    assert not any(v.endswith(".0") for v in current["当前值"]), current["当前值"].tolist()
    _button(at, "恢复默认值").click().run()
    assert a.settings.top_k == 8 and any("RAG_TOP_K" in str(w.value) for w in at.warning)
    _button(at, "取消").click().run()
    assert a.settings.top_k == 8 and not (tmp_path / "store" / "settings.json").exists()
    info = next(f for f in frames if "项目" in f.columns)
    assert {"时区（页面上的时间都按它显示）", "提问记录保留天数"} <= set(info["项目"])


def test_a_removal_question_goes_when_its_save_is_refused(tmp_path, monkeypatch) -> None:
    # review 396 #4: the question stayed beside the refusal, naming what the file held before
    a, at = _two_entries_on_the_page(tmp_path, monkeypatch)
    at.text_area[0].set_value("神兽金\t子女教育补贴")
    _button(at, "保存词表").click().run()
    a.add_thesaurus_entry("饭卡", "餐补", actor=LOCAL_ADMIN)  # the gap page, meanwhile
    _button(at, "确认删除并保存").click().run()
    assert any("已在别处被修改" in str(e.value) for e in at.error)
    assert not any("确定吗" in str(w.value) for w in at.warning)
    assert not any(b.label == "确认删除并保存" for b in at.button)
