"""A turn that asks the assistant to forget something it was told about the person, or to keep something.

忘掉我的城市 / 不要记住我在杭州 / 你记错了，我不在杭州 are instructions about memory, not policy questions: searching
them answered with an unrelated clause while the very fact to drop went into the prompt (review 372 #1). 请记住我对花生
过敏 / 帮我记一下我下个月结婚 ask to keep a fact: the opener goes, and the rest is told as if said plainly (372 #3).

Only the turn's shape is read here (the verb, and that what follows names the person or their memory); which
memories it names is `memory.forget_said`'s, and the facade deletes them.
"""

from __future__ import annotations

import re

from ..text.asking import asks

# verbs of memory take the person's own facts (忘掉我的城市, 别记我是经理); 忘记打卡怎么办 names no 我 and asks
_FORGET = r"(?:忘掉|忘了|忘记|别再?记(?:着|住)?|不要再?记(?:着|住)?|不用再?记(?:着|住)?|不必再?记(?:着|住)?)"
# verbs of removal are also HR's work on records (删除考勤记录): they must name the memory itself or 关于我
_REMOVE = r"(?:删掉|删除|去掉|清除|清掉|抹掉)"
_POLITE = r"^(?:请|麻烦)?(?:你|您)?(?:帮我)?"
_ABOUT_ME = r"(?:我|关于我|有关我|这条|那条|刚才|你记(?:住|下)?的)"
_MEMORY = r"(?:记忆|记住的|记下的|记的)"
_FORMS = (
    re.compile(_POLITE + _FORGET + rf"(?:吧|了)?[，,：:\s]*(?P<what>{_ABOUT_ME}.*)$"),
    re.compile(_POLITE + _REMOVE + rf"[，,：:\s]*(?P<what>(?:关于我|有关我|你记(?:住|下)?的).*|.*{_MEMORY}.*)$"),
    re.compile(_POLITE + rf"把(?P<what>(?:{_ABOUT_ME}|.*{_MEMORY}).*?)(?:{_FORGET}|{_REMOVE}|删)(?:吧|了|掉)*$"),
)
# a correction: what follows is told again (我在上海: the statement replaces the old city) or denied (我不在杭州)
_CORRECTION = re.compile(r"^(?:不对[，,]?)?(?:你|您)?(?:记错了|搞错了|弄错了|记得不对)(?:吧|啦|了)?[，,。！!：:\s]*")
_DENIED = re.compile(r"^我(?:已经|现在|其实|并|根本|从来)?(?:不|没有?|不再)")
# 请记住我对花生过敏 / 记住：我有两个孩子 / 帮我记一下我下个月结婚: the fact after the opener, told as any statement
_KEEP = re.compile(_POLITE + r"(?:记住|记下|记一下|记着|记好)(?:了|哦|啊)?[，,：:\s]*(?=我)")
_END = "。！!～~…，, "


def asked_to_forget(text: str) -> str | None:
    """What the turn asks to forget (the words naming it, as said), or None when it asks nothing of the kind."""
    text = (text or "").strip().rstrip(_END)
    if not text or asks(text):
        return None
    corrected = _CORRECTION.match(text)
    if corrected:
        rest = text[corrected.end():].strip()
        return rest if _DENIED.match(rest) else None
    for form in _FORMS:
        if m := form.match(text):
            return m.group("what").strip().rstrip(_END) or None
    return None


def without_correction(text: str) -> str:
    """The turn less a leading 你记错了 (the statement after it is told as said), or as it was."""
    corrected = _CORRECTION.match((text or "").strip())
    return text.strip()[corrected.end():] if corrected and text.strip()[corrected.end():].strip() else text


def without_keep_opener(text: str) -> str:
    """The turn less a leading 请记住 / 帮我记一下 before what it tells of the person, or as it was."""
    return _KEEP.sub("", (text or "").strip(), count=1)


FORGOT = "删除记忆：不检索"  # the answerer of a turn that asked to forget


def forget_reply(what: str, forgotten: list[str] | None) -> str:
    """What the chat says: the facts deleted, none found, or where every memory is cleared."""
    if forgotten is None:
        return "要清除全部记忆，请到「记忆管理」页面操作（会先请您确认）。这次没有删除任何记忆。"
    if not forgotten:
        return f"没有找到和「{what}」有关的记忆，没有删除任何内容。全部记忆可以在「记忆管理」页面查看和删除。"
    listed = "\n".join(f"- {fact}" for fact in forgotten)
    return f"好的，已删除这些记忆，以后的回答不会再用到：\n{listed}\n\n如果删错了，可以在「记忆管理」页面重新添加。"
