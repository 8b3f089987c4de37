"""HR's thesaurus text is read as a question is: invisible characters, Unicode line breaks, a full-width space,
a lone surrogate and a thesaurus.tsv that is a folder (review 59, rev-cli D1-D5)."""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core import Principal
from rag_core.errors import SettingsError
from rag_core.facade.thesaurus import thesaurus_check

ADMIN = Principal("local", "admin")


def outcomes(a) -> list[str]:
    return [e.outcome for e in a.audit_log.entries(action="thesaurus.change")]


# D1: a question loses its invisible characters before it is searched (`inputs.checked`); a colloquial word that
# kept one was saved and counted but never found
@pytest.mark.parametrize("line", ["\ufeff饭卡\t餐费补贴", "饭卡\u200b\t餐费补贴", "饭\u2060卡\t餐费补贴", "饭卡\t餐\u200d费补贴"])
def test_an_invisible_character_is_dropped_from_a_saved_line(tmp_path, line):
    data = tmp_path / "store"
    a = fake_assistant(data)
    assert a.save_custom_thesaurus(line, actor=ADMIN) == 1
    assert a.thesaurus.custom == {"饭卡": ("餐费补贴",)}
    assert "餐费补贴" in a.retriever.thesaurus.expand("饭卡能报吗").added
    assert "饭卡\t餐费补贴\n" in (data / "thesaurus.tsv").read_text(encoding="utf-8")
    assert "看不见的字符" in a.thesaurus_notice  # the save says what it dropped
    assert fake_assistant(data).thesaurus.custom == {"饭卡": ("餐费补贴",)}


def test_a_file_read_at_a_start_drops_invisible_characters_and_is_kept_aside_at_a_save(tmp_path):
    data = tmp_path / "store"
    fake_assistant(data)
    raw = "饭\u200b卡\t餐费补贴\n".encode()
    (data / "thesaurus.tsv").write_bytes(raw)
    a = fake_assistant(data)
    assert a.thesaurus.custom == {"饭卡": ("餐费补贴",)} and not a.thesaurus_notice
    assert "餐费补贴" in a.retriever.thesaurus.expand("饭卡能报吗").added
    a.add_thesaurus_entry("打车", "出租车", actor=ADMIN)
    copies = list(data.glob("thesaurus.original-*.tsv"))
    assert len(copies) == 1 and copies[0].read_bytes() == raw  # the bytes HR wrote are not lost


def test_the_gap_page_drops_an_invisible_character(tmp_path):
    a = fake_assistant(tmp_path / "store")
    said = a.add_thesaurus_entry("打\u200b车", "出\u200b租车 网约车", actor=ADMIN)
    terms = a.thesaurus.custom["打车"]
    assert "出租车" in terms and "网约车" in terms and not any("\u200b" in t for t in terms)
    assert len(terms) == len(set(terms))  # no look-alike second 出租车
    assert "\u200b" not in said and "看不见的字符" in said


# D2: U+2028/U+2029 end a line (they are no control character a line is refused for); two entries stay two
@pytest.mark.parametrize("sep", ["\u2028", "\u2029"])
def test_a_unicode_line_separator_ends_a_line(tmp_path, sep):
    data = tmp_path / "store"
    a = fake_assistant(data)
    assert a.save_custom_thesaurus(f"打车\t出租车{sep}开除\t解除劳动合同", actor=ADMIN) == 2
    assert a.thesaurus.custom == {"打车": ("出租车",), "开除": ("解除劳动合同",)}
    (data / "thesaurus.tsv").write_text(f"打车\t网约车{sep}年假\t带薪年休假\n", encoding="utf-8")
    assert fake_assistant(data).thesaurus.custom == {"打车": ("网约车",), "年假": ("带薪年休假",)}


# D3: a full-width (IME) space after the colloquial word separates it, as it does between the terms
def test_a_full_width_space_separates_the_word(tmp_path):
    a = fake_assistant(tmp_path / "store")
    assert a.save_custom_thesaurus("打车\u3000出租车\u3000网约车\n开除\u00a0解除劳动合同", actor=ADMIN) == 2
    assert a.thesaurus.custom == {"打车": ("出租车", "网约车"), "开除": ("解除劳动合同",)}


# D4: a lone surrogate (text that was not UTF-8) is refused in Chinese, and both pages audit the failure
@pytest.mark.parametrize("how", ["editor", "gap page"])
def test_a_lone_surrogate_is_refused_in_chinese(tmp_path, how):
    data = tmp_path / "store"
    a = fake_assistant(data)
    with pytest.raises(SettingsError, match="无法识别的字符") as refused:
        if how == "editor":
            a.save_custom_thesaurus("开除\t解除劳动合同\n打车\t出租车\ud800", actor=ADMIN)
        else:
            a.add_thesaurus_entry("打车", "出租车\ud800", actor=ADMIN)
    if how == "editor":
        assert "第 2 行" in str(refused.value)
    assert "codec" not in str(refused.value)
    assert outcomes(a) == ["failed"]
    assert not a.thesaurus.custom and not (data / "thesaurus.tsv").exists()


# D5: a thesaurus.tsv that is a folder is said at a start and by doctor, and a save says why it cannot write
def test_a_thesaurus_file_that_is_a_folder(tmp_path):
    data = tmp_path / "store"
    fake_assistant(data)
    (data / "thesaurus.tsv").mkdir()
    a = fake_assistant(data)
    assert "文件夹" in a.thesaurus_notice and a.thesaurus_notice in a.store_notices
    check = thesaurus_check(data)
    assert check is not None and check.status != "ok" and "文件夹" in check.detail
    for save in (lambda: a.add_thesaurus_entry("饭卡", "餐费补贴", actor=ADMIN),
                 lambda: a.save_custom_thesaurus("饭卡\t餐费补贴", actor=ADMIN)):
        with pytest.raises(SettingsError, match="没有保存") as refused:
            save()
        assert "文件夹" in str(refused.value) and "directory" not in str(refused.value)
    assert outcomes(a) == ["failed", "failed"]
    assert (data / "thesaurus.tsv").is_dir() and not list(data.glob("thesaurus.original-*"))
    assert not list(data.glob(".thesaurus.tsv.tmp"))
