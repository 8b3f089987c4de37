"""A second standard answer to the same question for the same readers is refused, naming the one already served.

Two answers with the same wording match every question equally; one of them won by the order they were stored,
so HR's correction (婚假10天 after 婚假3天) was never served, and a form clicked twice stored the answer twice.
HR corrects an answer by deleting the old one first. An answer for other readers (managers beside everyone) is
no duplicate: the reader's most specific one is served (`standard_search.preferred`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from .records import StandardAnswer
from .standard import StandardAnswerError

_NOT_WORDS = re.compile(r"[\W_]+")


def same_words(text: str) -> str:
    """A question as compared for sameness: punctuation, spaces and case left out (婚假有几天？ is 婚假有几天)."""
    return _NOT_WORDS.sub("", text).casefold()


def duplicate_of(entries: Sequence[StandardAnswer], held: Collection[str], question: str,
                 audience: Sequence[str]) -> StandardAnswer | None:
    """The served entry (not in `held`) for the same audience with `question` as its question or a variant."""
    asked, readers = same_words(question), set(audience or ("all",))
    return next((e for e in entries if e.id not in held and set(e.audience) == readers
                 and asked in {same_words(w) for w in (e.question, *e.variants)}), None)


def refuse_duplicate(store, question: str, audience: Sequence[str], *, variants: Sequence[str] = (),
                     releasing: StandardAnswer | None = None) -> None:
    """`StandardAnswerError` (Chinese, naming the existing answer) when `store` already serves this question, or one
    of the new answer's `variants`, to these readers (a variant takes the question over as surely as the question
    would). `question`, `variants`: as they will be stored (masked). `releasing`: a held answer HR wants served again; its
    question and variants are checked, itself left out (HR may have added a correction while it was held)."""
    held = set(store.holds()) - ({releasing.id} if releasing else set())
    entries = [e for e in store.list() if releasing is None or e.id != releasing.id]
    asked = (question, *releasing.variants) if releasing else (question, *variants)
    found = next((f for q in asked if (f := duplicate_of(entries, held, q, audience))), None)
    if found is None:
        return
    if releasing:
        raise StandardAnswerError(
            f"已有同一问题、同样受众的标准答复在使用（编号 {found.id}：{found.question}），这条恢复后同一问题会有两条答复，"
            "未恢复使用。请先在“标准答复”页删除其中一条，再决定是否恢复")
    raise StandardAnswerError(
        f"已有同一问题、同样受众的标准答复（编号 {found.id}：{found.question}），未重复添加。若要更正它，"
        "请先在“标准答复”页删除这条旧答复，再添加新的")
