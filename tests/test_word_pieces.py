"""A word jieba's HMM guessed (能补, 要交票) and no policy uses is read as its dictionary pieces
when search looks for subjects the policies never name.

Without it 车费能补 reads like an allowance nobody offers (能补 ends in 补), and a plain
question is refused for it. The unit tests pin the rule; the integration test is the search
on the samples with the real model.
"""

from __future__ import annotations

import pytest

from rag_core.text.tokenizer import tokenize
from rag_core.text.word_pieces import dictionary_pieces, in_dictionary, unguessed


def never_used(_word: str) -> bool:
    return False


def test_a_guess_is_not_a_dictionary_word() -> None:
    assert "能补" in tokenize("出差吃饭能补多少"), "jieba no longer guesses 能补: pick another example"
    assert not in_dictionary("能补")
    assert in_dictionary("饭钱") and in_dictionary("打车")


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


@pytest.mark.integration
def test_a_guessed_word_is_not_a_foreign_allowance(shared_assistant) -> None:
    """On the samples: 加班车费能补吗 is not refused as a question about an allowance called 车费能补."""
    fare = shared_assistant.search("加班车费能补吗")
    assert not any("能补" in subject for subject in fare.foreign_subjects), fare.foreign_subjects
