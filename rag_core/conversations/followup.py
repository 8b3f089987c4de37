"""Does a question lean on the previous turn, and what is it as a standalone question (offline rules)?

Grammar decides the clear cases; a question that names a subject of its own is
never glued to the previous one on grammar alone:

- 那…呢 / X呢 with no question word of its own: X replaces its counterpart in the
  previous question (年假→病假, 一线城市→二线城市) or is put in front of it;
- a pronoun (这个, 它, 上面说的 …): replaced by the previous question's subject;
- a question that names no subject (no noun: 需要谁审批？, 一个月能补几次？, 几天？):
  the previous subject is put in front; only a very short one (几天？) for certain, the others
  tentatively (below), since 公司能招16岁以下的人吗 names no word jieba tags as content either.

A question that does name a subject but opens like a fragment (那…, 如果…, 要不要…),
or is short (试用期的也有吗), gets a *tentative* rewrite: the facade searches both and takes the rewrite
only when it reads clearly more answerable and still finds the question's own words, and never when
the question names a noun the policies never use (`names_unknown_subject`: 班车 opens a new topic, a
new verb such as 换成 does not), unless it opens with 那… (`Rewrite.tentative`). With an LLM configured,
the LLM's rewrite is taken instead (`conversations/rewrite.py`). A subject is a noun by jieba's part-of-speech
tags, so no list of topics decides what a question is about.

"The previous question" is the previous turn's *search* question, which is already
standalone, so the subject and its qualifiers (一线城市、经理级) carry across turns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..text.tokenizer import NOUN_TAGS, foreign_nouns, is_stopword, tagged
from ..text.vocabulary import QUALIFIERS

_END = "？?。！!．. "
_CJK = re.compile(r"[\u4e00-\u9fff]")
# Longest first: "上面说的" must win over "这个"/"那个" inside a longer phrase.
PRONOUNS = (
    "上面说的这个", "上面说的", "上面提到的", "刚才说的", "刚才提到的", "前面说的", "你说的", "上述", "这期间", "这段时间",
    "这个", "这些", "这种", "这项", "这条", "这笔", "那个", "那些", "那种", "它们", "它", "该项", "此项",
)  # fmt: skip
DETERMINERS = ("这个", "那个", "这些", "那些")  # pronouns that may also stand before a noun of their own
LEADS = ("那如果是", "那如果", "那要是", "那么", "如果是", "要是", "那对于", "对于", "那")  # not 另外: it opens another question
QUESTION_WORDS = re.compile(r"多少|几|什么|怎么|怎样|如何|谁|哪|吗|是否|能否|能不能|可不可以|可以|需要|有没有|多久|多长")
# Where the predicate starts in a standalone question: the subject is what comes before.
PREDICATE = re.compile(
    r"是多少|有多少天|多少天|有多少|是什么|有哪些|有几天|有几个|有几|多少|几天|几个|几次|怎么办|怎么|怎样|如何|能不能|能否|可不可以|可以|是否|需要|"
    r"有没有|由谁|谁|哪|多久|多长|吗|呢|能|会|应该|必须|最多|最长|最少|要"
)
SHORT_CHARS = 4  # a question this short (CJK characters) cannot carry its own subject
# Members of one group stand in for each other: 那周末呢 after 工作日加班费… replaces 工作日.
CONTRASTS = (
    ("法定节假日", "节假日", "休息日", "工作日", "周末", "国庆节", "春节", "元旦", "中秋节", "端午节", "劳动节", "清明节"),
    ("普通员工", "员工", "经理", "总监", "部门负责人", "实习生", "试用期员工"),
    ("一类城市", "二类城市", "三类城市", "一线城市", "二线城市", "三线城市"),
)
# Part-of-speech tags of words that can be what a question is about (nouns, names, verbal nouns,
# abbreviations, Latin words); a question with none of them has no subject of its own.
SUBJECT_TAGS = NOUN_TAGS
# Words that carry content without being a noun (打卡, 值班, 国庆节/t): a question naming one may
# be about something of its own, which its search tells (a tentative rewrite).
CONTENT_TAGS = SUBJECT_TAGS | {"v", "t", "a", "an", "i", "l"}
# Content words that carry a topic (发工资/l, 国庆节/t), not an aspect of one (延长/v, 长/a).
TOPIC_TAGS = SUBJECT_TAGS | {"t", "an", "i", "l"}
# Nouns every question may carry without saying what it is about (公司, 钱; 标准, 材料 and 补助 ask for
# the standard, papers or money *of* something); modal verbs jieba sometimes tags as nouns (能报, 要交).
PLACEHOLDERS = frozenset(
    "公司 单位 员工 职工 人 钱 事 事情 问题 情况 时候 东西 标准 材料 手续 流程 条件 补助 补贴 津贴 福利 待遇 费用 奖励".split()
)
_MODALS = tuple("能会要可该想得")
# A word holding a question word asks; it names nothing (哪几个/l in 哪几个月有 was taken for the question's own topic,
# so its glued search, which found the 防暑费 months, was refused as "the last turn's topic only"). Stop 62: open
# follow-ups +1, followups part +1 (40 of 49) and cited +1, fresh and switches unchanged, as typed unchanged on all.
_INTERROGATIVE = re.compile(r"哪|几|什么|多少|怎么|怎样|如何|谁|多久|多长")
# Asking how something is approved or applied for is about the situation (出差), not the
# rate that was asked before (住宿标准): only the situation and its qualifiers are carried.
PROCEDURES = ("审批", "批准", "申请", "签字", "办理", "提交")
NOUNLESS = "没有名词主语"  # content words, but no noun: tentative, the rewrite preferred when it reads as answerable
NO_TOPIC = "没有说主题"  # no content word, but too long to be a bare fragment (公司能招16岁以下的人吗): tentative
CONTINUES = "承接上文"  # opens with 那 / 要是 / 如果 …: says it goes on from the last turn, though it names a subject
# A question this short (CJK characters) that names a subject may still ask about the last turn's topic
# (试用期的也有吗, 比例最低多少): tentative, like a noun-less one. Chosen on the open sessions among 8 / 12 / 16
# (complete questions searched as typed 0.96 / 0.94 / 0.94); fresh part: follow-ups resolved 0.60 -> 0.63,
# complete questions as typed unchanged; the 38 team dialogues 0.895 -> 0.921.
SHORT_WITH_SUBJECT = 8
SHORT = "短问题"


MODEL_REWRITE = "大模型改写"  # how the trace names a rewrite the LLM wrote (`Rewrite.explained`; the facade)


@dataclass(frozen=True)
class Rewrite:
    """The search question and why it differs from what was typed ("" when it does not)."""

    question: str
    reason: str = ""

    tentative: bool = False  # the question may stand alone: the facade searches both and decides (`_search_turn`)
    decision: str = ""  # how a tentative rewrite was settled, in words (for the trace)
    by_model: bool = False  # the LLM wrote `question` (`conversations.rewrite`); `reason` stays the rules' reason

    @property
    def explained(self) -> str:
        """The reason as the trace shows it: the rules' reason, and who wrote the rewrite when a model did."""
        return f"{self.reason}（{MODEL_REWRITE}）" if self.by_model and self.reason else self.reason

    @property
    def rewritten(self) -> bool:
        return bool(self.reason)


