"""Which lines of a source are headings, not sentences: the offline answer never quotes them as a rule.

A numbered heading (第十一条 出差期间餐费补贴) or one the section path names is plain. A document's title
is not numbered and the section path leaves it out: a PDF's first chunk starts with 哺乳期工作安排规定 on a
line of its own, which the answer quoted as a sentence, in place of the rule 第一条 … 每天可享受一小时哺乳时间。
(review 53 #2). A line is a title when it is the file's name, or when it opens a document's FIRST chunk, is
short, ends on a line break with no end punctuation, holds no field separator and no number, and states no rule
(城市：成都，…, 年假5天 and 试用期员工不享受年终奖 stay sentences; so does a long line there, often a sentence
the PDF wrapped and chunking cut). Only the first chunk: a later one opening on a short unpunctuated line opens
on a Word list item or a PDF line, a rule as often as not (review of 53's fixes #1).
"""

from __future__ import annotations

import re
from pathlib import PurePath

from ..text.sentences import END_CHARS
from .subject import polarity

HEADING_RE = re.compile(
    r"^\s*(?:#{1,6}\s*|第[零〇一二三四五六七八九十百千万\d]+[章节条款部篇]|[一二三四五六七八九十]+[、.．]|[（(][一二三四五六七八九十\d]+[)）])"
)
HEADING_MAX_CHARS = 30
# An amount or limit a line states (年假5天): such a line is a rule, even short and unpunctuated.
AMOUNT = re.compile(r"\d+(?:\.\d+)?\s*(?:元|天|日|个月|小时|%|倍)|[一二三四五六七八九十百千两]+(?:元|天|日|个月|小时|倍)")
# A word that makes a sentence a rule (the offline answer leads with the sentence holding one: `extractive`)
NORMATIVE = re.compile(r"应当|应|须|不得|不予|可以|按照|标准|不超过|不低于|以内|每")
# A title names a subject and never denies: 不发放 / 不享受 make a rule even where `polarity` reads no verdict
_DENIAL = re.compile(r"不")
_FIELDS = re.compile(r"[，,：:；;、]")  # a record line or a list: content, not a title
# A title opening a chunk is short; a longer line there is as often a sentence wrapped by the PDF and cut by
# chunking (不低于…工资标准的２００％支付 ⏎ 劳动者工资；), which still reads as the rule.
TITLE_MAX_CHARS = 20
_SPACES = re.compile(r"\s+")


def is_heading(sentence: str, section: str) -> bool:
    """A heading line: no end punctuation, short, and numbered like a heading or named in the section path."""
    if len(sentence) > HEADING_MAX_CHARS or any(c in END_CHARS for c in sentence):
        return False
    if HEADING_RE.match(sentence):
        return True
    parts = {p.strip() for p in re.split(r"[>/]", section) if p.strip()}
    return sentence.lstrip("# ").strip() in parts


def first_chunk(chunk_id: str) -> bool:
    """The document's first chunk, where its title stands (chunk ids read f"{doc_id}@v{version}#{index}", from 0)."""
    return chunk_id.rpartition("#")[2] == "0"


def states_rule(sentence: str) -> bool:
    """A line that says what is allowed, owed or denied (试用期员工不享受年终奖): a rule, however short."""
    return bool(NORMATIVE.search(sentence) or _DENIAL.search(sentence) or polarity(sentence))


def is_title(sentence: str, source: str, *, opens_chunk: bool, own_line: bool, first: bool) -> bool:
    """The document's title: the file's name (哺乳期工作安排规定 of 哺乳期工作安排规定.pdf), or a short line
    with no end punctuation, field separator, number or rule word that opens the document's `first` chunk on
    a line of its own."""
    if len(sentence) > HEADING_MAX_CHARS or any(c in END_CHARS for c in sentence):
        return False
    bare = _SPACES.sub("", sentence.lstrip("# "))
    if bare and bare == _SPACES.sub("", PurePath(source).stem):
        return True
    return (first and opens_chunk and own_line and not states_rule(sentence) and len(bare) <= TITLE_MAX_CHARS and not _FIELDS.search(sentence)
            and not AMOUNT.search(sentence) and not re.search(r"\d|[%％]", sentence))
