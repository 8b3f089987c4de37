"""Text helpers for memories: keyword overlap, distinguishing terms, fact slots.

Embeddings cannot tell 用户对花生过敏 from 用户对芒果过敏 (raw e5 cosine 0.965, while
the paraphrase 用户吃花生会过敏 is 0.988), nor 研发部 from 销售部 (0.967). So dedup
also compares the nouns, names, places, numbers and Latin words of both texts, and
contradiction detection works on explicit slots (department, city, manager, name)
read by rules rather than on similarity.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..text.asking import first_name, is_a_name, opens_with_asker, third_person
from ..text.places import branch_city, is_city
from ..text.tokenizer import tagged, tokenize

# Words every memory or question shares; they distinguish nothing.
_GENERIC = frozenset(
    "用户 员工 同事 公司 时候 时 事情 问题 情况 东西 方面 内容 形式 方式 回答 答案 几 几天 多少 多久 什么 哪些 "
    "年 月 日 天 今天 明天 现在 以后".split()
)
_KEY_FLAGS = ("n", "eng", "m")  # prefixes of jieba POS flags: nouns (nr/ns/nt/nz…), Latin words, numbers
_ALNUM = re.compile(r"[0-9A-Za-z]")  # jieba tags a lone digit "x"; 第 0 条 ≠ 第 1 条


def keyword_terms(query: str) -> list[str]:
    """The question's words that can count as a keyword hit (≥ 2 chars, or Latin/digits)."""
    terms = []
    for t in tokenize(query):
        if t in _GENERIC:
            continue
        if len(t) >= 2 or t.isascii():
            terms.append(t)
    return sorted(set(terms))


def keyword_overlap(terms: list[str], content: str) -> float:
    """Share of the question's terms found verbatim in the memory.

    Substring, not token equality, because jieba segments the same name differently
    in different sentences (张三擅长 → 张三 but 张三是 → 张三是).
    """
    if not terms:
        return 0.0
    low = content.lower()
    return sum(1 for t in terms if t in low) / len(terms)


@lru_cache(maxsize=4096)
def key_terms(content: str) -> frozenset[str]:
    """Nouns, names, places, numbers and Latin words: what makes a fact *this* fact."""
    pairs = [(word.strip().lower(), flag) for word, flag in tagged(content)]
    return frozenset(
        w for w, flag in pairs if w and w not in _GENERIC and (flag.startswith(_KEY_FLAGS) or _ALNUM.search(w))
    )


@lru_cache(maxsize=4096)
def grounding_terms(content: str) -> frozenset[str]:
    """The names a fact rests on (星辰科技, 杭州, 研发部): nouns and Latin words of two or more characters.

    Numbers are left out: 12 in 用户参加工作12年了 would be found in almost any clause."""
    return frozenset(
        w.strip().lower() for w, flag in tagged(content)
        if len(w.strip()) >= 2 and w.strip() not in _GENERIC and flag.startswith(("n", "eng")) and not w.strip()[:1].isdigit()
    )


def grounded_in(content: str, evidence: str) -> bool:
    """Whether the sources an answer stands on name what this fact names."""
    low = evidence.lower()
    return bool(evidence) and any(term in low for term in grounding_terms(content))


# Copulas and modal verbs say how a fact is put, not what it is (用户下个月要休产假 = 用户下个月休产假): a closed class.
_FUNCTION_VERBS = frozenset("是 有 在 要 会 能 想 可 可以 需要 应该 得 已经".split())
_CONTENT_FLAGS = ("n", "v", "a", "t", "m", "eng", "i", "l", "j")  # nouns, verbs, adjectives, time words, numbers …


@lru_cache(maxsize=4096)
def content_terms(content: str) -> frozenset[str]:
    """Every content word but the person and copulas/modals: what a fact names when it names no noun
    (用户下个月结婚 → {下个月, 结婚}; 用户刚入职 → {入职})."""
    return frozenset(
        w for w, flag in ((word.strip().lower(), flag) for word, flag in tagged(content))
        if w and w != "用户" and w not in _FUNCTION_VERBS and (flag.startswith(_CONTENT_FLAGS) or _ALNUM.search(w))
    )


