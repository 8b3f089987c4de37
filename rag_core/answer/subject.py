"""Does a clause govern the question's subject? The guard behind "right or silent".

Search finds 出差期间的餐费补贴 for 加班餐费怎么报 because the words touch; the
clause still answers another situation. A quote from it would be confidently
wrong, so the offline answerer refuses a source when

- a situation or person the question names (加班, 出差, 试用期, 子女, 配偶 …)
  appears nowhere in the source, not even as a thesaurus equivalent, or
- a benefit the question names (婚假, 陪产假, 餐补, 报名费, 会费, 商业保险 …) is
  absent from the source, not even as a thesaurus equivalent (a clause about
  年假 does not answer 婚假; one about 加班工资 does not answer 加班餐补).

It also reads a yes/no question's answer off the governing sentence: a clause
that says 不得/不予/不能 answers 不可以, one that says 可以/予以/有权 answers 可以.
Pure functions over strings.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from ..text.asking import a_not_a
from ..text.tokenizer import tokenize
from ..text.vocabulary import NOT_BENEFITS, governs, is_benefit, names, narrows_scope
from ..text.word_pieces import glues_a_function_word, unguessed
from .table_cells import AskedNumber

# 么 ends a yes/no question (能报么) but is also the end of 什么 / 怎么 / 为什么 / 这么 / 那么 / 多么
# a yes/no question: 吗 at the end, 是否/能否/可否, 有没有; or any A-not-A (补不补, 可不可以: `text.asking.a_not_a`)
_YES_NO = re.compile(r"(吗|(?<![什怎为这那多])么)[？?。！!\s]*$|是否|能否|可否|有没有")
_DENY = re.compile(r"不得|不予|不能|不可以|禁止|不允许|不属于|无权|不再|不计入|不享受")
# a condition ("…不能安排补休的，") says when the rule applies, not whether it allows: only the rest counts
_CONDITION = re.compile(r"[^，,；;。]*的[，,]")
_ALLOW = re.compile(r"可以|予以|有权|准予|享受|实报实销|据实报销|报销时|可报销|应当支付|应当报销|凭.{1,12}报销")
# where a sentence splits into clauses, to tell "allows here, limits there" from a plain denial
_CLAUSE = re.compile(r"[，,；;：:]|但是?")
# a sentence that sets a penalty (…收取押金的，由…责令退还…予以处罚) permits nothing: its 予以/可以 is the
# authority's, and reading "不可以" into it would be an inference, so it gives no yes/no at all
_PENALTY = re.compile(r"处罚|罚款|责令|追究.{0,6}责任|处分|警告|没收")


_ASKS = re.compile(r"[吗么？?]|几|多少|多久|多长|怎么|怎样|如何|什么|哪|是否|能否|可否|能不能|可不可以|有没有|算不算|会不会")
_PARTS = re.compile(r"[，,；;。]|以及|还有|另外")
_SUFFIX_CHARS = frozenset("假费金补贴奖票税")
# Narrow what a rule is about for the answer, besides the shared vocabulary: an occasion (员工生日 is
# not 节日福利) and a tax (失业保险金 clauses that do not name 个人所得税 do not say whether it is taxed).
_OCCASIONS = frozenset({"生日"})
# Situations a rule is written for (a subset of QUALIFIERS: no people).
_SITUATIONS = tuple("加班 出差 差旅 试用期 实习 兼职 非全日制 劳务派遣 外包 夜班 值班 周末 海外 境外".split())
_SPAN = re.compile(r"[0-9一二两三四五六七八九十几半]+[天日周月年]")  # 一天 + 假 is a day off, not a kind of leave
# Words too common in HR text to show that a number belongs to the question's subject.
_GENERIC = frozenset(
    """公司 单位 用人单位 员工 职工 劳动者 本人 我们 你们 可以 能够 需要 应该 应当 是否 多少 一共 怎么 什么 规定
    制度 这个 那个 现在 一般 每年 每月 每个 每天 具体 情况""".split()
)


def question_terms(question: str) -> list[str]:
    """The question's words of two or more characters, in order, once each.

    A benefit word jieba splits (保密 + 费, 护理 + 假) is joined back, so the
    guard sees 保密费 and 护理假 rather than only 保密 and 护理.
    """
    # 能补 in 一个月能补几次 is jieba's guess, not a word asked; 管饭 is a guess too, and is asked
    # an A-not-A is its verb said once, a word of its own: 要不要贴发票 asks about 发票, not 「不要贴」
    question = a_not_a(question)[0]
    words = unguessed(tokenize(question), lambda word: not glues_a_function_word(word))
    joined = [
        a + b for a, b in zip(words, words[1:], strict=False)
        if len(b) == 1 and b in _SUFFIX_CHARS and len(a) >= 2 and a + b in question and not _SPAN.fullmatch(a)
    ]
    terms = [t for t in dict.fromkeys([*words, *joined]) if len(t) >= 2]
    # search-mode pieces of a longer word (车费 of 打车费) are not words of their own
    terms = [t for t in terms if not any(t != other and t in other for other in terms)]
    # 生孩子 is childbirth, not a question about the employee's children
    return [t for t in terms if not (t in ("孩子", "小孩") and f"生{t}" in question)]


def question_parts(question: str) -> list[list[str]]:
    """The terms of each asked part ("年假几天，病假要什么证明" → two parts); context clauses join every part.

    "我女儿下个月结婚，我能请几天婚假" is one part: its first clause asks nothing,
    so 女儿 stays with 婚假.
    """
    clauses = [c for c in _PARTS.split(question) if c.strip()]
    asked = [c for c in clauses if _ASKS.search(c)]
    context = [t for c in clauses if c not in asked for t in question_terms(c)]
    if len(asked) < 2:
        return [question_terms(question)]
    return [list(dict.fromkeys([*context, *question_terms(c)])) for c in asked]


def part_conflicts(part: Sequence[str], terms: Sequence[str], source_text: str, groups: Mapping[str, set[str]]) -> list[str]:
    """`scope_conflicts` of one asked part, what it asks that the source leaves out (`unaddressed`), and
    the situation a source adds when the part names none.

    In 晚上加班公司管饭吗，有没有餐补 the part 有没有餐补 names no situation, but the question's is 加班:
    a clause on 出差期间的餐费补贴 governs another situation, so it does not answer that part either.
    A clause naming no situation (年假5天 for 出差住宿多少，年假几天) still may.
    """
    conflicts = scope_conflicts(part, source_text, groups)
    if not conflicts:
        conflicts = unaddressed(part, source_text, groups)
    asked = [t for t in terms if t in _SITUATIONS]
    if conflicts or not asked or any(t in _SITUATIONS for t in part):
        return conflicts
    return [t for t in _SITUATIONS if t in source_text and t not in asked and not any(t in groups.get(a, ()) for a in asked)]


def unaddressed(part: Sequence[str], source_text: str, groups: Mapping[str, set[str]]) -> list[str]:
    """What the part asks about, when the source matches only the situation or person it is asked for.

    In 晚上加班公司管饭吗 the situation is 加班 and the thing asked is 管饭 (a word the thesaurus knows):
    加班至22:00以后…打车费 names the situation and says nothing of meals. Only words with a thesaurus
    entry count as the thing asked (a colloquial word without one, 效益 or 钟头, may be the clause's
    own wording in other words), and a part that names a benefit or a kind of leave is left to
    `scope_conflicts` (the benefit is the thing asked).
    """
    narrowing = [t for t in part if narrows(t) or stands_for_leave(t, groups)]
    if not narrowing or any(is_benefit(t) or stands_for_leave(t, groups) for t in narrowing):
        return []
    # 请假/休假 is how one asks for time off, not a thing a clause on 产检 must name
    asked = [t for t in part if t not in narrowing and t not in _GENERIC and t not in NOT_BENEFITS and groups.get(t)]
    if not asked or any(names(t, source_text, groups) for t in asked):
        return []
    return asked


def narrows(term: str) -> bool:
    """A word that shows what a clause must be about to answer (situation, person, benefit, occasion, tax)."""
    return narrows_scope(term) or term in _OCCASIONS or (term.endswith("税") and len(term) >= 2)


def with_joined_words(terms: Iterable[str], groups: Mapping[str, set[str]]) -> Mapping[str, set[str]]:
    """`groups` plus an entry for each joined word (失业 + 金): its pieces' thesaurus phrases name it."""
    joined = {t: {p for k, v in groups.items() if len(k) >= 2 and k in t for p in v} for t in terms if t not in groups}
    return {**groups, **joined} if joined else groups


