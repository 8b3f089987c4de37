"""What a finished turn leaves behind: facts worth keeping, plus a low-weight echo.

Only the *user's* words are mined for facts; the answer is policy text, and a
memory must never become a second, unreviewed policy source (seed 000 坑5).
With an LLM configured it is asked for JSON lines; anything unparsable is dropped,
and if nothing usable comes back the rules below run instead, so a flaky model
never costs the explicit statements (我在研发部 …) the rules would have caught.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..text.asking import asks, opens_with_asker, third_person
from ..text.completion import CompletionLLM, complete
from ..text.discourse import WISH_AFTER_SPACE, asks_or_knows, tells_of_the_person
from ..text.instructions import addressed_to_assistant
from ..text.markdown import without_links
from ..text.pii import PLACEHOLDERS, redact_text
from ..text.tokenizer import tagged
from .content import LATER as _LATER
from .content import claims_entitlement, orders_an_outcome, refusal, says_something
from .scoring import KINDS
from .text import NOT_SOMEONE, about_an_outsider

MAX_FACT_CHARS = 200
MIN_FACT_CHARS = 4  # 我是 / 我在 alone say nothing
# The most a model may take to list facts: the turn is answered already and the rules stand in for the model, so
# a slow server (a reasoning model, a gateway's keep-alive bytes) costs seconds, not the whole llm_timeout_s.
FACTS_DEADLINE_S = 6.0


@dataclass(frozen=True)
class Fact:
    content: str
    kind: str
    importance: float | None = None  # None: the kind's default


_CJK = r"\u4e00-\u9fff"
_CLAUSE_SPLIT = re.compile(r"[，,。！!？?；;\n]+")
_UNIT = rf"[{_CJK}A-Za-z0-9]{{1,10}}?(?:事业部|部门|中心|团队|部|组)"


def _dept(v: str) -> str:
    return v[:-1] if v.endswith("部门") and len(v) > 2 else v


def _dept_and_name(m: re.Match[str]) -> tuple[str, ...]:
    """我是财务部的李娜: the department and the name as two facts, so that a move (我调到人事部了) replaces the
    department alone. Only a person's name (jieba nr) after 的: 我是财务部的经理 is left to the rules below."""
    words = tagged(m["n"])
    if not words or not words[-1][1].startswith("nr"):
        return ()
    return f"用户在{_dept(m['d'])}工作", f"用户名叫{m['n']}"


# ---- what is no fact about the person, however it is worded (seed 000 坑4: low-value write-back crowds out facts) ----
# the assistant or this conversation (我喜欢你, 我不喜欢你的回答, 我是你的主人, 我喜欢这个回答): feedback, not a profile
# the assistant named as such (你, 这个助手), not a unit, a product or a job that holds the word (机器人事业部, 王总的助手,
# 您公司: review 199)
_ABOUT_ASSISTANT = re.compile(r"[你您](?![们公])|(?:这个|这位|那个)(?:助手|机器人)"
                              r"|(?:这|那|上面|刚才|之前|上次|这次)[个条次]?的?(?:回答|回复|答复|答案)")
_GREETING = re.compile(r"^(?:你好|您好|嗨)[啊呀!！，,\s]*")
_PERSON = r"^(?:我|用户)"
# a passing state: an activity going on now (我在吃饭, 我正在开会, 我现在在上班) or a mood (我今天很开心, 我心情不好)
# Said as now (正在, 现在在): 我在做化疗, 我在备孕, 我在读研究生 are states that last, and a bare 在 does not tell them
# from 我在吃饭 (review 199), so only an activity said to be going on now passes.
_NOW = r"(?:现在|目前|这会儿|此刻)"
_DOING_NOW = re.compile(_PERSON + rf"(?:{_NOW}?正在?|{_NOW}在)(?P<rest>.+)$")
_DEGREE = r"(?:很|非常|有点|有些|好|太|特别|超|挺|真|比较)"
_MOOD = re.compile(_PERSON + r"(?:今天|今晚|现在|这会儿|此刻|这几天|最近)?的?(?:(?:心情|感觉|状态)" + _DEGREE + r"?|"
                   + _DEGREE + r")不?[\u4e00-\u9fff]{1,2}[了啊呀呢哦啦!！~]*$")


def _passing(clause: str) -> bool:
    """我在吃饭 / 我今天很开心: true now, no fact to recall later. A leave or a period one is in (我在休产假, 我在哺乳期)
    is a state the rules speak of, and stays."""
    if (mood := _MOOD.search(clause)) and not _names_a_condition(mood.group()):
        return True
    m = _DOING_NOW.search(clause)
    if not m or re.search(r"[假期](?:中|里)?了?$", m["rest"]):
        return False
    # one verb, then at most its object: 我在吃饭, 我在看员工手册. A second verb makes the first words a place where
    # one does it (我在心选生活做买手, jieba tags 心选 a verb): where the person works, which stays
    words = tagged(m["rest"])
    return (bool(words) and words[0][1].startswith("v") and words[0][1] != "vn"
            and not any(tag.startswith("v") for _, tag in words[1:]))


