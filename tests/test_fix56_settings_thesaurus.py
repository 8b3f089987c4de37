"""HR's own thesaurus file: a save that cannot write, saves racing each other, and control characters.

Found by review: a save that could not write raised a raw OSError (the page showed a traceback), had audited
"ok" and had already moved HR's file aside, so the next start lost the entries; a save wrote this process's
copy over entries added since (the gap page, another person, another replica); a control character was
accepted by a save and then made the next start ignore the whole file as "not UTF-8".
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from app_support import point_the_app_at
from fakes import fake_assistant

from rag_core import Principal, RagError
from rag_core.errors import SettingsError

APP = str(Path(__file__).resolve().parents[1] / "app.py")
ADMIN = Principal("local", "admin")
HR = Principal("li", "hr")
CRLF_FILE = "打车\t出租车\r\n开除\t解除劳动合同\r\n".encode()  # Windows Notepad: valid, not what a save writes


@pytest.fixture
def full_disk(monkeypatch):
    """Putting a new thesaurus.tsv in place fails as on a full disk (everything else still works)."""
    real = os.replace

    def replace(src, dst, *args, **kwargs):
        if Path(dst).name == "thesaurus.tsv":
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)


def hand_made(data: Path):
    fake_assistant(data)
    (data / "thesaurus.tsv").write_bytes(CRLF_FILE)
    a = fake_assistant(data)
    assert a.thesaurus.custom == {"打车": ("出租车",), "开除": ("解除劳动合同",)}
    return a


def outcomes(a) -> list[str]:
    return [e.outcome for e in a.audit_log.entries(action="thesaurus.change")]


@pytest.mark.parametrize("how", ["editor", "gap page"])
def test_a_save_that_cannot_write_changes_nothing_and_says_so(tmp_path, full_disk, how):
    data = tmp_path / "store"
    a = hand_made(data)
    with pytest.raises(SettingsError, match="没有保存") as refused:
        if how == "editor":
            a.save_custom_thesaurus("打车\t出租车\n开除\t解除劳动合同\n年假\t带薪年休假", actor=ADMIN)
        else:
            a.add_thesaurus_entry("年假", "带薪年休假", actor=ADMIN)
    assert "无法写入" in str(refused.value)
    assert (data / "thesaurus.tsv").read_bytes() == CRLF_FILE  # left where and as it was
    assert sorted(p.name for p in data.iterdir() if "thesaurus" in p.name and "lock" not in p.name) == ["thesaurus.tsv"]
    assert outcomes(a) == ["failed"]  # no "ok" row for a save that did not happen
    assert "年假" not in a.thesaurus.custom
    assert fake_assistant(data).thesaurus.custom == {"打车": ("出租车",), "开除": ("解除劳动合同",)}


def test_a_save_that_works_keeps_a_copy_of_a_hand_made_file(tmp_path):
    data = tmp_path / "store"
    a = hand_made(data)
    a.save_custom_thesaurus("打车\t出租车\n年假\t带薪年休假", actor=ADMIN)
    copies = list(data.glob("thesaurus.original-*.tsv"))
    assert len(copies) == 1 and copies[0].read_bytes() == CRLF_FILE
    assert outcomes(a) == ["ok"]
    assert fake_assistant(data).thesaurus.custom == {"打车": ("出租车",), "年假": ("带薪年休假",)}


def test_the_page_says_a_failed_save_in_chinese(tmp_path, monkeypatch, full_disk):
    at, a = settings_page(tmp_path, monkeypatch)
    at.text_area(key="settings_thesaurus_text").set_value("打车\t出租车")
    next(b for b in at.button if b.label == "保存词表").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("没有保存" in e.value for e in at.error)
    assert not at.success and not a.thesaurus.custom


def test_an_entry_added_by_another_replica_is_kept(tmp_path):
    data = tmp_path / "store"
    a, b = fake_assistant(data), fake_assistant(data)
    a.save_custom_thesaurus("打车\t出租车", actor=ADMIN)
    b.add_thesaurus_entry("开除", "解除劳动合同", actor=ADMIN)
    assert set(fake_assistant(data).thesaurus.custom) == {"打车", "开除"}
    assert "打车" in b.custom_thesaurus(actor=ADMIN)  # the editor shows the file as it is now
    assert "打车" in b.thesaurus.custom  # and searches with it


def test_an_editor_drawn_before_another_change_is_refused(tmp_path):
    data = tmp_path / "store"
    a = fake_assistant(data)
    drawn = a.custom_thesaurus(actor=ADMIN)
    a.add_thesaurus_entry("打车", "出租车", actor=HR)  # the gap page, meanwhile
    with pytest.raises(RagError, match="已在别处被修改（打车）") as refused:
        a.save_custom_thesaurus(drawn + "\n开除\t解除劳动合同", actor=ADMIN, drawn=drawn)
    assert "打车" in refused.value.current
    assert set(a.thesaurus.custom) == set(fake_assistant(data).thesaurus.custom) == {"打车"}
    assert sorted(outcomes(a)) == ["failed", "ok"]
    # drawn from the file as it is now, the same save goes through
    now = a.custom_thesaurus(actor=ADMIN)
    assert a.save_custom_thesaurus(now + "\n开除\t解除劳动合同", actor=ADMIN, drawn=now) == 2


def settings_page(tmp_path, monkeypatch, a=None):
    from streamlit.testing.v1 import AppTest

    import ui.state

    a = a or fake_assistant(tmp_path / "store")
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: a)
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.run()
    at.switch_page("pages/settings.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at, a


def test_the_page_keeps_the_typed_text_when_the_file_changed_since(tmp_path, monkeypatch):
    a = fake_assistant(tmp_path / "store")
    a.save_custom_thesaurus("年假\t带薪年休假", actor=ADMIN)
    at, _ = settings_page(tmp_path, monkeypatch, a)
    box = at.text_area(key="settings_thesaurus_text")
    typed = box.value + "\n开除\t解除劳动合同"
    a.add_thesaurus_entry("打车", "出租车", actor=HR)  # the gap page, another person, meanwhile
    box.set_value(typed)
    next(b for b in at.button if b.label == "保存词表").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.success
    assert any("已在别处被修改" in e.value for e in at.error)
    assert at.text_area(key="settings_thesaurus_text").value == typed  # nothing typed is lost
    assert "打车" in a.thesaurus.custom and "开除" not in a.thesaurus.custom
    # merged by hand, the second save goes through and the editor shows the file as saved
    at.text_area(key="settings_thesaurus_text").set_value(typed + "\n打车\t出租车")
    next(b for b in at.button if b.label == "保存词表").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("已保存 3 条" in s.value for s in at.success)
    assert set(a.thesaurus.custom) == {"年假", "开除", "打车"}
    assert at.text_area(key="settings_thesaurus_text").value == a.custom_thesaurus(actor=ADMIN)


def test_an_untouched_editor_follows_the_file(tmp_path, monkeypatch):
    at, a = settings_page(tmp_path, monkeypatch)
    a.add_thesaurus_entry("打车", "出租车", actor=HR)
    at.run()
    assert "打车\t出租车" in at.text_area(key="settings_thesaurus_text").value


@pytest.mark.parametrize("char", ["\x00", "\x08", "\x0c", "\x1b", "\x7f", "\x85"])
def test_a_control_character_is_refused_at_a_save_with_its_line(tmp_path, char):
    data = tmp_path / "store"
    a = fake_assistant(data)
    with pytest.raises(SettingsError, match="第 2 行含有看不见的控制字符"):
        a.save_custom_thesaurus(f"开除\t解除劳动合同\n打车\t出租车 网约车{char}\n年假\t带薪年休假", actor=ADMIN)
    with pytest.raises(SettingsError, match="控制字符"):
        a.add_thesaurus_entry("打车", f"出租车{char}", actor=HR)
    assert not a.thesaurus.custom and not (data / "thesaurus.tsv").exists()


@pytest.mark.parametrize("char", ["\x08", "\x0c", "\x1b", "\x7f"])
def test_a_start_leaves_out_only_the_line_holding_a_control_character(tmp_path, char):
    data = tmp_path / "store"
    fake_assistant(data)
    (data / "thesaurus.tsv").write_text(f"开除\t解除劳动合同\n打车\t出租车{char}\n年假\t带薪年休假\n", encoding="utf-8")
    a = fake_assistant(data)
    assert a.thesaurus.custom == {"开除": ("解除劳动合同",), "年假": ("带薪年休假",)}
    assert "第 2 行" in a.thesaurus_notice and "控制字符" in a.thesaurus_notice
    assert "UTF-8" not in a.thesaurus_notice