def scope_conflicts(terms: Iterable[str], source_text: str, groups: Mapping[str, set[str]]) -> list[str]:
    """Question words that show `source_text` governs another subject (empty when it may answer)."""
    conflicts, named = [], []
    groups = with_joined_words(terms, groups)
    for term in terms:
        term = next((o for o in _OCCASIONS if o in term), term)  # 过生日 is named by 员工生日当月
        if not (narrows(term) or stands_for_leave(term, groups)):
            continue
        (named if governs(term, source_text, groups) else conflicts).append(term)
    if conflicts or len(named) < 2 or co_named(named, source_text, groups):
        return conflicts
    return named[1:]


def stands_for_leave(term: str, groups: Mapping[str, set[str]]) -> bool:
    """A colloquial word the thesaurus maps to a kind of leave (结婚 → 婚假, 探亲 → 探亲假) narrows like it.

    Only leave: 补偿 → 补偿金 or 社保 → 社会保险 would make ordinary questions narrow.
    """
    return term not in NOT_BENEFITS and any(len(p) >= 2 and p.endswith("假") and p not in NOT_BENEFITS
                                            for p in groups.get(term, ()))


def co_named(named: Sequence[str], source_text: str, groups: Mapping[str, set[str]]) -> bool:
    """Several narrowing words meet in one sentence, two neighbouring ones, or under the heading.

    我女儿结婚…婚假 is not answered by 增加婚假七天 in a chunk whose 子女 belongs to a later sentence
    on 育儿假; 试用期员工的病假工资 is answered by 发放病假工资；试用期员工同样适用.
    """
    sentences = [p for p in _SENTENCES.split(source_text) if p.strip()]
    head = sentences[0] if sentences else ""  # the file name and heading come first in a source's text
    for i, sentence in enumerate(sentences):
        after = sentences[i + 1] if i + 1 < len(sentences) and not _other_benefit(sentences[i + 1], named, groups) else ""
        if all(governs(t, f"{head} {sentence} {after}", groups) for t in named):
            return True
    return False


