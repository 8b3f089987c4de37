"""The thesaurus: ≥ 300 general entries, HR's own file on top, bad lines refused by number."""

from __future__ import annotations

import pytest

from rag_core import SettingsError
from rag_core.text.thesaurus import Thesaurus, custom_text, parse_entries, shipped_entries, with_policy_wording
from rag_core.text.vocabulary import names


def test_the_shipped_table_is_large_and_keeps_benefits_apart():
    entries = shipped_entries()
    assert len(entries) >= 300
    assert "年假" not in " ".join(entries.get("婚假", ()))  # 婚假 is not 年假
    assert "产假" not in entries.get("陪产假", ())  # 陪产假 is not 产假
    assert not any("伙食补助" in t for t in entries.get("加班餐", ()))  # overtime meals are not travel meals


def test_expansion_finds_policy_wording_for_colloquial_words():
    expansion = Thesaurus(shipped_entries()).expand("我被开除了有补偿吗")
    assert "解除" in expansion.added or "解除劳动合同" in " ".join(expansion.phrases.get("开除", ()))
    assert ("开除", shipped_entries()["开除"]) in expansion.applied


def test_policy_wording_is_appended_once_and_only_when_the_thesaurus_applies():
    thesaurus = Thesaurus({"打车": ("出租车", "市内交通", "网约车", "的士"), "报销": ("报销",)})
    assert with_policy_wording("打车费能报销吗", thesaurus.expand("打车费能报销吗")) == "打车费能报销吗（出租车、市内交通、网约车）"
    assert with_policy_wording("年会在哪办", thesaurus.expand("年会在哪办")) == "年会在哪办"


def test_a_compound_entry_keeps_the_piece_it_writes_out():
    """加班打车 → 加班 出租车: 加班 stays 加班 (an 出差 taxi clause does not name it), 打车 is named by 出租车."""
    thesaurus = Thesaurus({"加班打车": ("加班", "出租车", "网约车"), "加班": ("延长工作时间",)})
    phrases = thesaurus.expand("加班打车能报吗").phrases
    assert phrases["加班"] == {"延长工作时间"}
    assert phrases["打车"] == {"出租车", "网约车"}
    both = Thesaurus({"病假工资": ("病假", "医疗期", "工资")}).expand("病假工资怎么算").phrases
    assert both["病假"] == both["工资"] == {"病假", "医疗期", "工资"}  # every piece written out: all phrases


def test_a_word_with_its_own_entry_is_not_named_by_a_shorter_head_inside_it():
    """离职证明 is a certificate: a clause on 解除劳动合同 (离职's wording) does not name it."""
    thesaurus = Thesaurus({"离职": ("离职", "解除劳动合同"), "离职证明": ("解除劳动合同证明", "离职证明")})
    phrases = thesaurus.expand("离职证明公司必须开吗", ["离职", "证明", "离职证明", "公司"]).phrases
    assert phrases["离职证明"] == {"解除劳动合同证明", "离职证明"}
    assert {"离职", "解除劳动合同"} <= phrases["离职"]
    # a longer word without an entry of its own still borrows the head's wording (打车费 from 打车)
    taxi = Thesaurus({"打车": ("出租车",)}).expand("打车费能报吗", ["打车", "打车费"]).phrases
    assert taxi["打车费"] == {"出租车"}
    # a piece with an entry of its own still gets the wording of the longer word it sits in (found by review)
    heat = Thesaurus({"补贴": ("津贴",), "高温补贴": ("防暑降温费", "高温津贴")}).expand("高温补贴怎么发", ["高温", "补贴", "高温补贴"])
    assert {"防暑降温费", "津贴"} <= heat.phrases["补贴"]


def test_the_shipped_certificate_entry_names_the_statute_wording():
    phrases = Thesaurus(shipped_entries()).expand("离职证明公司必须开吗").phrases
    assert names("离职证明", "用人单位应当在解除或者终止劳动合同时出具解除或者终止劳动合同的证明", phrases)
    assert not names("离职证明", "用人单位违法解除劳动合同的，应当支付赔偿金", phrases)


def test_custom_entries_override_and_add(tmp_path):
    path = tmp_path / "thesaurus.tsv"
    path.write_text("班车\t通勤车 交通车\n打车\t的士\n", encoding="utf-8")
    thesaurus = Thesaurus.load(path)
    assert thesaurus.entries["打车"] == ("的士",)
    assert "通勤车" in thesaurus.expand("公司有班车吗").phrases["班车"]


@pytest.mark.parametrize("text", ["打车\n", "\t出租车\n", "一二三四五六七八九十一二三\t词\n"])
def test_bad_lines_are_refused_with_their_number(text):
    with pytest.raises(SettingsError, match="第 1 行"):
        parse_entries(text)


def test_custom_text_round_trips():
    entries = {"班车": ("通勤车",), "饭补": ("餐费补贴", "午餐补贴")}
    assert parse_entries(custom_text(entries)) == entries


def test_hr_entries_are_saved_validated_and_used_at_once(tmp_path):
    from fakes import fake_assistant

    assistant = fake_assistant(tmp_path / "store")
    assert assistant.ingest_bytes("第一条 通勤车每天早上八点发车。\n".encode(), "通勤.md").ok
    assert not any(line.startswith("接驳车") for line in assistant.search("有没有接驳车？").thesaurus)
    assert assistant.save_custom_thesaurus("接驳车\t通勤车\n") == 1
    assert "接驳车 → 通勤车" in assistant.search("有没有接驳车？").thesaurus
    before = (tmp_path / "store" / "thesaurus.tsv").read_text(encoding="utf-8")
    with pytest.raises(SettingsError, match="第 1 行"):
        assistant.save_custom_thesaurus("只有口语词\n")
    assert (tmp_path / "store" / "thesaurus.tsv").read_text(encoding="utf-8") == before  # nothing lost
    assert "接驳车\t通勤车" in assistant.custom_thesaurus()


def test_a_second_thesaurus_reuses_the_tokens_of_entries_already_tokenised(monkeypatch):
    """A start builds the shipped table twice (warm-up and search) and HR's edits rebuild it: one tokenising
    per entry, with the same expansions."""
    from rag_core.text import thesaurus as module

    first = Thesaurus(shipped_entries(), {"押金条": ("押金", "收据")})
    calls: list[str] = []
    original = module.tokenize
    monkeypatch.setattr(module, "tokenize", lambda text: calls.append(text) or original(text))
    second = Thesaurus(shipped_entries(), {"押金条": ("押金", "收据")})
    assert calls == []
    assert second._expanded == first._expanded
    for question in ("打车费能报吗", "押金条丢了怎么办", "我被开除了有补偿吗"):
        assert second.expand(question) == first.expand(question)
