"""Sentence splitting shared by search (sentence vectors) and the offline answerer (quotes).

A sentence ends at 。！？；or a line break; closing quotes and brackets right
after the end stay with it, so a quote is always a whole sentence.
"""

from __future__ import annotations

import re

END_CHARS = "。！？；"
CLOSERS = "”’」』）)】》\"'"
SENTENCE_RE = re.compile(rf"[^{END_CHARS}\n]*(?:[{END_CHARS}]+[{re.escape(CLOSERS)}]*|\n|$)")
WORD_CHAR_RE = re.compile(r"[0-9A-Za-z\u3400-\u9fff]")


def split_sentences(text: str) -> list[str]:
    """Split on 。！？；and line breaks, keeping the end punctuation; drop pieces without a word character."""
    out = []
    for match in SENTENCE_RE.finditer(text):
        piece = match.group(0).strip()
        if piece and WORD_CHAR_RE.search(piece):
            out.append(piece)
    return out