def same_fact_terms(a: str, b: str) -> bool:
    """True when one text's terms contain the other's (a paraphrase or a subset).

    The terms are the key terms (nouns, names, numbers, Latin words). A fact that names none of them
    (用户下个月结婚, 用户刚入职) is told apart by its verbs and time words instead, on both sides: an
    empty set is a subset of every set, so 用户下个月结婚 read as a restatement of 用户老婆怀孕了 and
    was merged into it. Two facts with nothing to compare are never the same."""
    if negated(a) != negated(b) or about_someone_else(a) != about_someone_else(b):
        return False  # 用户不在杭州了 denies 用户常驻杭州; 用户老婆在杭州 is another person's
    return _same_terms(a, b)


def _same_terms(a: str, b: str) -> bool:
    ka, kb = key_terms(a), key_terms(b)
    if not ka or not kb:
        ka, kb = content_terms(a), content_terms(b)
    return bool(ka) and bool(kb) and (ka <= kb or kb <= ka)


def adds_detail(new: str, old: str) -> bool:
    """Whether a restatement says all the older text says and more (用户怀孕7个月了 after 用户怀孕了, 用户对花生和芒果过敏
    after 用户对花生过敏): its terms strictly contain the older's. Then the row takes the new wording; a restatement
    that names no more (new ⊆ old: 用户在杭州上班 after 用户常驻杭州) keeps the older text. The key terms decide;
    when they are the same, or one text names none, every content word does (用户常驻杭州，经常出差)."""
    kn, ko = key_terms(new), key_terms(old)
    if not kn or not ko or kn == ko:
        kn, ko = content_terms(new), content_terms(old)
    if not says_all(new, old):
        return False
    # and of the same person: a term the new text adds before the first one they share is a new subject (用户嫂子怀孕7个月了
    # after 用户怀孕了): another person's fact, never a detail of this one (review 199)
    # (a count before it, 两个孩子, is detail of the same fact)
    before = _before_terms(new, ko)
    return bool(ko) and kn > ko and not any(term in before for term in kn - ko if not _COUNT.fullmatch(term))


def says_all(new: str, old: str, *, but: tuple[str, ...] = ()) -> bool:
    """Whether `new` names all `old` names (its key terms; when either names none, its content words), `but` the
    values a contradiction changes (杭州 when 用户常驻上海 contradicts 用户常驻杭州，对花生过敏: 花生 is still unsaid).
    What decides whether a new text may take an older one's place: add() rewords a restated row only then
    (`adds_detail`), an edit replaces another row only then (`MemoryStore.update_text`)."""
    kn, ko = key_terms(new), key_terms(old)
    if not kn or not ko:
        kn, ko = content_terms(new), content_terms(old)
    return {t for t in ko if not any(t in v or v in t for v in but)} <= kn


_COUNT = re.compile(r"[\d一二两三四五六七八九十几多]+[个位名只条次]?")


def _before_terms(text: str, terms: set[str]) -> str:
    """`text` up to the first of `terms` in it."""
    starts = [text.find(t) for t in terms if t in text]
    return text[: min(starts)] if starts else text


# 不/没/未/不再 as a denial, not inside a word (不错, 不过, 不同, 未来): 用户对花生不过敏 denies 用户对花生过敏. Leaving a
# unit or a place denies it too (用户离开研发部了, 用户调离杭州了): read as a restatement, it strengthened the old fact.
_NEGATION = r"(?:(?:不再|不|没有?|未)(?!错|过(?!敏)|少|同|久|但|仅|管|论|然|如|断|来|准|一定)|(?:离开|调离|退出)了?)"
_NEGATED = re.compile(_NEGATION)
_NEGATED_BEFORE = re.compile(_NEGATION + r"[\u4e00-\u9fff]{0,2}$")  # 不在 / 不再常驻 / 不是 / 已经不 right before a slot
# what may stand between a denial and the value it denies: only a slot's own verb (不在杭州, 不再常驻杭州, 不是研发部的);
# another verb turns it into something else (不喜欢杭州, 不想再去北京, 没有去过研发部)
_SLOT_VERB = r"再?(?:在|是|常驻|常住|驻|属于|待在|留在)?\s*"


def negated(content: str) -> bool:
    """Whether a fact says something is not so (用户已经不在杭州了, 用户老婆没工作)."""
    return bool(_NEGATED.search(content or ""))


