"""Which of a person's memories a chat turn asked to forget (忘掉我的城市, 不要记住我在杭州, 你记错了，我不在杭州).

A slot word names the fact that fills it (城市 → 用户常驻杭州, whatever city); other content words name the memories
holding every one of them (杭州, 花生 过敏). Words that only point at memory itself (我的记忆, 所有记忆) name them all:
that is the memories page's 清除, which asks for a confirmation first, so nothing is deleted for them here.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..text.tokenizer import tokenize
from .text import slots

SLOT_WORDS: dict[str, tuple[str, ...]] = {
    "city": ("城市", "常驻", "驻地", "base", "工作地", "所在地"),
    "department": ("部门", "团队", "事业部"),
    "manager": ("领导", "主管", "上级", "上司", "老板", "leader"),
    "name": ("名字", "姓名"),
}
_POINTING = frozenset("我 我的 关于 有关 这条 那条 这件 这件事 事 刚才 你 记住 记下 记 记忆 信息 内容 所有 全部 一切 不 没 没有 在 是 了 "
                      "已经 现在 其实 根本 从来 不再 并".split())


def named_memories(what: str, memories: Sequence[tuple[str, str]]) -> list[str] | None:
    """The ids among (id, content) that `what` names; None when it names every memory rather than some."""
    text = (what or "").lower()
    named_slots = {slot for slot, words in SLOT_WORDS.items() if any(w in text for w in words)}
    slot_words = {w for words in SLOT_WORDS.values() for w in words}
    words = [w for w in dict.fromkeys(tokenize(text)) if w not in _POINTING and w not in slot_words]
    if not named_slots and not words:
        return None
    return [mid for mid, content in memories
            if named_slots & slots(content).keys() or (words and all(w in content.lower() for w in words))]
