"""Review 52n2 #1: 确认遗忘 forgets a listed memory only while it is still what the preview showed."""

from __future__ import annotations

from pathlib import Path

from fakes import fake_assistant
from test_fix52k2_forget import previewed_on_the_page

APP = str(Path(__file__).resolve().parent.parent / "app.py")
KEPT = (("我在北京研发中心工作", 0.9), ("我喜欢表格形式的回答", 0.8), ("我下个月要休婚假", 0.3))


def seeded(tmp_path: Path):
    a = fake_assistant(tmp_path / "s")
    for text, importance in KEPT:
        a.remember("local", text, importance=importance)
    return a


def contents(a) -> list[str]:
    return sorted(m.content for m in a.list_memories("local"))


def test_a_memory_rewritten_after_the_preview_is_kept_and_reported(tmp_path) -> None:
    a = seeded(tmp_path)
    previewed = a.preview_forget(2, user="local")
    a.update_memory_text(previewed[0].id, "我对青霉素过敏")  # another tab; its importance stays low
    done = a.forget_previewed(previewed, 2, user="local")
    assert "我对青霉素过敏" in contents(a)
    assert (done.count, done.listed, done.kept_changed) == (0, 1, 1)


def test_a_memory_reweighed_after_the_preview_is_kept(tmp_path) -> None:
    a = seeded(tmp_path)
    previewed = a.preview_forget(2, user="local")
    a.update_memory_importance(previewed[0].id, 0.31)  # still the lowest: only the version tells
    done = a.forget_previewed(previewed, 2, user="local")
    assert "我下个月要休婚假" in contents(a) and done.kept_changed == 1


def test_bare_ids_keep_a_memory_the_plan_no_longer_drops(tmp_path) -> None:
    a = seeded(tmp_path)
    previewed = a.preview_forget(2, user="local")
    a.update_memory_text(previewed[0].id, "我对青霉素过敏")
    a.update_memory_importance(previewed[0].id, 1.0)
    done = a.forget_previewed([m.id for m in previewed], 2, user="local")
    assert "我对青霉素过敏" in contents(a) and (done.count, done.kept_changed) == (0, 1)


def test_an_unchanged_preview_still_forgets_what_it_listed(tmp_path) -> None:
    a = seeded(tmp_path)
    previewed = a.preview_forget(1, user="local")
    done = a.forget_previewed(previewed, 1, user="local")
    assert (done.count, done.listed, done.kept_changed, done.changed) == (2, 2, 0, False)
    assert contents(a) == ["我在北京研发中心工作"]


def test_the_page_keeps_a_memory_edited_after_its_preview_and_says_so(tmp_path, monkeypatch) -> None:
    a = seeded(tmp_path)
    at = previewed_on_the_page(a, 2, tmp_path, monkeypatch)
    target = a.preview_forget(2, user="local")[0]
    a.update_memory_text(target.id, "我对青霉素过敏")  # another tab, after the preview
    next(b for b in at.button if b.label == "确认遗忘").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert "我对青霉素过敏" in contents(a)
    said = " ".join(s.value for s in at.success)
    assert "已遗忘 0 条记忆" in said and "1 条在预览后被修改过" in said and "已删除" not in said, said
