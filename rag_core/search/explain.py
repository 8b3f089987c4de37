"""Why a chunk matched, in words an HR colleague reads first; the numbers stay one click away."""

from __future__ import annotations

from collections.abc import Sequence

from .answerability import Judgement, Signals


def closeness(z: float) -> str:
    """How far the chunk's meaning stands above the question's background, in words."""
    if z >= 3.0:
        return "高"
    if z >= 1.8:
        return "中"
    return "低"


def why_matched(signals: Signals, matched: Sequence[str], missing: Sequence[str], judgement: Judgement) -> str:
    """One line: keywords found, meaning closeness, what is missing, and the verdict; each word named once."""
    matched, missing = list(dict.fromkeys(matched)), list(dict.fromkeys(missing))  # a word found twice is one word
    parts = []
    if matched:
        parts.append("关键词：" + "、".join(matched[:6]))
    cosine = signals.sentence_cosine if signals.sentence_cosine is not None else signals.cosine
    if cosine is not None:
        z = (cosine - signals.background) / max(signals.spread, 1e-3)
        parts.append(f"意思相近程度：{closeness(z)}")
    if missing:
        parts.append("条款里没有：" + "、".join(missing[:4]))
    verdict = judgement.verdict or "依据不足（未采用）"
    return f"{verdict}｜" + "；".join(parts) if parts else verdict