def denies(new: str, old: str, *, near: bool) -> bool:
    """Whether `new` says `old` is no longer so: the user's own slot value named after a denial (用户已经不在杭州了
    against 用户常驻杭州, whatever their similarity), or, for texts close by meaning, the same terms with the
    denial on one side only (用户对花生不过敏了 against 用户对花生过敏)."""
    if negated(new) == negated(old) or about_someone_else(new) or about_someone_else(old):
        return False
    if negated(new) and any(_denied(new, v) for v in slots(old).values()):
        return True
    return near and _same_terms(new, old)


_LEFT = re.compile(r"离开|调离|退出")


def _denied(new: str, value: str) -> bool:
    """`value` named after a denial in `new`. Left (用户离开研发部了) only when it ends the clause: 用户离开杭州出差了
    is a trip, the person still lives there."""
    for m in re.finditer(_NEGATION + _SLOT_VERB + re.escape(value), new):
        if not _LEFT.match(m.group()) or re.match(r"了?(?:$|[，,。；;])", new[m.end():]):
            return True
    return False


# ---- slots: facts of which a user has exactly one value at a time -------------------

_CJK = r"\u4e00-\u9fff"
NOT_SOMEONE = r"(?![他她它]|(?i:ta)|对方|人家)"  # what one calls someone else (我叫他小王, 我叫TA): no name of theirs
_UNIT = rf"[{_CJK}A-Za-z0-9]{{1,10}}?(?:事业部|部门|中心|团队|部|组)"
# what one is in a unit at work (经理, 副总监, 高级工程师, 员工)
_TITLE = (r"(?:副|总|代理|高级|资深|首席)*(?:经理|主管|总监|组长|部长|主任|负责人|专员|员工|职员|助理|秘书|文员|实习生|"
          rf"[{_CJK}]{{0,3}}师|leader|Leader|HRBP|BP)")
