"""HR's own thesaurus file: a damaged one never stops the assistant and is never lost; entries are bounded
and masked like questions.

A GB18030 file (Notepad's "ANSI" on a Chinese Windows) or a bad line once stopped every page with
助手启动失败; an 8 MB "term" made every question naming its word take ~25 s; a phone number added as a
term was stored and shown to every asker.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core import Assistant, Principal, SettingsError
from rag_core.text.thesaurus import MAX_CUSTOM_BYTES, MAX_CUSTOM_CHARS, MAX_TERM_CHARS, read_custom

ADMIN = Principal("local", "admin")
PHONE, ID_NUMBER = "13912345678", "11010519491231002X"
LEAVE = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n"


def store_with(tmp_path: Path, content: bytes) -> Path:
    data_dir = tmp_path / "store"
    data_dir.mkdir()
    (data_dir / "thesaurus.tsv").write_bytes(content)
    return data_dir


@pytest.mark.parametrize("content, named", [
    (b"PK\x03\x04\x00\x01" + bytes(range(128, 256)), "不是 UTF-8 或 GB18030"),  # e.g. an .xlsx saved under the name
    ("休息日\t年假\n这一行没有制表符也没有空格\n".encode(), "第 2 行"),
    ("休息日\t年假\n".encode() + b"x" * MAX_CUSTOM_BYTES, "KB，超过上限"),  # not even read
    ("休息日\t年假\n# ".encode() + b"x" * MAX_CUSTOM_CHARS, "个字，超过上限"),  # read, and not used
], ids=["binary", "bad-line", "oversized", "too-many-characters"])
def test_a_damaged_file_starts_the_assistant_with_one_notice_and_keeps_its_bytes(tmp_path, content, named):
    data_dir = store_with(tmp_path, content)
    assistant = fake_assistant(data_dir)  # raised (UnicodeDecodeError / SettingsError) before the fix
    assert assistant.ingest_bytes(LEAVE.encode(), "leave.md").ok
    assert assistant.ask("年假有几天", remember=False).search.hits
    notices = [line for line in assistant.store_notices if line.startswith("thesaurus.tsv")]
    assert len(notices) == 1 and named in notices[0], assistant.store_notices
    assert assistant.thesaurus_notice == notices[0]
    assert (data_dir / "thesaurus.tsv").read_bytes() == content  # nothing rewritten at a start


def test_the_lines_that_parse_are_used_and_the_bad_one_is_named(tmp_path):
    data_dir = store_with(tmp_path, "休息日\t年假\n坏行\n班车\t通勤车\n".encode())
    assistant = fake_assistant(data_dir)
    assert assistant.thesaurus.custom == {"休息日": ("年假",), "班车": ("通勤车",)}
    assert "第 2 行" in assistant.thesaurus_notice and "其余 2 条照常使用" in assistant.thesaurus_notice


def test_a_gb18030_file_is_read_as_written(tmp_path):
    data_dir = store_with(tmp_path, "休息日\t年假 公休\n".encode("gb18030"))
    assistant = fake_assistant(data_dir)
    assert assistant.thesaurus.custom == {"休息日": ("年假", "公休")}
    assert not assistant.thesaurus_notice and not assistant.store_notices


def test_saving_over_a_file_that_was_not_used_whole_keeps_its_original_bytes(tmp_path):
    original = "休息日\t年假\n".encode("gb18030") + b"\xff\xff bad\n"
    data_dir = store_with(tmp_path, original)
    assistant = fake_assistant(data_dir)
    assert assistant.save_custom_thesaurus("班车\t通勤车\n", actor=ADMIN) == 1
    kept = list(data_dir.glob("thesaurus.original-*.tsv"))
    assert len(kept) == 1 and kept[0].read_bytes() == original  # moved aside byte for byte, not overwritten
    assert kept[0].name in assistant.thesaurus_notice
    assert not any(line.startswith("thesaurus.tsv") for line in assistant.store_notices)  # the file is fine now
    assert (data_dir / "thesaurus.tsv").read_text(encoding="utf-8").endswith("班车\t通勤车\n")
    assert assistant.add_thesaurus_entry("休息日", "公休", actor=ADMIN)  # a clean file is replaced, no second copy
    assert len(list(data_dir.glob("thesaurus.original-*.tsv"))) == 1


def test_doctor_names_a_damaged_thesaurus_without_opening_the_assistant(tmp_path):
    data_dir = store_with(tmp_path, b"\xff\xfe\x00garbage")
    check = next(c for c in Assistant.doctor_data_dir(data_dir) if c.file == "thesaurus.tsv")
    assert check.status == "damaged" and not check.ok and "设置页" in check.line()
    (data_dir / "thesaurus.tsv").write_text("休息日\t年假\n", encoding="utf-8")
    assert next(c for c in Assistant.doctor_data_dir(data_dir) if c.file == "thesaurus.tsv").ok


def test_the_app_starts_on_a_damaged_thesaurus_and_the_settings_page_names_it(tmp_path, monkeypatch):
    from app_support import point_the_app_at
    from streamlit.testing.v1 import AppTest

    import ui.state

    assistant = fake_assistant(store_with(tmp_path, "休息日\t年假\n".encode() + b"\x81\x00\xff"))
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(str(Path(__file__).resolve().parent.parent / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("pages/settings.py").run()
    assert not at.exception and not at.error, [e.value for e in [*at.exception, *at.error]]
    shown = [w.value.replace("\\", "") for w in at.warning]  # markdown-escaped: thesaurus\.tsv
    assert any("thesaurus.tsv（自定义词表）" in line for line in shown), shown


def test_a_term_is_a_word_or_short_phrase_and_the_file_has_a_size(tmp_path, monkeypatch):
    import rag_core.facade.thesaurus as facade_thesaurus

    assistant = fake_assistant(tmp_path / "store")
    huge = " ".join(("假期" * 1_000_000) + str(i) for i in range(4))
    masked: list[int] = []
    monkeypatch.setattr(facade_thesaurus, "redact_text", lambda text: masked.append(len(text)) or text)
    with pytest.raises(SettingsError, match="超过上限"):
        assistant.add_thesaurus_entry("几天", huge, actor=ADMIN)
    assert masked == []  # refused before 8 MB is masked or parsed (no timing: a count of the work done)
    monkeypatch.undo()
    with pytest.raises(SettingsError, match=f"超过 {MAX_TERM_CHARS} 个字"):
        assistant.add_thesaurus_entry("几天", "假" * (MAX_TERM_CHARS + 1), actor=ADMIN)
    with pytest.raises(SettingsError, match=f"超过 {MAX_TERM_CHARS} 个字"):
        assistant.save_custom_thesaurus(f"几天\t{'假' * (MAX_TERM_CHARS + 1)}\n", actor=ADMIN)
    with pytest.raises(SettingsError, match="超过上限"):
        assistant.save_custom_thesaurus("".join(f"词{i}\t用语{i}\n" for i in range(20_000)), actor=ADMIN)
    assert "几天" not in assistant.thesaurus.custom and not (tmp_path / "store" / "thesaurus.tsv").exists()
    assert assistant.add_thesaurus_entry("几天", "天数 " + "假" * MAX_TERM_CHARS, actor=ADMIN)  # at the limit: kept


def test_entries_are_masked_before_they_are_stored_searched_or_shown(tmp_path):
    data_dir = tmp_path / "store"
    assistant = fake_assistant(data_dir)
    assert assistant.ingest_bytes("# 薪酬\n\n第一条 加班费按小时工资的 1.5 倍支付。\n".encode(), "pay.md").ok
    line = assistant.add_thesaurus_entry("加班费", [f"张三{PHONE}"], actor=ADMIN)
    assistant.save_custom_thesaurus(assistant.custom_thesaurus(actor=ADMIN) + f"病假\t身份证{ID_NUMBER}\n", actor=ADMIN)
    stored = (data_dir / "thesaurus.tsv").read_text(encoding="utf-8")
    groups = str(assistant.search("加班费怎么算？", actor=Principal("emp", "employee")).synonym_groups)
    for shown in (line, stored, groups, assistant.custom_thesaurus(actor=ADMIN), str(assistant.thesaurus.entries)):
        assert PHONE not in shown and ID_NUMBER not in shown
    assert "张三[手机号]" in stored and "张三[手机号]" in groups


def test_a_hand_edited_file_is_masked_when_read(tmp_path):
    data_dir = store_with(tmp_path, f"加班费\t张三{PHONE}\n".encode())
    assert PHONE not in str(fake_assistant(data_dir).thesaurus.entries)
    assert PHONE in str(read_custom(data_dir / "thesaurus.tsv").entries)  # only the assistant masks (on purpose)