_NUMBER = r"(?:\d+(?:\.\d+)?|[零一二两三四五六七八九十百千万]+)"
# (what the question asks for, what a clause must contain to answer it)
_QUANTITIES: tuple[tuple[re.Pattern, re.Pattern], ...] = (
    (re.compile(r"(多少|几)岁|多大年纪"), re.compile(_NUMBER + r"\s*(?:周岁|岁)")),
    (re.compile(r"百分之(几|多少)|比例是多少|费率|多少比例"), re.compile(r"百分之|[%％‰]|" + _NUMBER + r"\s*成")),
    # 周 as a week, not 周岁 (未满一周岁 is an age, no length of time)
    (re.compile(r"(多少|几)(天|日)"), re.compile(_NUMBER + r"\s*(?:个工作日|个?自然日|天|日|周(?!岁))")),
    # a month of the year (每年几月份调整), not a count of months
    (re.compile(r"几月份|哪个月份|什么月份|每年几月"), re.compile(r"(?:\d{1,2}|[一二三四五六七八九十]{1,3})\s*月")),
    (re.compile(r"(多少|几)(个月|年)|多久|多长时间"), re.compile(_NUMBER + r"\s*(?:个月|年|日|天|周(?!岁)|小时)")),
    (re.compile(r"(几|多少)倍"), re.compile(r"倍|百分之|[%％]|" + _NUMBER + r"\s*成")),
    # hours (每月加班最多多少小时) and times (一个月能补卡几次)
    (re.compile(r"(多少|几)个?(小时|钟头)"), re.compile(_NUMBER + r"\s*(?:个)?(?:小时|钟头)")),
    (re.compile(r"(多少|几)(次|回)"), re.compile(_NUMBER + r"\s*(?:次|回)|不限次数|次数不限")),
    (re.compile(r"多少钱|多少元|(发|给|补|报|交|扣|赔|退)多少|多少(工资|补贴|补助|费)"),
     re.compile(_NUMBER + r"\s*(?:元|倍|[%％])|百分之|倍")),
    # 能拿多少 / 罚多少 / 最多能收多少 ask for an amount a rule may also state in months of pay or in words
    # (每满一年支付一个月工资, 工资照发); 领多少次 asks for a count
    (re.compile(r"(收|罚|拿|领)多少(?![次个人天日月年件项])"),
     re.compile(_NUMBER + r"\s*(?:元|倍|[%％]|个?月|天|日)|百分之|倍|半个?月|全额|足额|照发|照付|扣发|不得?(?:超过|高于|低于)")),
)


