"""Which of a person's memories a chat turn asked to forget (忘掉我的城市, 不要记住我在杭州, 你记错了，我不在杭州).

Only the person's own facts, never someone else's (用户父母住在杭州) nor the questions they asked (问答记录): review 374
found 忘掉我在杭州 deleting all three. A slot noun names the fact that fills that slot (我的城市 → 用户常驻杭州, 我的部门领导
→ the manager: the last noun is the head); a fact as said names the memories holding the same slot value (我是主管 → 用户是
主管, not 用户的直属主管是王五), else those holding its key words (我对花生过敏 → 花生, 过敏). Words that only point at memory
itself (所有记忆, 关于我的记忆) name every memory: that is the memories page's 清除, which asks first, so none is deleted.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .text import about_someone_else, key_terms, slots

SLOT_OF_NOUN = {"城市": "city", "常驻地": "city", "驻地": "city", "所在城市": "city", "部门": "department",
                "领导": "manager", "主管": "manager", "上级": "manager", "上司": "manager", "职位": "title", "职务": "title",
                "岗位": "title", "头衔": "title", "名字": "name", "姓名": "name", "试用期": "probation"}
_SLOT_NOUN = re.compile("|".join(sorted(SLOT_OF_NOUN, key=len, reverse=True)))
_DENIAL = re.compile(r"(?:已经|现在|其实|并|根本|从来)?(?:不再|没有|不|没)")
_POINTING = re.compile(r"(?:所有|全部|关于我的?|有关我的?|你记(?:住|下)?的|记住的|这条|那条|我的)*(?:记忆|信息|内容)?")


def named_memories(what: str, memories: Sequence[tuple[str, str, str]]) -> list[str] | None:
    """The ids among (id, content, kind) that `what` names; None when it names every memory rather than some."""
    text = re.sub(r"这条|那条|这件事|这回事", "", (what or "").strip())
    own = [(mid, content) for mid, content, kind in memories if kind != "interaction" and not about_someone_else(content)]
    if text.startswith("我的") and (nouns := list(_SLOT_NOUN.finditer(text))):
        slot = SLOT_OF_NOUN[nouns[-1].group()]  # 部门领导: the head noun, 领导
        return [mid for mid, content in own if slot in slots(content)]
    if _POINTING.fullmatch(text):
        return None
    fact = "用户" + _DENIAL.sub("", text.removeprefix("我"), count=1) if text.startswith("我") else text
    if told := slots(fact):
        return [mid for mid, content in own if set(told.items()) & set(slots(content).items())]
    words = key_terms(fact) - {"用户"}
    return [mid for mid, content in own if words and all(w in content for w in words)]
