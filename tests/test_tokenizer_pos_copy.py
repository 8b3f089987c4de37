"""Our part-of-speech tagger copies jieba's tags instead of reading the dictionary file again (0.2 s a process):
it must hold every tag a tagger reading the file holds, but for our own words, which keep their tags."""

from importlib import resources

import jieba.posseg

from rag_core.text import tokenizer


def _our_words() -> set[str]:
    text = resources.files("rag_core.text.resources").joinpath("hr_userdict.txt").read_text(encoding="utf-8")
    return {line.split()[0] for line in text.splitlines() if line.strip() and not line.startswith("#")}


def test_the_copied_tags_are_the_tags_read_from_the_dictionary():
    tokenizer.tagged("年假")  # our dictionary's tags go in on first use
    ours = tokenizer._pos_tokenizer().word_tag_tab
    read = jieba.posseg.POSTokenizer(jieba.Tokenizer()).word_tag_tab  # the file, read again
    assert read.keys() <= ours.keys()
    assert {w for w, tag in read.items() if ours[w] != tag} <= _our_words()
    assert (ours.keys() - read.keys()) <= _our_words()
    assert ours is not jieba.posseg.dt.word_tag_tab


def test_our_words_keep_their_tags():
    assert ("年假", "n") in tokenizer.tagged("年假有几天")
