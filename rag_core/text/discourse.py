"""Words about the conversation, not about the person: acknowledgements, and clauses whose verb is one of
speaking or understanding.

好的 / 嗯嗯 / 谢谢 answer the assistant; 我知道了, 我不明白, 我不同意这个答案 say how the person took an answer;
我是说休息日加班, 我问的是婚假 say again what was asked. None of them is a fact about the person, and memory must
not keep them (seed 000's fourth trap: low-value write-back crowds out the real facts), nor is an
acknowledgement a question to search.

Grammar decides, with two closed classes rather than lists of sentences:
- response words, the interjections and short replies that answer a turn (好的, 嗯, 谢谢, 收到, 不对): a clause
  made of nothing else is an acknowledgement;
- speech and cognition verbs (说 问 讲 指 意思; 知道 明白 懂 理解 了解 清楚 同意 认同 赞同, and their result
  compounds 问错 听懂 …) as the first word after 我 that is not an adverb, 是/的 or 想/要, with no object of its own or one that is
  the answer itself (我知道了, 我不同意这个答案): the clause is about the conversation. With an object (我同意调岗了,
  我看到通知说年会放假) it is a fact or the topic of the question that follows, as any other clause. jieba's word, not a substring, so 我是讲师 (讲师) and 我是说明书编写员 (说明书) stay facts.
A cognition verb whose object is a question (我不知道怎么请病假, 我想知道试用期多久) embeds that question: it is
what is asked, not talk. A speech verb in the cleft or volitional form (我是说X, 我问的是X, 我指的是X, 我的意思是X, 我想问X) names what
was meant: X is a clarification, searched as a question.
"""

from __future__ import annotations

import re

from .asking import FIRST_PERSON, asks
from .tokenizer import tagged

_RESPONSE = (r"好的?|好吧|嗯+|哦+|噢+|喔+|行|对|是的?|ok|okay|谢谢|多谢|感谢|收到|明白|知道|了解|懂|清楚|可以|没问题|不对|"
             r"不是|辛苦")
# Greetings and laughter open or fill a conversation and ask nothing: a closed class like the response words.
# 在吗 asks only whether the assistant is there.
_GREETING = r"你好|您好|大家好|hi|hello|hey|嗨|哈喽|哈啰|早上好|上午好|中午好|下午好|晚上好|早安|午安|晚安|在吗|在么|在嘛|在不在|哈+|呵+|嘿+"
ACKNOWLEDGEMENT = re.compile(rf"^(?:(?:{_RESPONSE}|{_GREETING})(?:了|啦|呀|啊|哈|吧|的|您|你|呢|哈哈)*[ ，,。！!~～]*)+$",
                             re.IGNORECASE)
# A tag that asks whether what was just said holds (年假是5天，对吧？ / 我可以报销头等舱，是吧 / …，对不对？): the turn
# before it is asked, never told nor agreed with, though the tag is made of response words.
TAG_QUESTION = re.compile(r"(?:对吧|是吧|对不对|对不|是不是|对吗|对么|是吗|是么|不是吗|没错吧|没错吗|是这样吗|是这样吧|"
                          r"是这样的吧|是这样么)[吧呀啊]?[ ，,。！!？?~～]*$")
# An assent or denial with a question mark (对？ / 是的？ / 可以？) asks whether it holds; interjections (嗯？), thanks
# and greetings (在吗？) ask nothing the policies could answer.
_ASKED_BACK = re.compile(r"(?:对|是的?|不对|不是|可以|行|没问题|ok|okay)(?:了|啦|呀|啊|吧|的|呢)*[ 。！!~～]*[？?][ ？?。！!~～]*$",
                         re.IGNORECASE)
