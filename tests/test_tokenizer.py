"""The jieba tokenizer with the HR user dictionary, and query expansion by synonyms."""

from __future__ import annotations

from rag_core.text.tokenizer import expand_query, tokenize


def test_user_dictionary_keeps_hr_words_whole():
    for word in ["年假", "调休", "五险一金", "网约车", "行程单", "实报实销"]:
        assert word in tokenize(f"关于{word}的规定"), word
    assert "oa" in tokenize("在 OA 系统提交") and "600" in tokenize("上限 600 元")
    assert "的" not in tokenize("公司的制度")


def test_synonyms_expand_colloquial_words():
    tokens, added, groups = expand_query("打车费能报吗")
    assert "出租车" in added and "网约车" in added
    assert any("出租车" in g for g in groups.values())
