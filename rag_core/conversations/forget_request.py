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

# Only turns that plainly name the person's memory, or one fact of theirs, and ask nothing else (review 374: a first
# version took 35 of 62 HR turns with 忘/删/别记/你搞错了 for such requests, e.g. 忘了我的OA密码, 把我的加班申请删掉,
# 你搞错了，我不是问产假). 忘了 is left out (忘了我的工号: a lost number), and so are removals of records.
_FORGET = r"(?:忘掉|忘记|别再?记(?:着|住)?|不要再?记(?:着|住)?|不用再?记(?:着|住)?|不必再?记(?:着|住)?)"
_REMOVE = r"(?:删掉|删除|删了|删|去掉|清除|清掉|抹掉)"
_POLITE = r"^(?:请|麻烦)?(?:你|您)?(?:帮我)?"
# what the words may name: a slot of the person's (我的城市), a fact of theirs as they said it (我在杭州, 我是主管),
# or the memory itself (关于我的记忆, 这条记忆, 你记的)
SLOT_NOUNS = r"(?:城市|常驻地|驻地|所在城市|部门|领导|主管|上级|上司|职位|职务|岗位|头衔|名字|姓名|试用期)"
_FACT = r"我(?:已经|现在|其实|并|根本|从来)?(?:不|没有?|不再)?(?:在|是|常驻|常住|住在|对|有|叫|还在|处于|待过|呆过)"
_MEMORY = r"(?:关于我的|有关我的|你记(?:住|下)?的|记住的|这条|那条)?(?:记忆|信息|内容)?"
_NAMED = (rf"(?:我的[\u4e00-\u9fff]{{0,3}}?{SLOT_NOUNS}|{_FACT}[^，,。；;！!]*|"
          r"(?:关于我|有关我|这条|那条|你记(?:住|下)?的)[^，,。；;！!]*)")
# the sure verbs of memory (not 忘记: 忘记我的工号 is a lost number) take any thing of the person's (忘掉我的生日)
_FORGET_SURE = r"(?:忘掉|别再?记(?:着|住)?|不要再?记(?:着|住)?|不用再?记(?:着|住)?|不必再?记(?:着|住)?)"
_FORMS = (
    re.compile(_POLITE + _FORGET + rf"(?:吧|了)?[，,：:\s]*(?P<what>{_NAMED})$"),
    re.compile(_POLITE + _FORGET_SURE + r"(?:吧|了)?[，,：:\s]*(?P<what>我的[^，,。；;！!]{1,8})$"),
    re.compile(_POLITE + _REMOVE + rf"[，,：:\s]*(?P<what>(?:关于我|有关我|你记(?:住|下)?的)[^，,。；;！!]*记忆|"
               rf"(?:所有|全部|我的)?{_MEMORY}记忆)$"),
    re.compile(_POLITE + rf"把(?P<what>{_NAMED}?|[^，,。；;！!]*记忆)(?:这条|这件事|这回事)?(?:{_FORGET}|{_REMOVE})(?:吧|了|掉)*$"),
)
# a correction of one fact, and nothing more (你记错了，我不在杭州); one with a further clause (…，我在人事部工作) or about
# what was asked (我不是问产假) is no request to forget: it goes on as the turn says
_CORRECTION = re.compile(r"^(?:不对[，,]?)?(?:你|您)?(?:记错了|搞错了|弄错了|记得不对)(?:吧|啦|了)?[，,。！!：:\s]*")
_DENIED = re.compile(r"^我(?:已经|现在|其实|并|根本|从来)?(?:不|没有?|不再)(?:在|是|常驻|常住|住在|对|有|叫|还在|处于|待过|呆过)")
_ABOUT_ASKING = re.compile(r"问|说|指|要|想|需要|打算")
_THANKS = re.compile(r"(?:[，,。！!～~…\s]*(?:谢谢|多谢|谢啦|好吗|好的|哈|啦|呀|哦|吧|了|这件事|这回事)*)*[\W_]*$")
# 请记住我对花生过敏 / 记住：我有两个孩子 / 帮我记一下我下个月结婚: the fact after the opener, told as any statement.
# Not before 我们 / 我司 (请记住我们公司的报销流程 asks about a policy: review 374 #2)
_KEEP = re.compile(_POLITE + r"(?:记住|记下|记一下|记着|记好)(?:了|哦|啊)?[，,：:\s]*(?=我(?!们|司))")


def asked_to_forget(text: str) -> str | None:
    """What the turn asks to forget (the words naming it, as said), or None when it asks nothing of the kind."""
    text = _THANKS.sub("", (text or "").strip())
    if not text or asks(text):
        return None
    if corrected := _CORRECTION.match(text):
        rest = text[corrected.end():].strip()
        single = not re.search(r"[，,。；;！!]", rest)
        return rest if single and _DENIED.match(rest) and not _ABOUT_ASKING.search(rest) else None
    for form in _FORMS:
        if (m := form.match(text)) and not _ABOUT_ASKING.search(m.group("what")):
            return m.group("what").strip() or None
    return None


def without_keep_opener(text: str) -> str:
    """The turn less a leading 请记住 / 帮我记一下 before what it tells of the person, or as it was."""
    return _KEEP.sub("", (text or "").strip(), count=1)


FORGOT = "删除记忆：不检索"  # the answerer of a turn that asked to forget
NOT_CHANGED = "这一轮不改动记忆（没有删除任何内容）。要查看或删除记忆，请到「记忆管理」页面。"  # remember=False (review 374 #8)


def forget_reply(what: str, forgotten: list[str] | None) -> str:
    """What the chat says: the facts deleted, none found, or where every memory is cleared."""
    if forgotten is None:
        return "要清除全部记忆，请到「记忆管理」页面操作（会先请您确认）。这次没有删除任何记忆。"
    if not forgotten:
        return f"没有找到和「{what}」有关的记忆，没有删除任何内容。全部记忆可以在「记忆管理」页面查看和删除。"
    listed = "\n".join(f"- {fact}" for fact in forgotten)
    return f"好的，已删除这些记忆，以后的回答不会再用到：\n{listed}\n\n如果删错了，可以在「记忆管理」页面重新添加。"