def content_words(question: str, tags: frozenset[str] = CONTENT_TAGS) -> list[str]:
    """Words of two or more characters with one of `tags` that say something (忘记打卡了怎么办 → [忘记, 打卡])."""
    words = []
    for word, tag in tagged(question):
        if tag not in tags or len(word) < 2 or word in PLACEHOLDERS or is_stopword(word):
            continue
        if word.startswith(_MODALS) and len(word) == 2:
            continue
        if _INTERROGATIVE.search(word):
            continue
        words.append(word)
    return words


def keeps_own_words(question: str, texts: list[str]) -> bool:
    """Some topic word of `question` itself occurs in `texts` (what a rewrite's search found), or it has none.

    A rewrite that finds only the previous turn's topic (年假 clauses for 年假 + 公司几号发工资) has
    lost the question: it was a new one. A verb or adjective asks about an aspect of the earlier topic
    (试用期 + 能延长吗: the clauses need not say 延长, the answer may be that they do not), so it does not count."""
    rest, _ = _strip_lead(_strip(question))
    own = content_words(rest, TOPIC_TAGS)
    return not own or any(word in text for word in own for text in texts)


def names_unknown_subject(question: str, unknown: list[str]) -> bool:
    """A noun the question names is one the policies never use (公司有班车吗: 班车): it opens a new topic.

    A verb or time word they never use (换成, 休不完, 今年) only says what is asked about the topic
    already under discussion, so it does not make the question a new one."""
    # the noun itself, or a longer search word holding it; not a piece cut from a known noun (车费 of 打车费)
    return bool(foreign_nouns(subject_words(_strip_lead(_strip(question))[0]), unknown))


def subject_words(question: str) -> list[str]:
    """The nouns a question names that can be what it is about (公司有班车吗 → [班车]; 能报吗 → [])."""
    return content_words(question, SUBJECT_TAGS)


def _strip(question: str) -> str:
    return question.strip().rstrip(_END).strip()


def _strip_lead(text: str) -> tuple[str, bool]:
    for lead in LEADS:
        if text.startswith(lead) and len(text) > len(lead) and not any(text.startswith(p) for p in PRONOUNS):
            return text[len(lead) :].lstrip("，, "), True
    return text, False


