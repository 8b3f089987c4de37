"""Review 52p #1: a synonym added from the gap page masks numbers typed in groups (138 1234 5678).

The terms were split on spaces before masking, so each group alone matched no rule and the phone
and bank-card numbers reached thesaurus.tsv, the audit and chat's caption unmasked.
"""

from __future__ import annotations

from fakes import fake_assistant, fake_assistant_with_samples

from rag_core.types import Principal

E = Principal("e1", "employee")


def test_grouped_phone_and_card_numbers_are_masked_before_the_terms_are_split(tmp_path):
    a = fake_assistant_with_samples(tmp_path / "s")  # chat shows the words it used only when the store has policies
    a.add_thesaurus_entry("滴滴叫车", "出租车 138 1234 5678")
    a.add_thesaurus_entry("工资卡", "6222 0212 3456 7890 128")
    on_disk = (tmp_path / "s" / "thesaurus.tsv").read_text(encoding="utf-8")
    shown = " ".join(a.search("滴滴叫车费能报吗", actor=E).thesaurus)  # chat's 口语词按词表换成了制度用语
    for raw in ("1234", "5678", "6222", "0212", "7890"):
        assert raw not in on_disk and raw not in shown
    assert "滴滴叫车\t出租车 [手机号]" in on_disk
    assert "工资卡\t工资账户 银行卡 工资支付 [银行卡号]" in on_disk  # the shipped terms are kept
    assert "[手机号]" in shown  # chat does show the entry, masked


def test_a_list_of_terms_is_masked_as_one_text(tmp_path):
    a = fake_assistant(tmp_path / "s")
    line = a.add_thesaurus_entry("滴滴叫车", ["出租车", "138 1234", "5678"])
    on_disk = (tmp_path / "s" / "thesaurus.tsv").read_text(encoding="utf-8")
    assert "1234" not in on_disk and "5678" not in on_disk and "1234" not in line
    assert a.thesaurus.custom["滴滴叫车"] == ("出租车", "[手机号]")
