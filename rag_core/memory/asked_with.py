"""The question searched again with what memory holds about the asker (split from `memory.text`)."""

from __future__ import annotations

import re


def with_facts(question: str, contents: list[str]) -> str:
    """The question with what memory holds about the asker, for search: 我每个月话费能补多少 and 用户在销售部工作 →
    我每个月话费能补多少（在销售部工作）. The clause that names the asker's department, city or situation (销售岗位
    每人每月200元) then matches; the question alone finds only the general rule."""
    facts = "；".join(dict.fromkeys(_first_person(c) for c in contents if c.strip()))
    return f"{question}（{facts}）" if facts else question


# 用户 where a memory names the person (its start, or a clause's): not inside a word (用户运营部)
_THE_PERSON = re.compile(r"(^|[，,；;。])用户(?:所在的)?")


def _first_person(content: str) -> str:
    """用户老婆没工作，用户下个月要当爸爸了 → 老婆没工作，我下个月要当爸爸了."""
    return _THE_PERSON.sub(lambda m: m.group(1) + ("我" if m.group(1) else ""), content.strip())
