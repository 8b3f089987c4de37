"""Review 52k #2: 确认遗忘 removes exactly the memories its preview listed, and says when they changed since."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_support import point_the_app_at
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest

from rag_core import PermissionDenied, Principal

APP = str(Path(__file__).resolve().parent.parent / "app.py")
ADMIN = Principal("wang", "admin")
OTHER = Principal("li", "employee")
KEPT = (("我在北京研发中心工作", 0.9), ("我喜欢表格形式的回答", 0.8), ("我下个月要休婚假", 0.3))
LATE = ("我对花生过敏", 0.1)  # told in another tab after the preview, and worth less than everything


def seeded(tmp_path: Path, user: str = "local"):
    a = fake_assistant(tmp_path / "s")
    for text, importance in KEPT:
        a.remember(user, text, importance=importance)
    return a


def test_confirm_forgets_only_the_previewed_ids(tmp_path) -> None:
    a = seeded(tmp_path)
    previewed = a.preview_forget(2, user="local")
    assert [m.content for m in previewed] == ["我下个月要休婚假"]
    a.remember("local", LATE[0], importance=LATE[1])
    done = a.forget_previewed([m.id for m in previewed], 2, user="local")
    assert (done.count, done.listed, done.changed) == (1, 1, True)
    assert sorted(m.content for m in a.list_memories("local")) == sorted(["我在北京研发中心工作", "我喜欢表格形式的回答", LATE[0]])
    row = next(e for e in a.audit_entries(actor=ADMIN) if e.action == "memory.forget")
    assert (row.target, row.outcome) == ("local", "ok") and "遗忘 1 条" in row.detail


def test_an_unchanged_preview_says_nothing_changed(tmp_path) -> None:
    a = seeded(tmp_path)
    previewed = a.preview_forget(1, user="local")
    done = a.forget_previewed([m.id for m in previewed], 1, user="local")
    assert (done.count, done.listed, done.changed) == (2, 2, False)


def test_someone_elses_ids_are_refused_and_kept(tmp_path) -> None:
    a = seeded(tmp_path, user="zhang")
    ids = [m.id for m in a.preview_forget(0, user="zhang", actor=ADMIN)]
    with pytest.raises(PermissionDenied):
        a.forget_previewed(ids, 0, user="zhang", actor=OTHER)
    assert a.forget_previewed(ids, 0, user="li", actor=OTHER).count == 0  # ids of another person's rows: untouched
    assert len(a.list_memories("zhang", actor=ADMIN)) == 3


def previewed_on_the_page(a, keep: int, tmp_path, monkeypatch) -> AppTest:
    """The memories page on `a`, with 遗忘 previewed down to `keep`."""
    import ui.state

    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: a)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("pages/memories.py").run()
    next(n for n in at.number_input if n.label == "保留条数 N").set_value(keep).run()
    next(b for b in at.button if b.label == "预览将被遗忘的记忆").click().run()
    return at


def test_the_page_confirms_what_it_showed_and_says_the_memories_changed(tmp_path, monkeypatch) -> None:
    a = seeded(tmp_path)
    at = previewed_on_the_page(a, 2, tmp_path, monkeypatch)
    assert any("以下 1 条将被遗忘" in w.value for w in at.warning)
    a.remember("local", LATE[0], importance=LATE[1])  # another tab, after the preview
    next(b for b in at.button if b.label == "确认遗忘").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert sorted(m.content for m in a.list_memories("local")) == sorted(
        ["我在北京研发中心工作", "我喜欢表格形式的回答", LATE[0]])
    said = " ".join(s.value for s in at.success)
    assert "已遗忘 1 条记忆" in said and "只遗忘了预览中列出的记忆" in said and "请重新预览" in said