# 想问 and 想说 are one word to jieba (我想问的是婚假): the verb with its volition, a speech verb all the same
SPEECH_VERBS = frozenset("说 问 讲 指 意思 问问 说说 提问 问错 说错 打错 写错 说明 咨询 请教 想问 想说".split())
COGNITION_VERBS = frozenset("知道 明白 懂 理解 了解 清楚 同意 认同 赞同 看到 看懂 听懂 搞懂 弄懂 看错 听错 记住 觉得 认为".split())
# the potential form of understanding (看不懂, 听不明白, 搞得清楚): jieba keeps it one word, a cognition verb too
_UNDERSTANDS = re.compile(r"^[看听读搞弄想][不得]?(?:懂|明白|清楚)$")
# Verbs of asking, knowing and thinking: a clause with one says how the person takes the conversation or what
# they want to know, never who they are (我问过HR了, 我觉得年假太少), so memory keeps no fact holding one.
_ASKING_OR_KNOWING = frozenset("问 问问 问过 想问 提问 咨询 请教 了解 知道 觉得 认为".split())
# Words that may stand between 我 and the verb: adverbs of time, degree and negation, the copula and the
# particle of a cleft (我是说, 我的意思), volition (我想问).
# 来 of purpose (我是来问…), 在 of the progressive (我在问…), 刚 (我刚问的是…) and 随便 (我是随便问问) are adverbs too.
_BETWEEN = frozenset("是 的 想 要 就 就是 只是 还是 其实 刚 刚才 刚刚 之前 本来 也 都 还 又 真的 确实 完全 有点 有些 一直 "
                     "不 没 没有 不太 太 不大 并 所 可能 来 在 随便".split())
_OBJECT = re.compile(r"^(?:了|过|的|啊|呀|吧|啦|一下)+|[了啊呀吧啦。！!~～ ]+$")  # particles around no object at all
_ABOUT_THE_ANSWER = ("这个答案", "这个回答", "这些回答", "这样", "那样", "你", "您", "上面", "刚才的", "答案", "回答")
_RESPONSES = re.compile(rf"(?:谢谢你|谢谢您|哈+|{_RESPONSE})")  # 我明白了谢谢: thanks are no object either
# asking to know X: a wish or purpose (是想/是来/想/要 + 了解/知道/问/咨询) or the verb with 一下; with no subject of its own
# it goes on from the clause before (我是新员工，想问问年假)
_WISH = re.compile(r"^是?(?:还|也|就|只)?(?:(?:想|要|来)+(?:了解|知道|问问?|咨询|请教)(?:一下|下)?|"
                   r"(?:了解|知道|问问?|咨询|请教)(?:一下|下))")
# 我有个问题 / 想问个问题 / 我还有几个疑问(想问一下)：X: announces a question, X (after a colon or 想问) is what is
# asked. With a subject or without one (我是新员工，有个问题): it says nothing of the person either way. Without a
# subject, 有 needs a count: 有问题 / 有点问题 say something is wrong (电脑有点问题), not that one asks.
_COUNT = r"(?:一?个|几个|些|一些)"
_HAS_QUESTION = re.compile(r"^(?:还|又|也)?(?:有|(?:想|要)?(?:问|请教|咨询))(?:一?个|几个|些|一些|点|一点)?小?(?:问题|疑问)"
                           r"(?P<sep>(?:想|要)(?:问问?|请教|咨询)(?:一下|下)?[:：]?|[:：])?(?P<what>.*)$")
_ANNOUNCED_ALONE = re.compile(rf"^(?:还|又|也)?(?:有{_COUNT}小?(?:问题|疑问)|有(?:问题|疑问)(?=(?:想|要)?(?:问|请教|咨询))|"
                              rf"(?:想|要)?(?:问|请教|咨询){_COUNT}?小?(?:问题|疑问))")
# the start of a wish to know or of an announced question (想问下试用期, 也想了解一下…, 有个问题, 请教一下): a clause
# of its own wherever it stands
WISH_START = re.compile(rf"(?:还|也|就|只|又)?(?:(?:想|要)(?:了解|知道|问|咨询|请教)|有{_COUNT}小?(?:问题|疑问)|"
                        r"(?:问|请教|咨询)一?下)")
# a wish to know after a space, not a comma (我是新员工 想问下试用期): a clause of its own all the same; not after
# a bare pronoun (我 有个问题 is one clause, its subject and what it says)
WISH_AFTER_SPACE = re.compile(rf"(?<![我您你们])\s+(?={WISH_START.pattern})")
# A clause that supposes (如果我是经理, 我在研发部的话) says nothing of who the person is.
CONDITIONAL = re.compile(r"^(?:如果|假如|要是|假设|假使|倘若|若是|万一|比如说?)|的话$")
# 一下 of a wish (我想了解一下…), or the cleft 的是 (我想知道的是病假工资): not what is wanted
_WANTED = re.compile(r"^(?:一下|下|的(?:是|其实是))[，,：: ]*")
_PARTICLES = re.compile(r"[了吗呢啊呀吧啦？?！!。，, ]")  # 我明白了吗 embeds no question of its own
_MEANT = re.compile(
    r"^(?:刚才|刚刚|刚|其实|只是|就是|本来)?(?:是(?:想|要)?(?:说|问|讲|指)(?:的是)?|(?:想|要)(?:问|说)(?:的是)?|"
    r"(?:说|问|讲|指)的(?:是|其实是)|在(?:说|问|讲|指)(?:你|您)?|的意思是)[:：，, ]*(?:一下|(?<=问)下(?![周个午班次月]))?(?P<what>.*)$"
)


