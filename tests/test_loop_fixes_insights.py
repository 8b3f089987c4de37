"""HR loop fixes (review s49): what a rating keeps, retention at 0, standard answer bounds, eval hit counts.

Each test failed before its fix (checked by running it on the unfixed code).
"""

from __future__ import annotations

import pytest
from fakes import BigramEmbedder, fake_assistant, fake_assistant_with_samples
from test_audience_leaks import ADMIN, HR, MANAGER, QUESTION, SECRET, _with_repeating_llm

from rag_core.errors import RagError
from rag_core.types import Principal

EMPLOYEE = Principal("emp_wang", "employee")
ABSENT = "公司有没有提供班车？"


def test_a_dislike_of_a_reworded_follow_up_keeps_the_typed_question_from_hr(tmp_path):
    """The rewrite folded in an earlier managers-only answer: HR's 知识缺口 (and its export) must not show it."""
    a = _with_repeating_llm(tmp_path)
    second = a.ask("那副经理呢？", user="mgr_zhou", actor=MANAGER, conversation="m1")
    assert SECRET in second.search_question
    a.record_feedback(second, -1, actor=MANAGER, reason="答非所问")
    stored = a.insight_log.feedback(include_tests=True)
    assert [e.question for e in stored] == ["那副经理呢？"]
    assert all(SECRET not in g.representative + "".join(g.questions) for g in a.knowledge_gaps(actor=HR))
    assert SECRET.encode() not in a.export_insights("gaps", "csv", actor=HR)
    assert SECRET.encode() not in a.export_insights("gaps", "xlsx", actor=HR)


def test_a_dislike_of_a_managers_answer_is_not_a_gap_hr_sees(tmp_path):
    """A 👎 row is on the gap page as the rated question: HR sees it only when they may read what the answer
    showed, as in 反馈审阅."""
    a = _with_repeating_llm(tmp_path)
    rated = a.ask(QUESTION, user="mgr_zhou", actor=MANAGER, remember=False)
    assert SECRET in rated.answer
    a.record_feedback(rated, -1, actor=MANAGER, reason="答非所问")
    assert [g.kinds for g in a.knowledge_gaps(actor=ADMIN)] == [{"disliked": 1}]
    assert a.knowledge_gaps(actor=HR) == []


def test_retention_zero_keeps_no_question_or_comment_and_purges_what_was_kept(tmp_path):
    """0 表示不记录: switching to 0 leaves no question text anywhere in the insight log, and a new rating keeps none."""
    kept = fake_assistant_with_samples(tmp_path / "s", answer_threshold=0.99)
    old = kept.ask(ABSENT, actor=EMPLOYEE, remember=False, user="")
    kept.record_feedback(old, -1, actor=EMPLOYEE, reason="答非所问", comment="班车的事没人回答")
    assert kept.insight_log.question_rows() and kept.knowledge_gaps(actor=HR)
    none = fake_assistant(tmp_path / "s", answer_threshold=0.99, question_retention_days=0)
    new = none.ask("食堂几点开门？", actor=EMPLOYEE, remember=False, user="")
    none.record_feedback(new, -1, actor=EMPLOYEE, reason="其他", comment="食堂的事")
    assert none.knowledge_gaps(actor=HR) == []
    assert none.insight_log.question_rows(include_tests=True) == []
    reviews = none.feedback_reviews(actor=HR)
    assert len(reviews) == 2 and {(e.question, e.comment) for e in reviews} == {("", "")}
    stored = str([none.feedback_detail(e.id, actor=ADMIN).trace for e in reviews])
    assert ABSENT not in stored and "食堂几点开门" not in stored