# units of a side post, beside the job (党支部, 团委, 工会小组, 篮球俱乐部, 摄影协会): never the person's department
_SIDE_UNIT = re.compile(r"支部|总支|党小组|党委|团委|工会|俱乐部|协会|社团|学生会|委员会|兴趣小组")
# a time or a wish before the verb that is not now (我以前一直在北京工作, 我原来常驻北京, 我下个月调到上海, 我想在上海
#工作): no city or department of the person's now (reviews 396 #3, 397 #3); 以后 is not among them (毕业以后在上海工作)
_NOT_NOW_BEFORE = re.compile(r"以前|之前|原来|曾经|过去|明天|后天|下周|下个?月|明年|将来|打算|准备|计划|想")
_SLOT_PATTERNS: dict[str, list[re.Pattern[str]]] = {
    "department": [
        re.compile(rf"(?:调到了?|调去了?|调至|转到了?|转岗到了?|调岗到了?|加入了?)\s*(?P<v>{_UNIT})"),
        re.compile(rf"(?:在|是)\s*(?P<v>{_UNIT})(?:的|员工|工作|上班|任职|同事|$|[，,。；;])"),
        # a post in a unit (是研发部经理, 是市场部主管了): the unit is the department. Two characters at least before the
        # unit's ending, so 小组长 names no unit; a work title after it, so a side post (党支部书记, 俱乐部部长) is none
        re.compile(rf"是\s*(?P<v>[{_CJK}A-Za-z0-9]{{2,10}}?(?:事业部|部门|中心|团队|部|组))(?=(?:{_TITLE})了?$)"),
        # verbs of going (去, 换到, 回, 归): a move only when the unit ends the clause (我去人事部了), not an errand
        # there (我去人事部办手续)
        re.compile(rf"(?:去了?|换到了?|换去了?|回到?了?|归到?了?)\s*(?P<v>{_UNIT})(?=了?(?:工作|上班|任职|管)?了?(?:$|[，,。；;\s]))"),
    ],
    "city": [
        re.compile(rf"(?:常驻|常住|驻地是|驻地在|base在?|工作地点?(?:是|在|改成了?|换成了?|变成了?|换到了?))\s*(?P<v>[{_CJK}]{{2,4}}?)(?:市)?(?=[，,。；;\s]|$|了|办公|工作|上班|经常)"),
        # moved to a place (调到上海了): the new city; a unit (调到研发部) is a department, never a city
        re.compile(rf"(?:调到了?|调去了?|调至|调往|外派到了?|外派去了?|派驻到?|常驻到)\s*(?P<v>[{_CJK}]{{2,4}}?)(?:市)?"
                   rf"(?=[，,。；;\s]|$|了|办公|工作|上班|分公司|办事处|常驻|长期)(?<!了)(?<!部)(?<!组)(?<!中心)(?<!团队)"),
        # everyday wordings of where one is now (在上海上班, 搬到上海了, 住在上海, 回上海了, 我在上海): these verbs take
        # any place (在公司上班, 回老家, 住在宿舍), so the value must be a place name (`_PLACE_ONLY`)
        re.compile(rf"(?:(?<![现正实存所好自])在|住在|搬到了?|搬去了?|搬回了?|回到?了?)\s*(?P<v>(?!在)[{_CJK}]{{2,4}}?)(?:市)?"
                   rf"(?=工作|上班|办公|定居|生活|分公司|办事处|了?(?:$|[，,。；;\s]))"),
        # going to a place is a move only for work or living there, said as done (我去上海工作了, 我到上海上班了), and
        # moving house only with 搬 (我搬去上海住了): a trip (我明天去北京, 我到上海住酒店了) keeps the home city
        re.compile(rf"(?:去了?|到了?|来了?)\s*(?P<v>(?!在)[{_CJK}]{{2,4}}?)(?:市)?"
                   rf"(?=(?:工作|上班|办公|定居|生活)了?(?:$|[，,。；;\s]))"),
        re.compile(rf"搬(?:到|去|回)了?\s*(?P<v>[{_CJK}]{{2,4}}?)(?:市)?(?=住了?(?:$|[，,。；;\s]))"),
    ],
    "manager": [
        re.compile(rf"(?:直属主管|直属领导|直属上级|主管|领导|上级|上司|经理|老板|leader)(?:是|为|换成了?|变成了?|改成了?)\s*(?P<v>[{_CJK}A-Za-z]{{2,4}}?)(?=[，,。；;\s]|$|了)"),
    ],
    "name": [
        re.compile(rf"(?:我叫|名叫|名字是|姓名是)\s*{NOT_SOMEONE}(?P<v>[{_CJK}A-Za-z]{{2,4}}?)(?=[，,。；;\s]|$|了)"),
    ],
}
# Words that point at a place or unit instead of naming one, or a possessive's 的 (用户所在的部门: 的部门) (我们公司, 哪个部门, 本公司, 贵司, 该市): whole words, so a
# city that merely begins with the same character (贵阳, 本溪) is still a value.
_NOT_A_VALUE = re.compile(r"^(?:的|我们|这个|那个|这里|那里|哪|什么|(?:本|贵|该|此)(?:公司|司|集团|单位|部门|部|中心|团队|组|市|地|处))")
# the patterns whose verb takes any place: their city must be a known city (`text.places`), one jieba tags a place
# name (ns), or one said with 市
_PLACE_ONLY = frozenset(_SLOT_PATTERNS["city"][-3:])


def _place(m: re.Match[str], value: str) -> str | None:
    """The city a city pattern's value names, or None. A branch (分公司/办事处) is named by a region, an ordinal or a
    function as often as by a city (华东分公司, 第二分公司, 海外办事处, 销售办事处), and jieba tags regions (华东),
    provinces and districts as places too: before one, `places.branch_city` decides (新加坡, 上海浦东 → 上海)."""
    if m.group(0).endswith("市"):
        return value
    if m.string.startswith(("分公司", "办事处"), m.end()):
        words = tagged(value)
        return branch_city(value, len(words) == 1 and words[0][1] == "ns")
    if m.re not in _PLACE_ONLY:
        return value
    words = tagged(value)
    return value if is_city(value) or (len(words) == 1 and words[0][1] == "ns") else None