def _cjk_len(text: str) -> int:
    return len(_CJK.findall(text))


def _refers_back(text: str) -> bool:
    """A pronoun points back to the previous turn: 这个需要谁批, 这种情况, 这笔钱 — but not a demonstrative
    that is the determiner of a noun of its own (这个月工资什么时候发, 这个季度的奖金, 这个周末): that noun is the subject."""
    return pronoun_in(text) is not None


def pronoun_in(text: str) -> tuple[int, str] | None:
    """Where `text`'s first pronoun pointing back stands, and which it is; None when it has none.

    A pronoun counts only as words of its own: one inside a longer word (它 of 其它) or running into the next
    word (那种 of 那|种植牙, 这项 of 这|项目) is not one. A determiner before a noun of its own is not either."""
    if not any(p in text for p in PRONOUNS):
        return None
    pairs = tagged(text)
    starts: dict[int, str] = {}  # where each word starts → the word
    ends: set[int] = set()
    masked, at = text, 0
    for i, (word, _) in enumerate(pairs):
        at = text.find(word, at)
        starts[at] = word
        ends.add(at + len(word))
        after, tag = pairs[i + 1] if i + 1 < len(pairs) else ("", "")
        if word in DETERMINERS and (tag in SUBJECT_TAGS or tag == "t") and len(after) >= 2 and after not in PLACEHOLDERS:
            masked = masked[:at] + " " * len(word) + masked[at + len(word) :]
        at += len(word)
    for pronoun in PRONOUNS:
        at = masked.find(pronoun)
        while at >= 0:
            if at in starts and (at + len(pronoun) in ends or starts[at].startswith(pronoun)):
                return at, pronoun
            at = masked.find(pronoun, at + 1)
    return None


def dependence(question: str) -> str:
    """Why `question` needs the previous turn ("" when it stands on its own)."""
    text = _strip(question)
    if not text:
        return ""
    rest, led = _strip_lead(text)
    if rest.endswith("呢"):
        body = rest[:-1].removesuffix("的话")
        if body and not QUESTION_WORDS.search(body):
            return "那…呢"
    if _refers_back(text):
        return "指代上文"
    if not content_words(rest):
        return "问题太短" if _cjk_len(text) <= SHORT_CHARS else NO_TOPIC
    if not subject_words(rest):
        return NOUNLESS
    if led:
        return CONTINUES
    if _cjk_len(text) <= SHORT_WITH_SUBJECT:
        return SHORT
    return ""


# Reasons grammar settles; the others leave the question to its search. A question with no content word
# but more than SHORT_CHARS characters (公司能招16岁以下的人吗: 招 is one character) is not among them since stop 43:
# open sessions +3 complete questions as typed, fresh part and the 38 dialogues unchanged.
CERTAIN = frozenset({"那…呢", "指代上文", "问题太短"})


def subject_of(question: str) -> str:
    """A standalone question without its question words: 差旅费怎么报销 → 差旅费报销, 出差住宿标准是多少 → 出差住宿标准."""
    text, _ = _strip_lead(_strip(question))
    if PREDICATE.match(text):
        return text
    subject = PREDICATE.sub("", text).strip("，,的 ")
    return subject if len(subject) >= 2 else text


def _counterpart(previous: str, new: str) -> tuple[int, int] | None:
    """The span of `previous` that `new` stands in for (same ending, same length), or None."""
    bounds: list[int] | None = None
    for k in range(len(new) - 1, 0, -1):
        ending = new[-k:]
        at = previous.find(ending)
        if at < 0:
            continue
        bounds = bounds if bounds is not None else _word_bounds(previous)  # tagged once, only when needed
        start, end = _whole_words(bounds, max(0, at - (len(new) - k)), at + k)
        span = previous[start:end]
        if span != new and _CJK.fullmatch(span[0] or "") and not QUESTION_WORDS.search(span):
            return start, end
    return None


def _word_bounds(text: str) -> list[int]:
    """Where each word of `text` starts, and its end."""
    bounds = [0]
    for word, _tag in tagged(text):
        bounds.append(bounds[-1] + len(word))
    return bounds


def _whole_words(bounds: list[int], start: int, end: int) -> tuple[int, int]:
    """The span widened to the words it touches: 医保 stands in for 养老保险, not for its 老保."""
    start = max(b for b in bounds if b <= start)
    end = min((b for b in bounds if b >= end), default=end)
    return start, end


def _contrast(previous: str, new: str) -> str | None:
    for group in CONTRASTS:
        mine = next((w for w in group if w in new), None)
        theirs = next((w for w in group if w in previous and w != mine and w not in new), None)
        if mine and theirs:
            return previous.replace(theirs, new, 1)
    return None