def states_quantity(
    quantity: re.Pattern | AskedNumber, terms: Sequence[str], clauses: Sequence[tuple[str, str]],
    groups: Mapping[str, set[str]],
) -> bool:
    """Some (clause, heading) states the asked kind of number for the question's subject.

    When the question names a kind of leave, benefit, situation or person (婚假), the number must sit
    in a sentence naming it, or under a heading naming it: 婚假一共有几天 is not answered by 年休假5天
    in a clause that mentions 婚丧假 elsewhere. Otherwise the best source (the first) may state it
    anywhere, and any other must state it in a sentence naming a question word or in the one after it:
    公司组织的疗养能去几天 is not answered by a second source's 提前三十日以书面形式通知. Words every HR
    text uses (公司, 员工, 可以) do not count. A table row states it in a cell under a column the question names
    (`AskedNumber.in_cell`: 午餐：30 for 成都午餐补多少钱), unless the row names another benefit than the one asked.
    """
    groups = with_joined_words(terms, groups)
    subject = [t for t in terms if narrows(t)]
    own = subject or [t for t in terms if t not in _GENERIC]
    if isinstance(quantity, AskedNumber):
        rows = [row for clause, _ in clauses for row in clause.split("\n") if quantity.in_cell(row)]
        if any(not (subject and _other_benefit(row, own, groups)) for row in rows):
            return True
    if not subject and clauses and quantity.search(clauses[0][0]):
        return True
    for clause, heading in clauses if subject else clauses[1:]:
        if not subject and any(names(t, heading, groups) for t in own) and quantity.search(clause):
            return True
        pieces = [p for p in _SENTENCES.split(clause) if p.strip()]
        for i, piece in enumerate(pieces):
            if not quantity.search(piece):
                continue
            # the sentence before counts too (婚假…。其中初婚3天), unless this one is about another benefit
            before = pieces[i - 1] if i and not (subject and _other_benefit(piece, own, groups)) else ""
            if any(governs(t, f"{before} {piece}", groups) for t in own):
                return True
    return False


def _other_benefit(sentence: str, own: Sequence[str], groups: Mapping[str, set[str]]) -> bool:
    """`sentence` names a benefit or kind of leave that is neither asked nor a thesaurus phrase of one asked."""
    asked = {*own, *(p for t in own for p in groups.get(t, ()))}
    return any(is_benefit(w) and w not in asked for w in tokenize(sentence))