# a determiner before the other person (某同事, 那个客户, 一位朋友)
_SOME = r"(?:某[个位]?|[那这][个位]|有[个位]|一[个位名])?"
# Who else a fact can be about: 用户同事在研发部 and 用户老婆常驻北京 say nothing of the user's own department or city.
# The other person is the clause's subject, right after 用户 (的): 用户带他的团队 and 用户从其他部门 are the user's own.
# Kin are named with a prefix as often as not (老爸, 亲姐, 表哥, 男朋友, 未婚妻, 外婆).
_OTHERS = re.compile(
    rf"^\s*(?:用户)?(?:的)?\s*{_SOME}(?:(?i:ta)(?![A-Za-z])|对方(?![案面向法式])|人家|同事|老婆|老公|妻子|丈夫|爱人|"
    "太太|媳妇|先生|孩子|小孩|儿子|女儿|闺女|父亲|母亲|父母|家人|家属|亲戚|(?:老|亲|表|堂|大|小|二|三)?(?:爸|妈|哥|姐|弟|妹)|(?:男|女)?朋友|未婚[妻夫]|爷爷|奶奶|外公|外婆|姥姥|姥爷|"
    "祖父|祖母|叔|伯|舅|姨|姑|婶|侄|外甥|孙[子女]|嫂|女婿|儿媳|公婆|岳父|岳母|公公|婆婆|对象|男友|女友|前妻|前夫|"
    "室友|同学|下属|部下|领导|主管|上级|上司|经理|老板|客户|别人|他|她)"
)

CLAUSE = _CLAUSE = re.compile(r"[^，,。；;]+")  # a clause of a memory (`editing.without_changed` reads it too)


def about_someone_else(content: str) -> bool:
    """Whether a fact's subject is another person (用户老婆在杭州, 我同事在研发部), not the user."""
    first = _CLAUSE.search(content or "")
    return bool(first) and bool(_OTHERS.search(_subject(first.group(), [m.start() for _, m in _matches(first.group())])))


# Who is outside the person's family: a colleague, a boss, a friend, a client. Family facts bear on the person's own
# entitlements (用户老婆怀孕了: 陪产假; 用户爸住院了: 护理假); an outsider's (用户同事张三得了癌症) are that person's private
# data, not the user's situation.
_OUTSIDERS = re.compile("(?i:ta)(?![A-Za-z])|对方|人家|同事|同学|室友|舍友|邻居|(?<![男女])朋友|下属|部下|领导|主管|上级|上司|"
                        "经理|老板|客户|别人|他|她")


def about_an_outsider(content: str) -> bool:
    """Whether a fact is about someone outside the person's family (用户同事张三得了癌症, 用户领导李四在闹离婚,
    用户所在的部门的小张怀孕了, 王五住院了), and gives no slot of the user's own (用户领导是李四 names the user's
    manager) nor says who a relation of theirs is (用户的室友是张三, whatever the relation's word; 部门的经理姓王)."""
    first = _CLAUSE.search(content or "")
    named = _RELATION_IS.match(first.group()) if first else None
    if not first or slots(content) or named and (is_a_name(named["v"]) or named["surname"] and len(named["v"]) == 1):
        return False
    clause = first.group()
    subject = _subject(clause, [m.start() for _, m in _matches(clause)])
    if other := _OTHERS.search(subject):
        end = other.end() if _OUTSIDERS.search(subject) else None
    else:
        end = _someone_of(clause)
    # the person named again after the other one is in it too: as the object (派用户出差, 批了用户的婚假) or beside
    # them (用户同事和用户都在研发部); not as the one told (用户同事告诉用户他得了癌症 is still that colleague's data)
    return end is not None and not _AGAIN.search(_TOLD_TO.sub("", clause[end:]))


_AGAIN = re.compile(r"用户|我|本人")
_RELATION_IS = re.compile(r"^\s*用户(?:所在的[^，,。；;的]{1,6}的|的)?[^，,。；;是为叫姓]{1,6}?(?:是|为|叫|换成了?|变成了?|(?P<surname>姓))"
                          r"(?P<v>[^，,。；;]{1,8}?)了?$")
