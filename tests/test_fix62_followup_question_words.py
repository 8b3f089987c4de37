"""A word holding a question word (哪几个, jieba's one 'l' token in 哪几个月有) asks; it names nothing. Taken for the
question's own topic, it made the follow-up's glued search look as if it had lost the question (`keeps_own_words`),
so 哪几个月有 after 防暑费一个月能拿多少 was searched alone and found nothing (stop 62, docs/retrieval.md)."""

from __future__ import annotations

from rag_core.conversations.followup import NO_TOPIC, TOPIC_TAGS, content_words, dependence, keeps_own_words


def test_a_question_word_is_no_topic_word():
    assert content_words("哪几个月有", TOPIC_TAGS) == []
    assert dependence("哪几个月有") == NO_TOPIC  # tentative: the facade compares both searches


def test_the_glued_search_keeps_a_question_that_names_nothing_of_its_own():
    found = ["第五条 高温津贴每年6月至9月发放，每人每月300元。"]
    assert keeps_own_words("哪几个月有", found)


def test_a_real_topic_word_still_counts():
    assert content_words("公司有育儿假吗", TOPIC_TAGS) == ["育儿假"]
    assert not keeps_own_words("公司有育儿假吗", ["第三条 年假每年5天。"])