def required_quantity(question: str) -> re.Pattern | None:
    """When the question asks for a number (多少岁, 百分之几, 几天, 多少钱 …), what a clause must state to answer it.

    Only the end of the question counts ("那几天我在上班，工资是几倍" asks for 倍, not for 天), and of
    several asks there the last one (加班几天算几倍 asks for 倍). An ask a 才 follows is a threshold and
    counts wherever it stands: 要欠多少钱才会被列入名单 asks for an amount, 入职以后要工作几年才能享受带薪年假
    for years. 几 after 好 / 这 / 那 / 十 / 了 is "a few", not an ask: 拖了好几天才发工资 asks for no number.
    """
    tail = _A_FEW_AT_END.sub("", re.sub(r"[？?。！!吗呢啊呀\s]+$", "", question))[-8:]
    needs = _last_ask(tail)
    if needs is None:
        for before in _BEFORE_THRESHOLD.findall(question):
            needs = _last_ask(_A_FEW.sub("", before[-6:])[-5:])
            if needs is not None:
                break
    return needs


def _last_ask(text: str) -> re.Pattern | None:
    found = [(max(m.end() for m in asks.finditer(text)), -i, needs)
             for i, (asks, needs) in enumerate(_QUANTITIES) if asks.search(text)]
    return max(found, key=lambda f: f[:2])[2] if found else None


_BEFORE_THRESHOLD = re.compile(r"([^，,。；;？?！!]+)才")  # the words of a clause before its 才
_A_FEW = re.compile(r"[好这那十了]几")  # 好几天, 这几天, 十几天, 过了几个月: a few, not "how many"
# At the end of a question only those that name days already meant: 入职了几个月可以转正 still asks
_A_FEW_AT_END = re.compile(r"[好这那十]几")


_ASKS_VALUE = re.compile(r"(?:是|为)(?:每个?月|每年|每天|每次|一共|大概|大约)?多少(?:钱|元)?$")
# Words that say how or how much, not what: X is the word before them (出差住宿标准 → 住宿, 打车报销上限 → 打车).
_VALUE_FILLERS = frozenset(
    """现在 目前 如今 今年 具体 一般 通常 大概 大约 到底 究竟 最新 的 最低 最高 最多 最少 最长 最短
    标准 金额 额度 数额 数目 费用 报销 上限 下限 限额 水平 具体数""".split()
)
_DIGITS = "0-9零〇一二两三四五六七八九十百千万壹贰叁肆伍陆柒捌玖拾佰仟"
# Digits that state no value for "X是多少": 第十六条, 〔2024〕5号, (2023), 2023年, 1月1日(起), 15日前 (a deadline),
# 满3个月 (a condition),
# and outline numbers at the start of a line (3.1 年休假).
_NOT_A_VALUE = re.compile(
    rf"第[{_DIGITS}]+[条款章节项号批]|〔\d{{4}}〕\d*号?|[（(]\d{{4}}[）)]|(?:19|20)\d{{2}}\s*年"
    rf"|\d{{1,2}}\s*月\s*\d{{1,2}}\s*日起?|\d{{1,2}}\s*日前|满[{_DIGITS}]+个?(?:年|月|周)|一次性|(?m:^\s*\d+(?:\.\d+)+)"
)
# Any Arabic number left, a Chinese numeral with a unit (not 一级至四级: a grade), or a rule stated in words
# (照发, 全额, 双倍, 不得超过…).
_STATED_VALUE = re.compile(
    rf"\d|[{_DIGITS}]+\s*(?:元|圆|块|倍|成|薪|个?月|个?工作日|年|天|日|晚|周|岁|小时|分钟|名|人|次|项|档|号)"
    r"|百分之|千分之|双倍|全额|足额|照发|照常|照付|半个?月|相同的?工资|正常出勤|[￥¥]|RMB|不得?(?:超过|高于|低于|少于)"
)
_SENTENCES = re.compile(r"[。；;！!？?\n]")


