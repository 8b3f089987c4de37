"""The answerability decision: fitted logistic models, features, and the shipped model's shape."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from rag_core.evaluation.fitting import fit_logistic, predict, sigmoid
from rag_core.search.answerability import (
    Signals,
    chunk_features,
    judge_all,
    missing_share,
    missing_terms,
    share_of_unknown,
    shipped_model,
    unknown_terms,
)


def test_fit_logistic_reaches_the_penalised_optimum():
    rng = np.random.default_rng(7)
    x = rng.normal(size=(400, 3))
    y = (x @ np.array([1.5, -2.0, 0.0]) + rng.normal(scale=0.5, size=400) > 0).astype(float)
    weights, bias, mean, scale = fit_logistic(x, y, l2=1.0)
    xs = (x - mean) / scale
    p = sigmoid(xs @ weights + bias)
    gradient = xs.T @ (p - y) + 1.0 * weights  # the penalised gradient vanishes at the optimum
    assert np.max(np.abs(gradient)) < 1e-6 and abs(np.sum(p - y)) < 1e-6
    assert weights[0] > 0 > weights[1] and abs(weights[2]) < 0.3
    assert np.allclose(predict(x, weights, bias, mean, scale), p)


def test_features_are_relative_to_the_background_and_the_pool():
    strong = Signals(bm25=8.0, bm25_rank=1, coverage=1.0, cosine=0.90, cosine_rank=1, sentence_cosine=0.92,
                     sentence_rank=1, background=0.80, spread=0.02)
    weak = Signals(bm25=1.0, bm25_rank=2, coverage=0.2, cosine=0.82, cosine_rank=2, sentence_cosine=0.83,
                   sentence_rank=2, background=0.80, spread=0.02)
    first, second = chunk_features([strong, weak])
    assert first["z"] == pytest.approx(5.0) and first["z_gap"] == 0.0 and second["z_gap"] == pytest.approx(4.0)
    assert first["bm25_share"] == 1.0 and second["bm25_share"] == pytest.approx(0.125)
    assert first["inv_bm25_rank"] == 1.0 and second["inv_cosine_rank"] == 0.5


def test_the_shipped_model_prefers_strong_evidence():
    model = shipped_model()
    strong = Signals(bm25=8.0, bm25_rank=1, coverage=1.0, cosine=0.90, cosine_rank=1, sentence_cosine=0.92,
                     sentence_rank=1, background=0.80, spread=0.02, idf_mass=6.0)
    weak = Signals(bm25=0.5, bm25_rank=9, coverage=0.1, cosine=0.81, cosine_rank=9, sentence_cosine=0.81,
                   sentence_rank=9, background=0.80, spread=0.02, missing_known=0.8, missing_benefit=True, idf_mass=6.0)
    first, second = judge_all([strong, weak], model)
    assert first.probability > 0.5 > second.probability
    assert first.question_probability == second.question_probability  # one decision per question
    lenient = replace(model, question_threshold=0.0, chunk_threshold=0.5)
    verdicts = [j.verdict for j in judge_all([strong, weak], lenient)]
    assert verdicts[0] and not verdicts[1]
    assert len(model.fitted_on) >= 6


def test_a_small_store_answers_a_plainly_matching_question():
    model = replace(shipped_model(), question_threshold=0.999, small_question_threshold=0.999, small_store=40)
    plain = Signals(bm25=1.2, bm25_rank=1, coverage=1.0, cosine=0.86, cosine_rank=1, sentence_cosine=0.86,
                    sentence_rank=1, background=0.84, spread=0.02, idf_mass=3.0)
    assert judge_all([plain], model, store_chunks=7)[0].verdict  # every word found, first by both
    assert not judge_all([plain], model, store_chunks=700)[0].verdict  # a large store needs the model's word
    off_subject = replace(plain, missing_benefit=True)
    assert not judge_all([off_subject], model, store_chunks=7)[0].verdict


def test_missing_terms_count_thesaurus_phrases_as_present():
    known, scope = missing_terms(["打车", "加班"], "市内交通：出租车凭发票报销", {"打车": {"出租车"}}, {"加班": 3})
    assert known == ["加班"] and scope == ["加班"]
    assert missing_share(["加班"], ["打车", "加班"], {"打车": 1.0, "加班": 3.0}) == pytest.approx(0.75)


def test_a_piece_of_a_named_word_is_not_missing():
    """jieba cuts 打车费 into 打车, 车费 and 打车费; a clause on 出租车 names 打车费, so 车费 is not a missing benefit."""
    phrases = {"打车": {"出租车"}, "打车费": {"出租车"}}
    known, scope = missing_terms(["打车", "车费", "打车费"], "市内交通：出租车凭发票报销", phrases, {"车费": 2})
    assert known == [] and scope == []
    # a piece beside the named one stays missing: a clause on 高温津贴 names 补贴 (and so 住房补贴), not 住房
    phrases = {"补贴": {"津贴"}, "住房补贴": {"津贴"}}
    known, scope = missing_terms(["住房", "补贴", "住房补贴"], "高温津贴每月300元", phrases, {"住房": 2})
    assert known == ["住房"]
    # a word of its own stays missing: 加班 is not a piece of anything the clause names
    known, scope = missing_terms(["加班", "餐费"], "出差期间的餐费补贴每天100元", {}, {"加班": 3, "餐费": 2})
    assert known == ["加班"] and scope == ["加班"]


def unknown_share(terms, doc_freq, expansion_tokens, idf) -> float:
    """What search stores as `unknown_share`: the words found once, then their share."""
    return share_of_unknown(unknown_terms(terms, doc_freq, expansion_tokens), terms, idf)


def test_unknown_share_counts_words_the_policies_never_use():
    share = unknown_share(["班车", "路线"], {"班车": 0, "路线": 2}, {}, {"班车": 3.0, "路线": 1.0})
    assert share == pytest.approx(0.75)
    assert unknown_share(["打车"], {"打车": 0, "出租车": 4}, {"打车": ["出租车"]}, {"打车": 2.0}) == 0.0


def test_a_cut_piece_that_ends_like_a_benefit_is_not_a_missing_benefit():
    """能补 (那我每个月话费能补多少) and 要交票 end in 补 / 票 but name nothing: no dictionary lists them and no
    policy uses them, so they are missing from every clause alike and must not veto the one that answers."""
    clause = "第四条 通讯补贴随当月工资以现金形式发放，员工无需提供通讯费发票。"
    _known, scope = missing_terms(["话费", "能补", "要交票"], clause, {"话费": {"通讯费"}}, {"话费": 0})
    assert scope == []
    _known, scope = missing_terms(["加班", "餐费"], "出差期间每天100元", {}, {"加班": 3})
    assert scope == ["加班", "餐费"]  # real words stay scope words, used by a policy or not


def test_a_chunk_holding_every_question_word_is_sure_evidence_from_a_lower_probability():
    """依据充分 needs the chunk's probability at one half, or at `SURE_COVERED` when the chunk holds every word of
    the question and misses no benefit word: a near-keyword trap misses a word, a right clause often has them
    all (stop 44)."""
    import math

    from rag_core.search.answerability import SURE_COVERED, Logistic, Model

    def fixed(p: float) -> Logistic:
        return Logistic((), (), (), (), math.log(p / (1 - p)))

    def verdict(chunk_p: float, signals: Signals) -> str:
        model = Model(fixed(chunk_p), fixed(0.95), question_threshold=0.35, chunk_threshold=0.02, strong=0.8)
        return judge_all([signals], model)[0].verdict

    every_word = Signals(bm25=3.0, bm25_rank=1, coverage=1.0, cosine=0.86, cosine_rank=1, sentence_cosine=0.86,
                         sentence_rank=1, background=0.84, spread=0.02, idf_mass=3.0, names_every_word=True)
    # full coverage is not enough: a compound thesaurus entry (加班打车) lets 加班 stand for 打车 there (review)
    one_missing = replace(every_word, names_every_word=False)
    assert verdict(0.3, every_word) == "依据充分"
    assert verdict(0.3, one_missing) == "依据较弱"
    assert verdict(0.3, replace(every_word, missing_benefit=True)) == "依据较弱"
    assert verdict(SURE_COVERED / 2, every_word) == "依据较弱"
    assert verdict(0.6, one_missing) == "依据充分"


def test_every_word_is_named_only_when_each_one_is():
    from rag_core.search.answerability import holds_every_word

    assert holds_every_word(["加班", "打车"], ["加班", "打车"])
    assert not holds_every_word(["加班", "打车"], ["加班"])  # an overtime clause that says nothing of taxis
    assert holds_every_word(["打车费", "打车", "车费"], ["打车费", "打车"])  # 车费 is a piece of the named 打车费
    assert not holds_every_word(["的"], [])  # no word of two characters: nothing to hold
