"""The offline answer's opening line: written here and read back here, so its verdict is a value.

根据制度： opens an answer; a yes/no answer opens with 根据制度，可以： or 根据制度，不可以： when its lead sentence
says so, and an answer on weak evidence opens with the hedge (`WEAK_HEADER`) first.
"""

from __future__ import annotations

from .answering import WEAK_HEADER

HEADER = "根据制度："
_VERDICT_OPENERS = ("根据制度，", "按这些条款，")  # the header's words before a yes/no verdict
VERDICTS = ("可以", "不可以")


def header(verdict: str, weak: bool) -> str:
    """根据制度： (with 可以 / 不可以 when the lead says so); on weak evidence the hedge comes first."""
    if weak:
        return f"{WEAK_HEADER}\n{_VERDICT_OPENERS[1]}{verdict}：" if verdict else WEAK_HEADER
    return f"{_VERDICT_OPENERS[0]}{verdict}：" if verdict else HEADER


def stated_verdict(answer: str) -> str:
    """可以 / 不可以 as the offline answer's header states it for a yes/no question, else "".

    The one place that header is read, next to the one that writes it (`header`): the trace carries it as
    a value (`AskTrace.verdict`), which the session eval checks against the policy's yes or no."""
    for line in answer.splitlines()[:2]:
        for opener in _VERDICT_OPENERS:
            if line.startswith(opener) and line.endswith("：") and line[len(opener):-1] in VERDICTS:
                return line[len(opener):-1]
    return ""
