"""Split a turn into what it tells about the person (我是…/我在…部门/我常驻…/以后请…) and what it asks.

A statement is answered with what was remembered instead of 制度里没有写这一条;
only the asking part is searched, so 我常驻杭州，出差住宿标准是多少？ searches the
question alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..text.asking import asks, opens_with_asker
from ..text.discourse import (
    WISH_AFTER_SPACE,
    WISH_START,
    about_conversation,
    asks_back,
    tag_after_talk,
    tag_at_end,
    tells_before_a_wish,
    tells_of_the_person,
)
from ..text.markers import neutralise_markers
from ..text.pii import PLACEHOLDERS
from ..text.tokenizer import NOUN_TAGS, is_word, tagged

_CLAUSES = re.compile(r"[^，,。！!？?；;\n]+[，,。！!？?；;\n]*")
STATEMENT = re.compile(
    r"^(?:你好[，,]?)?(?:我是|我叫|我(?:现在|目前|已经)?(?:在|常驻|常住|长期在|base在)|"
    r"我(?:现在|目前|已经?|刚刚?|最近)?(?:调到|调去|转岗到|搬到|搬去)|我的(?:直属)?(?:主管|领导|上级)是|我对.{1,12}过敏|以后(?:请|麻烦|都|尽量)|请(?:以后|都)用|我(?:很|比较|更)?喜欢)"
)

# A clause that asks for something to be done (帮我看看…, 我想请假, 我要报销打车费) is a request to search, not a fact
# about the person, though it names no question word. 我要当爸爸了 (a change, with 了) stays a statement, and
# 我想要用表格回答 a preference.
_REQUEST = re.compile(r"^(?:请|麻烦)?(?:你|您)?(?:帮|替)(?:我|忙)|^我(?:现在)?(?:想要?|要|需要)(?!.*了$)(?!.*(?:表格|回答|回复))")


def requests(clause: str) -> bool:
    """Whether a clause asks for something to be done rather than telling who the person is."""
    return bool(_REQUEST.search(clause.strip().rstrip("，,。！!？?；;～~…").strip()))  # 我要当爸爸了。 tells


def without_requests(text: str) -> str:
    """The turn without its request clauses: what write-back may read facts from (我是HR，帮我看看… → 我是HR)."""
    return "".join(c for c in _CLAUSES.findall(text or "") if not requests(c)).strip()


@dataclass(frozen=True)
class TurnParts:
    statement: str  # the clauses that tell something about the person ("" when none)
    question: str  # the clauses that ask ("" for a pure statement)
    clarifies: bool = False  # `question` is what a clause about the conversation said was meant (我是说休息日加班)
    chatter: bool = False  # the turn only talks about the conversation (好的，我知道了 / 谢谢 / 我不明白)

    @property
    def is_statement_only(self) -> bool:
        return bool(self.statement) and not self.question


def split_turn(text: str) -> TurnParts:
    """Statement clauses vs question clauses; a clause that asks is never a statement.

    Clauses about the conversation go first (`text.discourse`): an acknowledgement (好的, 谢谢) or a
    clause whose verb is one of speaking or understanding (我知道了, 我不明白) is neither told nor asked;
    a clarification (我是说休息日加班, 不对，我问的是婚假) leaves what was meant, asked as a question. A turn
    of nothing else is chatter. Then a turn that asks nothing and opens with the person
    (我参加工作12年了, 我老婆下个月就要生了) is a statement as a whole, whatever its wording. The sentence that ends by
    asking whether it holds (…，对吧？ / 对？) is a question as a whole; the sentences before it are split as above
    (`_tag_question`), and a tag after nothing but talk (好的，是吧) is chatter.
    """
    # a space before a wish is no mark of its own: what stands before it is a statement only when it tells something
    # (我是新员工 想问下试用期), not when it names someone else (我们部门 想问下团建费 kept 用户所在的部门): `_wish_apart`
    if tag_after_talk(text or ""):  # 好的，是吧 / 我知道了，对吧: talk, as the words before the tag are
        return TurnParts("", "", chatter=True)
    if asks_back(text):  # 我可以报销头等舱，是吧？: the sentence asks whether it holds; nothing of it is told
        return _tag_question(text.strip())
    text, meant, talked = _without_talk(_wishes_apart(WISH_AFTER_SPACE.sub("", (text or "").strip())))
    if not any(ch.isalnum() for ch in text):  # 👍, ？？？, 。。。: a reaction, nothing the policies could answer
        return TurnParts("", "", chatter=True)
    if not text:
        return TurnParts("", "", chatter=talked)
    clarifies = bool(meant)
    parts = _split(text, meant)
    # what was meant, when it is a whole question itself (我想问一下年假有几天), is simply that question
    clarifies = clarifies and bool(parts.question) and not asks(parts.question)
    return TurnParts(parts.statement, parts.question, clarifies=clarifies)


_SENTENCES = re.compile(r"[^。！!？?；;\n]+[。！!？?；;\n]*")


def _tag_question(text: str) -> TurnParts:
    """A turn ending in a tag question: the sentence carrying the tag (with the one before it when the tag stands
    alone: 我常驻杭州。对吧？) is asked whole; the sentences before it are split as any turn (我常驻杭州。出差住宿标准
    是500元，对吧？ tells 我常驻杭州 and asks the rest)."""
    sentences = _SENTENCES.findall(text) or [text]
    at = len(sentences) - 1
    last = sentences[at].strip()
    if at and (tag := tag_at_end(last)) and not last[:tag.start()].strip("，,、 "):
        at -= 1
    head, asked = "".join(sentences[:at]).strip(), "".join(sentences[at:]).strip()
    if not head:
        return TurnParts("", text)
    before = split_turn(head)
    return TurnParts(before.statement, (before.question + asked).strip())


def _wishes_apart(text: str) -> str:
    """The turn with a wish to know that follows a statement with no mark between (我是新员工想问下试用期, as typed
    or once a pasted zero-width space is dropped) made a clause of its own, as after a comma: the statement is told
    and the wish asked, never the whole remembered. Only at a word's start (我是理想问题专家 is one fact) and after a
    statement that says something of its own, two characters at least (我是想问…, 我是来问下… are the wish itself)."""
    return "".join(_wish_apart(clause) for clause in _CLAUSES.findall(text)) if WISH_START.search(text) else text


def _wish_apart(clause: str) -> str:
    """A wish starts at a word's start, or inside a word jieba guessed and does not list (了想 in 我怀孕了想问下,
    职想 in 我刚入职想问下); never inside a listed word (理想 in 我是理想问题专家)."""
    at = 0
    for word, _ in tagged(clause):
        starts = range(at, at + len(word)) if len(word) > 1 and not is_word(word) else (at,)
        for start in starts:
            if start and WISH_START.match(clause, start):  # the first one only: 想问下 is one wish, not 想 + 问下
                before = clause[:start].rstrip()
                if _tells_before(before):
                    return before + "，" + clause[start:]
                # 我老公想了解一下陪产假: someone else's wish, asked for them; nothing is told of the person
                return clause[start:] if _names_someone(before) else clause
        at += len(word)
    return clause


def _tells_before(before: str) -> bool:
    """Whether what stands before a wish is a statement of its own: one with a statement's opener and two
    characters after it (我是新员工), or any saying of the person (我怀孕了, 我刚入职; `tells_before_a_wish`); never a
    request (我要请假想问下流程 is searched whole)."""
    if not tells_of_the_person(before) or requests(before):
        return False
    opener = STATEMENT.search(before)
    return bool(opener and len(before) - opener.end() >= 2) or tells_before_a_wish(before)


def _names_someone(before: str) -> bool:
    """我老公, 我们部门, 我同事: the person typing, then only a noun (whose wish follows), no verb of their own."""
    words = tagged(before)
    return (len(words) >= 2 and words[0][0] in ("我", "我们") and all(tag in NOUN_TAGS for _, tag in words[1:]))


def _without_talk(text: str) -> tuple[str, frozenset[str], bool]:
    """The turn without its clauses about the conversation (a clarification replaced by what it meant);
    what the clarifications meant (asked, never told: 我是新员工，想问问年假 tells 我是新员工 and asks 年假);
    whether there were any."""
    kept: list[str] = []
    meant_all: set[str] = set()
    talked = False
    for clause in _CLAUSES.findall(text):
        body = clause.strip()
        meant = about_conversation(body)
        if meant is None:
            kept.append(clause)
            continue
        talked = True
        if meant:
            kept.append(meant + body[len(body.rstrip("，,。！!？?；;\n ")):])
            meant_all.add(meant.rstrip("，,。！!？?；;\n "))
    return ("".join(kept).strip(), frozenset(meant_all), talked) if talked else (text, frozenset(), False)


def _split(text: str, meant: frozenset[str] = frozenset()) -> TurnParts:
    """`meant`: clauses that say what the person wants to know; asked wherever they stand."""
    clauses = _CLAUSES.findall(text or "")
    rest = "".join(c for c in clauses if _core(c) not in meant).strip()
    if rest and not asks(rest) and opens_with_asker(rest) and not any(requests(c) for c in clauses):
        # asked, never told: what was meant, and a clause memory keeps nothing from (我看不懂工资条, 我觉得加班费算错了)
        wanted = [c for c in clauses if _core(c) in meant or not tells_of_the_person(_core(c))]
        told_all = "".join(c for c in clauses if c not in wanted).strip()
        if told_all and opens_with_asker(told_all):  # 我问过领导了，他同意我调休: nothing left of the person
            return TurnParts(told_all.rstrip("，,。！!；;\n "), "".join(wanted).strip())
    told: list[str] = []
    asked: list[str] = []
    for clause in _CLAUSES.findall((text or "").strip()):
        body = clause.strip()
        if not body:
            continue
        core = _core(body)
        if STATEMENT.search(core) and not asks(body) and not requests(core) and core not in meant \
                and tells_of_the_person(core):
            told.append(core)
        elif not (_ONLY_PERSONAL_DATA.fullmatch(core) and core not in meant):
            asked.append(body)  # a clause only giving masked personal data (我的手机号是[手机号]) is never searched:
            # its [手机号] met every clause that once held a phone number (review 376 #1)
    if not told and len(asked) == len([c for c in _CLAUSES.findall((text or "").strip()) if c.strip()]):
        return TurnParts("", (text or "").strip())
    question = "".join(asked).strip().lstrip("，,。；; ")
    return TurnParts("，".join(told), question)


# a clause that only says what a piece of the person's data is: 我的手机号是[手机号], 邮箱 [邮箱], 电话：[手机号]. Only
# these labels and a copula: a verb makes it a request about that data (发到[邮箱], 改为[手机号], 换了), searched (379)
_DATA_LABEL = (r"(?:手机号?码?|手机|电话(?:号码?)?|联系电话|联系方式|座机(?:号码?)?|邮箱(?:地址)?|电子邮[件箱](?:地址)?|"
               r"身份证(?:号码?)?|银行卡(?:号码?)?|工资卡(?:号码?)?|卡号|微信(?:号)?|QQ(?:号)?|(?:家庭)?住址|地址|护照(?:号码?)?)")
_ONLY_PERSONAL_DATA = re.compile(rf"(?:我的?)?{_DATA_LABEL}?(?:是|为|[：:])?\s*(?:{PLACEHOLDERS.pattern})"
                                 rf"(?:\s*[和、/]?\s*(?:{PLACEHOLDERS.pattern}))*")


def _core(clause: str) -> str:
    return clause.strip().rstrip("，,。！!？?；;\n ")


def second_person(memory: str) -> str:
    """用户常驻杭州 → 您常驻杭州 (memories are stored in the third person)."""
    return re.sub(r"^用户", "您", memory.strip())


# one reply for thanks and greetings alike (好的 answered 你好 oddly): what to ask, and what to do when unclear
CHATTER_REPLY = "有制度方面的问题请直接问我，例如：年假有几天？刚才的回答没说清楚的话，可以换个说法再问一次。"


def acknowledgement(remembered: list[str], failure: str = "") -> str:
    """The reply line for what was remembered (or that nothing could be kept, or why it could not be)."""
    if failure:
        return "抱歉，记忆库暂时出错，这句话没能记住；请稍后再说一次，或请管理员查看记忆库。"
    if not remembered:
        return "好的，知道了。不过这句话里没有我能记住的个人信息；有制度问题请直接问我。"
    # what the person typed, repeated: a [资料3] in it is no citation (`neutralise_markers`)
    return "好的，我记住了：" + "；".join(neutralise_markers(second_person(m)) for m in remembered) + "。以后回答会参考这些信息（不作为制度依据）。"