# someone of a unit or a place near the person (用户所在的部门的小张, 用户隔壁工位的王五): the clause's subject is them
_OF_A_PLACE = re.compile(r"^\s*(?:用户)?(?:所在的|的)?(?P<place>[^，,。；;的用我]{1,8})的(?P<rest>.+)$")
def _someone_of(clause: str) -> int | None:
    """Where a unit's or a place's someone, the clause's subject, ends (用户所在的部门的小张怀孕了 → after 小张)."""
    if not (m := _OF_A_PLACE.match(clause)) or any(tag.startswith(("v", "p")) for _, tag in tagged(m["place"])):
        return None
    if (other := _OTHERS.match(m["rest"])) and _OUTSIDERS.search(other.group()):
        return m.start("rest") + other.end()
    return m.start("rest") + len(word) if (word := first_name(m["rest"])) else None


def opens_with_a_name(clause: str) -> bool:
    """Whether a clause as typed opens with someone's name and tells of them (王五住院了), not of the person too (张三和我
    都在研发部, wherever 我 is). Only where the person's own name is known (`about_the_person`): a memory may name its person (王五下个月
    结婚, kept for 王五), so stored rows are not read this way."""
    text = (clause or "").strip()
    if not (word := first_name(text)) or opens_with_asker(text):
        return False
    return not _AGAIN.search(_TOLD_TO.sub("", text[len(word):].replace("我", "用户")))


def as_the_person(content: str) -> str:
    """A memory in the third person, as chat keeps it (我同事张三得了癌症 → 用户同事张三得了癌症): one typed on the
    memories page is stored as typed, and the rules that read a fact's subject (`about_an_outsider`) read 用户."""
    text = (content or "").strip()
    return text if text.startswith("用户") else third_person(text)


_TOLD_TO = re.compile(r"(?:告诉|通知|转告|透露给|提醒)用户|用户(?:说|讲|提到?|透露|聊)")


def _matches(clause: str) -> list[tuple[str, re.Match[str]]]:
    return [(slot, m) for slot, patterns in _SLOT_PATTERNS.items() for pat in patterns for m in pat.finditer(clause)]


# where a clause's subject ends: its first verb of being, staying, moving or naming
_CLAUSE_VERB = re.compile(r"在|是|常驻|常住|驻地|base|工作地|调|转|加入|叫|名|外派")


def _subject(clause: str, starts: list[int]) -> str:
    """The words before a clause's verb (or its first slot): 用户同事 in 用户同事在研发部."""
    verb = _CLAUSE_VERB.search(clause)
    return clause[: min([*starts, verb.start() if verb else len(clause)])].strip()


def slots(content: str) -> dict[str, str]:
    """Slot → value found in a fact, e.g. {"department": "研发部", "manager": "李四"}.

    Only the user's own: a slot whose subject is someone else (用户同事在研发部) is no slot of the user's,
    and a clause without a subject (用户老婆常驻北京，在研发部工作) has the subject of the one before."""
    return dict(_slots(content))


@lru_cache(maxsize=65536)  # add() checks every active fact of the user; contents repeat
def _slots(content: str) -> tuple[tuple[str, str], ...]:
    found: dict[str, str] = {}
    other = False  # whether the subject so far is someone else
    for clause in _CLAUSE.findall(content):
        matches = _matches(clause)
        if subject := _subject(clause, [m.start() for _, m in matches]):
            other = bool(_OTHERS.search(subject))
        if other:
            continue
        for slot, m in matches:
            value = m.group("v").strip()
            if len(value) > 2 and value.endswith("了"):  # a change told with 了 (常驻上海了, 改名叫李丽了): the value is before it
                value = value[:-1]
            before = clause[: m.start()]
            if slot in found or _NOT_A_VALUE.match(value) or _OTHERS.search(before) or _NEGATED_BEFORE.search(before):
                continue
            if slot in ("city", "department") and _NOT_NOW_BEFORE.search(before):
                continue
            if slot == "city" and not (value := _place(m, value)):
                continue
            if slot == "department" and _SIDE_UNIT.search(value):
                continue
            if slot == "department" and value.endswith("部门") and len(value) > 2:
                value = value[:-1]  # 研发部门 → 研发部
            found[slot] = value
    return tuple(found.items())


def conflicting_slots(new: dict[str, str], old: dict[str, str]) -> list[str]:
    """Slots both texts speak about with different values."""
    return sorted(s for s in new.keys() & old.keys() if new[s] != old[s])


def agreeing_slots(new: dict[str, str], old: dict[str, str]) -> list[str]:
    return sorted(s for s in new.keys() & old.keys() if new[s] == old[s])