def _substitute(previous: str, new: str) -> str:
    new = new.strip("，, 的")
    if not new or new in previous:
        return previous
    if (swapped := _contrast(previous, new)) is not None:
        return swapped
    span = _counterpart(previous, new)
    if span:
        return previous[: span[0]] + new + previous[span[1] :]
    return new + previous


def _situation(subject: str) -> str:
    """The situations and qualifiers a subject names, in order (一线城市出差住宿标准 → 一线城市出差); "" when none."""
    words = {w for w in QUALIFIERS if w in subject} | {w for group in CONTRASTS for w in group if w in subject}
    words = {w for w in words if not any(w != other and w in other for other in words)}
    return "".join(sorted(words, key=subject.index))


def another_of_the_kind(subject: str, rest: str) -> tuple[str, str] | None:
    """(the last turn's noun, the question's) when the question names another thing of the kind the last one asked
    about: two nouns ending in one head character with different modifiers (婚假/产假, 餐费/车费). Such a question
    carries its own subject: glued, 婚假有几天 then 产假需要什么材料 searched 婚假产假需要什么材料 and was refused
    as not about 产假 (review 393 #1); swapped in, 加班费怎么算 then 加班餐费怎么报 searched 餐费算加班餐费怎么报
    (review 394 #6). Morphemes, not a list of kinds."""
    for mine in subject_words(rest):
        for theirs in subject_words(subject):
            if min(len(mine), len(theirs)) >= 2 and mine[-1] == theirs[-1] and mine not in theirs and theirs not in mine:
                return theirs, mine
    return None


def rule_rewrite(question: str, previous: str | None) -> Rewrite:
    """The standalone form of `question` after `previous` (the last search question), by rules."""
    raw = question.strip()
    reason = dependence(raw) if previous else ""
    if not reason or not previous:
        return Rewrite(raw)
    prev = _strip(previous)
    text = _strip(raw)
    mark = "？" if raw[-1:] in "？?" or reason == "那…呢" else ""
    rest, _ = _strip_lead(text)
    subject = subject_of(prev)
    if any(p in rest for p in PROCEDURES) and not any(p in subject for p in PROCEDURES):
        subject = _situation(subject) or subject
    if reason == "那…呢":
        body = rest[:-1].removesuffix("的话")
        rewritten = _substitute(prev, body)
        return Rewrite(rewritten + "？", reason)
    if reason == "指代上文":
        found = pronoun_in(rest)
        if found:
            at, pronoun = found
            tail = rest[at + len(pronoun) :]
            for k in range(len(subject), 1, -1):  # 上面说的标准 + 出差住宿标准: the noun is not repeated
                if tail.startswith(subject[-k:]):
                    tail = tail[k:]
                    break
            filler = subject if subject not in rest else ""
            return Rewrite(rest[:at] + filler + tail + mark, reason)
    tentative = reason not in CERTAIN
    kinds = another_of_the_kind(subject, rest) if tentative else None
    if kinds and reason == SHORT:
        return Rewrite(raw, "", decision=f"问题自己点名了“{kinds[1]}”（上文问的是同类的“{kinds[0]}”），是新问题，不结合上文")
    if kinds:  # one that says it goes on (那…): the other thing in the last one's place, the situation kept
        subject = subject.replace(kinds[0], kinds[1], 1)  # 那交通费要发票吗 after 出差住宿费 keeps 出差 (396 #1);
        # 那产假需要什么材料 after 婚假有几天 is then the question itself (397 #1)
    if subject and subject in rest:
        return Rewrite(rest + mark, reason, tentative)
    return Rewrite(subject + rest + mark, reason, tentative)


CLARIFIES = "澄清上文"  # 我是说X / 我问的是X: X replaces what it corrects in the last question


def clarify(meant: str, previous: str | None) -> Rewrite:
    """The question a clarification asks: what was meant stands in for its counterpart in the previous question
    (我是说休息日加班 after 加班有加班费吗 → 休息日加班有加班费吗; 不对，我问的是婚假 after 年假有几天 → 婚假有几天),
    as the X of 那X呢 does. When nothing in the previous question is its counterpart (我是想问年假 after 加班费怎么算)
    the glued text is only tentative: the facade keeps it only when it reads clearly more answerable."""
    raw = meant.strip()
    if not previous or not raw:
        return Rewrite(raw)
    prev, new = _strip(previous), _strip(raw).strip("，, 的")
    if new in prev:
        return Rewrite(prev + "？", CLARIFIES)
    swapped = _contrast(prev, new)
    if swapped is None and (span := _counterpart(prev, new)):
        swapped = prev[: span[0]] + new + prev[span[1] :]
    if swapped is not None:
        return Rewrite(swapped + "？", CLARIFIES)
    return Rewrite(new + prev + "？", CLARIFIES, tentative=True)