def asked_value(question: str) -> str | None:
    """The thing whose value "X是多少" asks for (利率, 起征点, 住宿 of 出差住宿标准), or None for any other question.

    A clause that names the topic but states no value for it does not answer:
    公积金贷款的利率现在是多少 is not answered by 按照国家规定的利率计息.
    """
    tail = re.sub(r"[？?。！!吗呢啊呀\s]+$", "", question)
    asked = _ASKS_VALUE.search(tail)
    if not asked:
        return None
    words = [w for w in tokenize(tail[: asked.start()]) if w.strip()]
    while words and (words[-1] in _VALUE_FILLERS or len(words[-1]) < 2):
        words.pop()
    return words[-1] if words else None


def states_value(text: str) -> bool:
    """`text` states some value: an amount, share, multiple, period or count (see _STATED_VALUE)."""
    return bool(_STATED_VALUE.search(_NOT_A_VALUE.sub(" ", text)))


def value_for(term: str, clause: str, heading: str, groups: Mapping[str, set[str]]) -> bool | None:
    """Does `clause` state the value of `term`? None when neither it nor its heading names `term`.

    A heading that names it (出差补贴（元/天）) lets any value of the clause count; otherwise the
    value must sit in a sentence or row naming it or in the one after (住宿标准分为两档；一类城市每晚
    500元) — a number elsewhere in the chunk answers something else (利率计息 beside 缴存额为5%).
    """
    if names(term, _NOT_A_VALUE.sub(" ", heading), groups):
        return states_value(clause)
    pieces = [p for p in _SENTENCES.split(clause) if p.strip()]
    named = [i for i, piece in enumerate(pieces) if names(term, piece, groups)]
    if not named:
        return None
    return any(states_value(piece) for i in named for piece in pieces[i : i + 2])


def answers_value(term: str, clauses: Sequence[tuple[str, str]], groups: Mapping[str, set[str]]) -> bool:
    """Some (clause, heading) states the value "X是多少" asks for.

    The clauses naming X must state it: 利率 is named by 按照国家规定的利率计息, which gives no
    rate. When none names X (加班工资 asked, 支付两倍的工资报酬 written), any stated value counts.
    """
    verdicts = [value_for(term, clause, heading, groups) for clause, heading in clauses]
    named = [v for v in verdicts if v is not None]
    return any(named) if named else any(states_value(clause) for clause, _ in clauses)


def is_yes_no(question: str) -> bool:
    return bool(_YES_NO.search(question.strip())) or a_not_a(question)[1]


def ruling_clauses(sentence: str) -> list[str]:
    """The clauses of `sentence` that rule (its conditions left out); none for a sentence that sets a penalty."""
    if _PENALTY.search(sentence):
        return []
    return [c for c in _CLAUSE.split(_CONDITION.sub("", sentence)) if c]


def polarity(sentence: str) -> str:
    """"不可以" / "可以" when the governing sentence says so plainly, else ""."""
    if _PENALTY.search(sentence):
        return ""
    ruling = _CONDITION.sub("", sentence)
    clauses = [c for c in _CLAUSE.split(ruling) if c]
    if any(_DENY.search(c) for c in clauses) and any(_ALLOW.search(c) and not _DENY.search(c) for c in clauses):
        # allows in one clause and limits in another (…可以…作出约定，但…不得超过六个月): which one answers
        # the question depends on what was asked; 不可以 had answered 会给保密费吗 from such a sentence
        return ""
    if _DENY.search(ruling):
        return "不可以"
    if _DENY.search(sentence):  # the only denial is the condition's (孕期不能适应原劳动的，…予以减轻): say neither
        return ""
    if _ALLOW.search(ruling):
        return "可以"
    return ""
