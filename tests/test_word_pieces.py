"""A word jieba's HMM guessed by gluing a function word to content (能补, 要交票) is read as its
dictionary pieces by the offline answer's guard; a guess of content characters (管饭) is not.

Pure logic: the tokenizer and the extractive answerer on a clause written here.
"""

from __future__ import annotations

import pytest

from rag_core.text.tokenizer import is_word, tokenize
from rag_core.text.word_pieces import dictionary_pieces, unguessed


def never_used(_word: str) -> bool:
    return False


def test_a_guess_is_not_a_dictionary_word() -> None:
    assert "能补" in tokenize("出差吃饭能补多少"), "jieba no longer guesses 能补: pick another example"
    assert not is_word("能补")
    assert is_word("饭钱") and is_word("打车")


@pytest.mark.parametrize(("guess", "pieces"), [("能补", ["补"]), ("要交票", ["票"]), ("能发", [])])
def test_a_guess_reads_as_its_pieces(guess: str, pieces: list[str]) -> None:
    assert dictionary_pieces(guess) == pieces


def test_dictionary_words_and_words_a_policy_uses_stay_whole() -> None:
    tokens = ["加班", "饭钱", "能补"]
    assert unguessed(tokens, never_used) == ["加班", "饭钱", "补"]
    assert unguessed(tokens, lambda word: word == "能补") == tokens  # a policy that writes 能补 keeps it
    assert unguessed(["oa", "2024"], never_used) == ["oa", "2024"]  # Latin words and numbers are not guesses


def test_a_piece_already_asked_is_not_repeated() -> None:
    assert unguessed(["补", "能补"], never_used) == ["补"]


def test_the_answer_step_does_not_ask_for_a_guessed_word() -> None:
    """The offline answerer's guard read 能补 as a word the clause must name and refused with
    没有写明「能补」的规定; the clause that states the limit answers."""
    from rag_core.answer.extractive import ExtractiveAnswerer
    from rag_core.answer.subject import question_terms
    from rag_core.types import SourceRef

    assert "能补" not in question_terms("忘记打卡了一个月能补几次")
    clause = SourceRef(1, "员工因故忘记打卡的，应在3个工作日内在OA系统提交补卡申请，每人每月补卡次数不得超过3次。",
                       "考勤管理制度.md", "第四条 打卡规定", "c1")
    answer = ExtractiveAnswerer().answer("忘记打卡了一个月能补几次", [clause])
    assert "不得超过3次" in answer and "没有写明" not in answer, answer


def test_a_guess_of_content_characters_stays_a_word_the_clause_must_name() -> None:
    """管饭 and 竞业费 are guesses too, and they are what was asked: only a guess that glues a function word
    (能补 = 能 + 补) is read as pieces by the answer step."""
    from rag_core.answer.subject import question_terms
    from rag_core.text.word_pieces import glues_a_function_word

    assert glues_a_function_word("能补") and glues_a_function_word("要交票")
    assert not glues_a_function_word("管饭") and not glues_a_function_word("竞业费")
    assert "管饭" in question_terms("晚上加班公司管饭吗")