def acknowledges(clause: str) -> bool:
    """The clause only answers the assistant (好的, 嗯嗯, 谢谢, 好的谢谢, 不对), or holds no letter or digit at all
    (👍, ？？？, 🙏🙏): it asks nothing the policies could answer, so it is neither searched nor logged as a gap."""
    text = (clause or "").strip()
    if not any(ch.isalnum() for ch in text):
        return bool(text)
    return bool(ACKNOWLEDGEMENT.match(text)) and not asks_back(text)


def asks_back(text: str) -> bool:
    """The text ends by asking whether something holds: a tag (…，对吧？ / 是不是) or an assent with a question mark
    (对？): a question, never an acknowledgement. Not when all before the tag is talk (`tag_after_talk`)."""
    text = (text or "").strip()
    return bool(tag_at_end(text)) and not tag_after_talk(text)


def tag_at_end(text: str) -> re.Match[str] | None:
    """The tag or the assent asked back that ends the text (`asks_back`), wherever it stands."""
    return TAG_QUESTION.search(text) or _ASKED_BACK.search(text)


def tag_after_talk(text: str) -> bool:
    """A tag after words that only answer the assistant or say how its answer was taken (好的，是吧 / 我知道了，对吧 /
    我明白了，是这样吧。): it asks nothing of the policies, chatter as the words before it are. A bare tag (对吧？)
    asks whether the last answer holds; one after anything else (年假是5天，对吧？) asks whether that holds."""
    text = (text or "").strip()
    tag = tag_at_end(text)
    clauses = [c for c in _CLAUSE.findall(text[:tag.start()]) if c.strip()] if tag else []
    return bool(clauses) and all(not _ASSENT.match(c.strip()) and (acknowledges(c) or about_conversation(c) == "")
                                 for c in clauses)


# an assent or a denial before a tag (可以，对吧？ / 不是，是吗？) checks that the answer holds: a question, as a bare tag is
_ASSENT = re.compile(r"^(?:可以|没问题|行|对|是的?|不对|不是|不行)[了啦呀啊的]*[ ，,。！!]*$")


def about_conversation(clause: str) -> str | None:
    """What a clause about the conversation says was meant: None when the clause is not about the conversation
    (我在研发部), "" when it names nothing (我知道了, 我不明白, 我刚才问错了), else the words meant (我是说休息日加班 → 休息日加班)."""
    text = (clause or "").strip().rstrip("，,。！!？?；; ")
    if asks_back((clause or "").strip().rstrip("，,；; ")):
        return None  # 对吧？ / 是的？: asks whether something holds
    if acknowledges(text):
        return ""
    match = FIRST_PERSON.match(text)
    if not match and not _WISH.match(text) and not _ANNOUNCED_ALONE.match(text):
        return None
    rest = text[match.end():].lstrip() if match else text  # 我 有个问题: the space after the subject is none of it
    announced = _HAS_QUESTION.match(rest)
    if announced and (announced["sep"] or not announced["what"]):
        return announced["what"].strip()
    at, verb = 0, ""
    for word, _ in tagged(rest):
        if word.strip() and word not in _BETWEEN:
            verb = word
            break
        at += len(word)
    if verb not in SPEECH_VERBS and verb not in COGNITION_VERBS and not _UNDERSTANDS.match(verb):
        return None
    said = rest[at + len(verb):].strip("，,：: ")
    wanted = _WANTED.sub("", said)
    if verb in COGNITION_VERBS and asks(said) and len(_PARTICLES.sub("", said)) >= 2:
        return wanted  # an embedded question (我不知道怎么请病假, 我想知道试用期多久) is the question itself
    if rest.startswith("是") and wanted.endswith("的"):
        wanted = wanted[:-1]  # the 是…的 of purpose: 我是来问年假的 asks about 年假
    if _WISH.match(rest) and len(_PARTICLES.sub("", wanted)) >= 2:
        return wanted  # 我想了解一下报销流程, 我问一下加班费: what they want to know is what is asked
    meant = _MEANT.match(rest) if verb in SPEECH_VERBS else None
    if meant:
        return meant["what"].strip()
    # the verb's own object says what the clause is about: none (我知道了, 我刚才问错了) or the answer itself
    # (我不同意这个答案) is talk; anything else (我同意调岗了, 我看到通知说年会放假) is a fact or a question's topic
    return "" if not _OBJECT.sub("", _RESPONSES.sub("", said)) or said.startswith(_ABOUT_THE_ANSWER) else None