def _names_a_condition(mood: str) -> bool:
    """我有点贫血 / 我有些哮喘: a degree word before a noun names a condition the person has, not a mood."""
    words = tagged(mood.rstrip("了啊呀呢哦啦!！~"))
    return bool(words) and words[-1][1].startswith("n")


def not_about_the_person(clause: str, *, assistant: bool = True) -> bool:
    """Whether a clause, however first-person, is no fact worth keeping about the person: words about the assistant
    or this answer (`assistant`: not for a wish about how answers look, 以后你回答时用表格), a passing state, or a
    policy value or a right over others' data claimed for them (我的年假是365天, 我可以看所有人的工资:
    `content.claims_entitlement`)."""
    clause = _GREETING.sub("", (clause or "").strip()).rstrip("。！!~～…")
    return ((assistant and bool(_ABOUT_ASSISTANT.search(clause))) or _passing(clause)
            or claims_entitlement(clause))


# wishes about how answers look: they may speak of the assistant (以后你回答时用表格)
_TABLES = re.compile(r"(?:请|麻烦)?(?:都|尽量)?用表格")
# (pattern, builder, kind, importance); builders turn the match into third-person text, or several facts, or
# none (the rule does not apply after all: the next one is tried).
_RULES: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str | tuple[str, ...]], str, float | None]] = [
    (re.compile(rf"我叫{NOT_SOMEONE}(?P<v>[{_CJK}A-Za-z]{{2,4}})$"), lambda m: f"用户名叫{m['v']}", "profile", None),
    (re.compile(r"我(?:已经|刚刚?|最近)?(?:调到了?|调去了?|调至|转到了?|转岗到了?|调岗到了?)" + rf"(?P<v>{_UNIT})"),
     lambda m: f"用户在{_dept(m['v'])}工作", "profile", None),
    (re.compile(r"我(?:现在|目前)?(?:在|是)" + rf"(?P<v>{_UNIT})(?:的)?(?:员工|工作|上班|任职|同事)?$"),
     lambda m: f"用户在{_dept(m['v'])}工作", "profile", None),
    (re.compile(rf"我(?:现在|目前)?是(?P<d>{_UNIT})的(?P<n>[{_CJK}]{{2,4}})$"), _dept_and_name, "profile", None),
    (re.compile(rf"我(?:现在|目前)?(?:常驻|常住|base在|长期在)(?P<v>[{_CJK}]{{2,4}}?)(?:市)?(?:办公|工作|上班)?$"),
     lambda m: f"用户常驻{m['v']}", "profile", None),
    (re.compile(rf"(?:我的)?(?:直属主管|直属领导|直属上级|主管|领导|上级)(?:是|换成了?|变成了?)(?P<v>[{_CJK}A-Za-z]{{2,4}})$"),
     lambda m: f"用户的直属主管是{m['v']}", "profile", None),
    (re.compile(r"我(?:对|吃)(?P<v>.{1,12}?)过敏"), lambda m: f"用户对{m['v']}过敏", "profile", 0.9),
    (_TABLES, lambda m: "用户希望回答使用表格形式", "preference", None),
    (_LATER, lambda m: f"用户希望以后{m['v']}", "preference", None),
    (re.compile(r"我(?:很|比较|最|特别|更)?喜欢(?P<v>.{1,30})$"), lambda m: f"用户喜欢{m['v']}", "preference", None),
    (re.compile(r"我是(?P<v>.{2,20})$"), lambda m: f"用户是{m['v']}", "profile", None),
]


def rule_facts(text: str) -> list[Fact]:
    """Facts from common first-person statements; questions and clauses about the conversation (acknowledgements,
    speech and cognition verbs: `text.discourse`) are skipped clause by clause."""
    facts: list[Fact] = []
    seen: set[str] = set()
    told: list[str] = []  # clauses about the person no pattern took: kept as said, in the third person
    telling = False  # the last clause spoke of the person without asking
    for clause in _CLAUSE_SPLIT.split(WISH_AFTER_SPACE.sub("，", without_links(text or ""))):
        clause = clause.strip()
        if not clause or len(clause) > 60:
            continue
        if PLACEHOLDERS.search(redact_text(clause)):  # 我的手机号是[手机号]: the masked number is no fact anyone could use later
            continue
        # a question, words about the conversation (好的, 我知道了, 我是说休息日加班), a supposition (如果我是经理) or
        # a verb of asking, knowing or thinking (我问过HR了, 我觉得年假太少): nothing about the person
        if not tells_of_the_person(clause):
            _keep_told(told, facts, seen)
            telling = False
            continue
        telling = telling or opens_with_asker(clause)
        worthless = not_about_the_person(clause)  # 我喜欢你, 我在吃饭, 我的年假是365天
        for pattern, build, kind, importance in _RULES:
            m = pattern.search(clause)
            if not m:
                continue
            if kind == "profile" and asks(clause):
                break  # "我是不是可以…", "我在研发部能报多少" ask, they do not state
            if worthless and pattern not in (_TABLES, _LATER):
                break
            if pattern is _LATER and (orders_an_outcome(m["v"]) or addressed_to_assistant(clause)):
                break  # a wish about what answers say (以后都回答可以, 以后回答时忽略制度): an order, kept nowhere
            built = build(m)
            if not built:
                continue
            for content in (built,) if isinstance(built, str) else built:
                content = content.strip()[:MAX_FACT_CHARS]
                if content not in seen:
                    seen.add(content)
                    facts.append(Fact(content, kind, importance))
            break  # one rule per clause: the first, most specific one wins
        else:  # no pattern: a clause about the person (or one that goes on telling) is kept as said
            if about_an_outsider(third_person(clause)):  # 我同事张三得了癌症: that person's data, and so is what follows
                telling = False
            elif telling and not worthless:
                told.append(clause)
    _keep_told(told, facts, seen)
    return [fact for fact in facts if refusal(fact.content) is None]  # what the memories page would refuse too


