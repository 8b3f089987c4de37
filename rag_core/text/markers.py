"""Markers only the engine may write: citations [资料N] and a model's chat-template tokens.

Policy text, memories and questions are data. A citation copied from a policy
("年假最多五天[资料2]") would be linked by the UI to another document's card, and a
template token (<|im_start|>system …) would open a new turn in the model's chat
format. Every bracket, width and spacing variant is rewritten to a plain
parenthesis form no reader links, and template tokens lose their delimiters.
The rewrite is idempotent: its output contains no marker it would rewrite again.
"""

from __future__ import annotations

import re
import unicodedata

_OPEN = "[［〔【〖〘〚「『<＜《〈{｛⟦"
_CLOSE = "]］〕】〗〙〛」』>＞》〉}｝⟧"
# 资料N with any spacing, or an English/Chinese label that reads as "source N".
_LABEL = r"资\s*料|資\s*料|來\s*源|来\s*源|出\s*处|出\s*處|引\s*用|依\s*据|sources?|refs?|references?|docs?|citations?"
_CITATION = re.compile(
    rf"[{re.escape(_OPEN)}]\s*+((?:{_LABEL})\s*+[#＃:：]?\s*+[0-9０-９一二三四五六七八九十]*+)\s*+[{re.escape(_CLOSE)}]",
    re.IGNORECASE,
)
# <|im_start|>, <｜end▁of▁sentence｜>, <|eot_id|>, [INST], <<SYS>>, <s>, </s>
_TEMPLATE = re.compile(
    r"<\s*[|｜]([^<>|｜\n]{0,40})[|｜]\s*>|\[\s*/?\s*INST\s*\]|<<\s*/?\s*SYS\s*>>|</?s>", re.IGNORECASE
)


def _template(match: re.Match[str]) -> str:
    inner = match.group(1) if match.group(1) is not None else match.group(0).strip("<>[]/ ")
    return f"（{inner.strip()}）"


def neutralise_markers(text: str) -> str:
    """Citation markers in any bracket variant → （资料 N）; chat-template tokens → （im_start）."""
    if not text:
        return text
    text = _TEMPLATE.sub(_template, text)
    return _CITATION.sub(lambda m: f"（{unicodedata.normalize('NFKC', m.group(1)).strip()}）", text)


_SECTIONS = str.maketrans({"【": "〖", "】": "〗"})


def as_prompt_data(text: str) -> str:
    """Text a document, a person or a model wrote, made unable to open a prompt section (【问题】 → 〖问题〗), fake a
    citation or carry a chat-template token: the answer prompt and the follow-up rewrite prompt both use it."""
    return neutralise_markers(text).translate(_SECTIONS) if text else text