def test_retention_zero_keeps_none_of_the_questions_words_in_a_rating(tmp_path):
    """Blanking the question left its words in the trace HR reads on 反馈审阅: why a clause matched (关键词：怀孕),
    the words it lacks, the thesaurus lines, the unknown words (found by the review of this stop's fixes)."""
    import json

    words = ("怀孕", "打车")
    kept = fake_assistant_with_samples(tmp_path / "s")
    old = kept.ask("我怀孕了，打车费能报吗", actor=EMPLOYEE, remember=False, user="")
    kept.record_feedback(old, -1, actor=EMPLOYEE, reason="答非所问")
    assert any(w in json.dumps(kept.feedback_detail(e.id, actor=ADMIN).trace, ensure_ascii=False)
               for e in kept.feedback_reviews(actor=HR) for w in words)  # kept while questions are kept
    none = fake_assistant(tmp_path / "s", question_retention_days=0)
    new = none.ask("怀孕了打车上班能报销吗", actor=EMPLOYEE, remember=False, user="")
    none.record_feedback(new, -1, actor=EMPLOYEE, reason="答非所问")
    traces = [none.feedback_detail(e.id, actor=ADMIN).trace for e in none.feedback_reviews(actor=HR)]
    assert len(traces) == 2 and all(t.get("answer") is not None for t in traces)

    def written_by_the_asker(value):  # policy text (clauses, the quoting answer) may hold the words too
        if isinstance(value, dict):
            return {k: written_by_the_asker(v) for k, v in value.items() if k not in ("text", "answer", "sources")}
        return [written_by_the_asker(v) for v in value] if isinstance(value, list) else value

    stored = json.dumps(written_by_the_asker(traces), ensure_ascii=False)
    assert not [w for w in words if w in stored], stored[:300]


@pytest.mark.parametrize(("fields", "error"), [
    ({"answer": "\u200b\u2060"}, "标准答复不能为空"),
    ({"question": "\u200b \u2060"}, "问题不能为空"),
    ({"answer": "答" * 4001}, "标准答复太长"),
    ({"clauses": ["条" * 300_000]}, "依据的条款太长"),
    ({"variants": ["\ud800问法"]}, "其他问法里有无法识别的字符"),
    ({"variants": [f"班车第{i}问？" for i in range(3001)]}, "其他问法最多 20 条"),
    ({"clauses": [f"第{i}条" for i in range(21)]}, "依据的条款最多 20 条"),
])
def test_a_standard_answer_is_checked_and_bounded_like_other_typed_text(tmp_path, fields, error):
    embedder = BigramEmbedder()
    a = fake_assistant(tmp_path / "s", embedder=embedder)
    typed = {"question": "公司有班车吗？", "answer": "有，早八点发车。", **fields}
    with pytest.raises(RagError, match=error):
        a.add_standard_answer(typed.pop("question"), typed.pop("answer"), actor=HR, **typed)
    assert a.standard_answers(actor=HR) == []
    assert embedder.queries == []  # refused before anything was embedded


def test_blank_lines_among_clauses_and_variants_are_left_out(tmp_path):
    """The page splits its text areas by line: an empty or invisible line is no clause, not an error."""
    a = fake_assistant(tmp_path / "s")
    entry = a.add_standard_answer("公司有班车吗？", "有。", clauses=["", "行政管理办法 第三条", "\u200b"],
                                  variants=["  ", "有没有班车？"], actor=HR)
    assert entry.clauses == ["行政管理办法 第三条"] and entry.variants == ["有没有班车？"]


def test_eval_and_test_questions_do_not_add_to_a_standard_answers_hits(tmp_path):
    a = fake_assistant(tmp_path / "s")
    a.add_standard_answer("公司有班车吗？", "有，早八点发车。", actor=HR)
    for traffic in ("eval", "test"):
        assert a.ask("公司有班车吗？", user="", remember=False, actor=HR, traffic=traffic).answerer == "标准答复"
    assert [e.hits for e in a.standard_answers(actor=HR)] == [0]
    a.ask("公司有班车吗？", user="", remember=False, actor=HR)
    assert [e.hits for e in a.standard_answers(actor=HR)] == [1]