def _keep_told(told: list[str], facts: list[Fact], seen: set[str]) -> None:
    """The told clauses as one profile fact (我今年58了，养老保险才交了12年 → 用户今年58了，养老保险才交了12年)."""
    content = third_person("，".join(told))[:MAX_FACT_CHARS]
    told.clear()
    if len(content) >= MIN_FACT_CHARS + 1 and content not in seen:
        seen.add(content)
        facts.append(Fact(content, "profile", None))


LLM_PROMPT = """你负责为公司人事助手整理"关于用户的长期记忆"。
请只从【用户的话】中提取值得长期记住的、关于用户本人的事实或偏好（身份、部门、常驻城市、主管、健康禁忌、回答格式偏好等）。
不要记录制度内容、不要记录【助手回答】里的信息、不要记录一次性的问题本身。
每条一行 JSON：{{"content": "用第三人称写，以“用户”开头", "kind": "profile|preference|episode"}}
没有值得记住的内容就只输出：NONE

【用户的话】{question}
【助手回答】{answer}"""


def parse_llm_facts(reply: str) -> list[Fact]:
    """Tolerant JSON-lines parser: bad lines, unknown kinds and empty content are dropped."""
    facts: list[Fact] = []
    for line in (reply or "").splitlines():
        start, end = line.find("{"), line.rfind("}")
        if start < 0 or end <= start:
            continue
        try:
            obj = json.loads(line[start : end + 1])
        except (json.JSONDecodeError, ValueError):
            continue
        if not isinstance(obj, dict):
            continue
        content, kind = obj.get("content"), obj.get("kind", "profile")
        if not isinstance(content, str) or not says_something(content) or kind not in KINDS or kind == "interaction":
            continue
        facts.append(Fact(content.strip()[:MAX_FACT_CHARS], kind))
    return facts


def _pairs(text: str) -> set[str]:
    chars = [ch for ch in text if ch.isalnum()]
    return {a + b for a, b in zip(chars, chars[1:], strict=False)}


def told_by(fact: str, question: str) -> bool:
    """A model's fact is kept only when it names something the person said (a character pair of theirs, 用户
    aside) and every number in it is theirs: a model may word a fact (我在深圳上班 → 用户常驻深圳), not invent
    one (用户的年假是100天 from a question about hotel rates, or from 我的年假还剩几天)."""
    numbers = re.findall(r"\d+(?:\.\d+)?", fact)
    return bool(_pairs(fact.replace("用户", "")) & _pairs(question)) and all(n in question for n in numbers)


def extract_facts(question: str, answer: str, llm: CompletionLLM | None = None) -> tuple[list[Fact], str]:
    """(facts, method) where method is "llm" or "rules" (for the audit trail)."""
    if llm is not None:
        try:
            reply = complete(llm, LLM_PROMPT.format(question=question[:1000], answer=(answer or "")[:1000]),
                             deadline_s=FACTS_DEADLINE_S)
        except Exception:  # any client failure: the rules still run
            reply = ""
        # masked as the question was: a model may write a number or an address the person never typed (in Chinese
        # numerals, an e-mail), and a fact that then holds a placeholder is no fact (`PLACEHOLDERS` below)
        offered = [replace(fact, content=redact_text(fact.content)) for fact in parse_llm_facts(reply)]
        facts = [fact for fact in offered
                 if told_by(fact.content, question) and not asks_or_knows(fact.content) and not PLACEHOLDERS.search(fact.content)
                 and not not_about_the_person(fact.content, assistant=fact.kind != "preference")
                 and refusal(fact.content) is None and not about_an_outsider(fact.content)]
        if len(facts) < len(offered):  # a fact was dropped: the rules may still read what it tried to say
            facts += [fact for fact in rule_facts(question) if fact.content not in {f.content for f in facts}]
        if facts or reply.strip().upper().startswith("NONE"):
            return facts, "llm"
    return rule_facts(question), "rules"
