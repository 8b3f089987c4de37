"""Review 52p #2: editing HR's thesaurus keeps HR's comment lines and never drops a repeated word unseen.

A file with '#' comments or a word on two lines was called clean, so the first save rewrote it from the
table (comments and the first of the two lines gone) with no thesaurus.original-* copy.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core import Assistant, Principal, SettingsError

ADMIN = Principal("local", "admin")
HAND_EDITED = "# 来自员工访谈，勿删\n打车\t出租车\n伙食钱\t餐费补贴\n打车\t网约车\n"


def store_with(tmp_path: Path, text: str) -> Path:
    data_dir = tmp_path / "store"
    fake_assistant(data_dir).catalog.close()
    (data_dir / "thesaurus.tsv").write_text(text, encoding="utf-8")
    return data_dir


def test_a_repeated_word_is_named_at_start_and_the_first_save_keeps_the_file_and_its_comment(tmp_path):
    data_dir = store_with(tmp_path, HAND_EDITED)
    a = fake_assistant(data_dir)
    assert "第 4 行" in a.thesaurus_notice and "第 2 行" in a.thesaurus_notice and "重复" in a.thesaurus_notice
    assert a.thesaurus.custom["打车"] == ("出租车",)  # the first line is used, the repeat is the line left out
    line = a.add_thesaurus_entry("加班餐", "加班餐补", actor=ADMIN)
    copies = list(data_dir.glob("thesaurus.original-*.tsv"))
    assert len(copies) == 1 and copies[0].read_text(encoding="utf-8") == HAND_EDITED  # byte for byte
    assert copies[0].name in line and copies[0].name in a.thesaurus_notice
    after = (data_dir / "thesaurus.tsv").read_text(encoding="utf-8")
    assert "# 来自员工访谈，勿删" in after and "打车\t出租车" in after and "加班餐补" in after


def test_comments_survive_the_editor_and_later_saves_without_more_copies(tmp_path):
    data_dir = store_with(tmp_path, "伙食钱\t餐费补贴\n# 来自员工访谈，勿删\n班车\t通勤车\n")  # HR's order
    a = fake_assistant(data_dir)
    assert not a.thesaurus_notice  # nothing is left out
    shown = a.custom_thesaurus(actor=ADMIN)
    assert "# 来自员工访谈，勿删" in shown
    assert a.save_custom_thesaurus(shown + "接驳车\t通勤车\n", actor=ADMIN) == 3
    assert len(list(data_dir.glob("thesaurus.original-*.tsv"))) == 1  # not what a save writes: kept first
    a.add_thesaurus_entry("加班餐", "加班餐补", actor=ADMIN)
    assert a.save_custom_thesaurus(a.custom_thesaurus(actor=ADMIN), actor=ADMIN) == 4
    assert len(list(data_dir.glob("thesaurus.original-*.tsv"))) == 1  # a saved file is replaced, no more copies
    after = (data_dir / "thesaurus.tsv").read_text(encoding="utf-8")
    assert after.count("# 来自员工访谈，勿删") == 1 and after.count("# 自定义词表") == 1
    assert fake_assistant(data_dir).custom_thesaurus(actor=ADMIN) == a.custom_thesaurus(actor=ADMIN)


def test_the_editor_refuses_a_repeated_word_naming_both_lines(tmp_path):
    data_dir = store_with(tmp_path, "班车\t通勤车\n")
    a = fake_assistant(data_dir)
    before = (data_dir / "thesaurus.tsv").read_bytes()
    with pytest.raises(SettingsError, match="第 3 行.*第 1 行"):
        a.save_custom_thesaurus("打车\t出租车\n伙食钱\t餐费补贴\n打车\t网约车\n", actor=ADMIN)
    assert (data_dir / "thesaurus.tsv").read_bytes() == before


def test_doctor_says_a_hand_edited_file_is_kept_before_a_save(tmp_path):
    data_dir = store_with(tmp_path, "# 勿删\n班车\t通勤车\n")
    check = next(c for c in Assistant.doctor_data_dir(data_dir) if c.file == "thesaurus.tsv")
    assert check.ok and "另存" in check.line() and "UTF-8" not in check.line()