_CLAUSE = re.compile(r"[^，,。！!？?；;\n]+")
_SUBJECT = re.compile(rf"^\s*(?:{FIRST_PERSON.pattern}|用户)")


def asks_or_knows(text: str) -> bool:
    """Whether a clause of the text has a verb of asking, knowing or thinking as its main verb (用户想问问年假,
    用户觉得年假太少, 用户看不懂, 我刚问过HR了): what the person wants to know or thinks of an answer, never a
    fact about them. jieba's words, so 顾问 and 问题 are not 问; and the main verb, so a verb inside a noun phrase
    (我是咨询顾问, 我在咨询公司上班) names a job or a place, which is a fact."""
    return any(_main_verb_asks(clause) for clause in _CLAUSE.findall(text or ""))


def _main_verb_asks(clause: str) -> bool:
    """The first word after the subject (如 about_conversation; adverbs and time words skipped too) asks or knows,
    and is not the first word of a noun phrase: after 是 a noun follows it and no 的 of purpose closes the clause
    (我是咨询顾问, but 我是来咨询年假的), or after 在 a noun and then the clause's own verb follow (我在咨询公司上班,
    but 我在咨询年假)."""
    subject = _SUBJECT.match(clause)
    words = [(w, f) for w, f in tagged(clause[subject.end():] if subject else clause) if w.strip()]
    at = next((i for i, (w, f) in enumerate(words) if w not in _BETWEEN and not f.startswith(("d", "t"))), len(words))
    if at == len(words) or not (words[at][0] in _ASKING_OR_KNOWING or _UNDERSTANDS.match(words[at][0])):
        return False
    before, after = {w for w, _ in words[:at]}, words[at + 1:]
    if not after or not after[0][1].startswith(("n", "eng")):
        return True  # no noun after it: the verb itself (我问过HR了, 我觉得…, 我了解了)
    if "是" in before and words[-1][0] != "的":
        return False  # 我是咨询顾问: the copula's noun phrase
    if "在" in before and any(f.startswith("v") for _, f in after[1:]):
        return False  # 我在咨询公司上班: where one works, the clause's verb after it
    return True


def tells_before_a_wish(text: str) -> bool:
    """Whether the words before a wish to know, with no mark between (我怀孕了想问下产假, 我刚入职有几个疑问), say
    something of the person on their own, as a statement after a comma would: 我, then two characters at least,
    with a verb or adjective that is not an adverb, the copula or volition (我是来问下…, 我刚才想问… are the wish
    itself), or a change told with 了 (我生病了). A bare person (我老公想了解一下…) is only whose wish it is."""
    match = FIRST_PERSON.match((text or "").strip())
    if not match or match["who"] != "我":
        return False
    rest = text.strip()[match.end():].strip()
    content = [(w, f) for w, f in tagged(rest) if w.strip() and w not in _BETWEEN]
    if len("".join(w for w, _ in content)) < 2:
        return False
    return rest.endswith("了") or any(f.startswith(("v", "a")) for _, f in content)


def tells_of_the_person(clause: str) -> bool:
    """Whether memory may keep something from a clause: not a question, not words about the conversation, not a
    supposition (如果我是经理) and no verb of asking, knowing or thinking (我看不懂工资条, 我觉得加班费算错了).
    One test for both sides of a turn: a clause memory would drop is searched instead, so no turn is neither
    remembered nor searched."""
    return not (asks(clause) or about_conversation(clause) is not None or CONDITIONAL.search(clause)
                or asks_or_knows(clause))
