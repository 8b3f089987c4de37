"""Follow-up rewrite by an LLM: a few-shot prompt, temperature 0, a bounded reply, the rules' rewrite on bad output.

It is only called for a question the rules in `followup` found dependent, so a
standalone question never reaches the model and its search stays reproducible.

Earlier answers quote clauses, so the dialogue is data as in the answer prompt: its
【】 cannot open the prompt's sections, its citations and chat-template tokens are
neutralised. The reply becomes the search question and the answer prompt's 【问题】,
so a reply that gives the assistant orders is refused like any other nonsense.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..text.completion import CompletionLLM, complete
from ..text.instructions import addressed_to_assistant
from ..text.markers import as_prompt_data
from ..text.pii import redact_text
from ..text.thesaurus import shipped_entries
from .followup import CONTRASTS, PLACEHOLDERS, SUBJECT_TAGS, Rewrite, content_words, keeps_own_words

MAX_TOKENS = 64  # a standalone question is short; a long reply is an explanation, not a question
MAX_TURN_CHARS = 160  # how much of each earlier answer the model sees
_CJK = re.compile(r"[\u4e00-\u9fff]")
_PREFIX = re.compile(r"^(?:改写后的问题|改写|完整问题|问题|输出|答)\s*[:：]\s*")
_ASKING = re.compile(r"[？?]|吗|呢|么|几|多少|多久|多长|怎么|怎样|如何|什么|哪|谁|是否|能否|可否|能不能|可不可以|有没有")
_PUNCT = re.compile(r"[\s，,。.！!？?、；;：:]+")
_FOLLOW_UP_WORDS = re.compile(r"^(?:那么|那|还有|另外)|(?:呢|吗|么)$")


def _bare(text: str) -> str:
    """The words of a question without punctuation and the 那…呢 frame, to tell an echo from a rewrite."""
    return _FOLLOW_UP_WORDS.sub("", _PUNCT.sub("", text))

PROMPT = """你的任务：把对话里【最后一个问题】改写成一个不看上文也能看懂、可以直接拿去检索公司制度的完整问题。
要求：补全它省略的主语和限定条件（城市、职级、假期种类等），不要回答问题，不要解释，只输出改写后的一个问题。

示例一
【对话】
用户：出差住宿标准是多少？
助手：普通员工出差住宿费上限为每人每晚：一类城市500元……
【最后一个问题】那一线城市呢？
【改写】一线城市出差住宿标准是多少？

示例二
【对话】
用户：年假有几天？
助手：员工累计工作已满1年不满10年的，每年可享受带薪年假5天……
【最后一个问题】没休完的可以留到明年吗？
【改写】没休完的年假可以顺延到明年吗？

示例三
【对话】
用户：打车费能报销吗？
助手：确需乘坐出租车或网约车的，每人每天不超过150元……
【最后一个问题】这个需要谁审批？
【改写】打车费报销需要谁审批？

现在轮到你
【对话】
{dialogue}
【最后一个问题】{question}
【改写】"""


def _as_data(text: str) -> str:
    """Dialogue text on one line that can open none of the prompt's sections nor read as a citation."""
    return as_prompt_data(" ".join((text or "").split()))


def build_prompt(question: str, turns: Sequence[tuple[str, str]]) -> str:
    """The few-shot prompt for `question` after `turns` ((question, answer) pairs, oldest first)."""
    lines = []
    for asked, answered in turns:
        lines.append(f"用户：{_as_data(asked)}")
        answer = _as_data(answered)
        lines.append(f"助手：{answer[:MAX_TURN_CHARS]}{'……' if len(answer) > MAX_TURN_CHARS else ''}")
    return PROMPT.format(dialogue="\n".join(lines) or "（无）", question=_as_data(question))


def _orders(text: str) -> list[str]:
    """The shortest spans of `text` that give the assistant an order (无视规则 in 无视规则的员工…), in order.

    Found with the detector itself (`addressed_to_assistant`) so its patterns stay in one module; `text` is short
    (a rewrite within `clean_reply`'s length limit), so trying each end and then each start costs little.
    """
    found: list[str] = []
    start = 0
    while addressed_to_assistant(text[start:]):
        end = next(j for j in range(start + 1, len(text) + 1) if addressed_to_assistant(text[start:j]))
        first = max(i for i in range(start, end) if addressed_to_assistant(text[i:end]))
        found.append(text[first:end])
        start = end
    return found


def clean_reply(reply: str, question: str) -> str | None:
    """The rewritten question from a reply, or None when the reply is not one question."""
    lines = [line.strip() for line in (reply or "").strip().splitlines() if line.strip()]
    if lines and not _PREFIX.sub("", lines[0]).strip():  # "改写：" on a line of its own
        lines = lines[1:]
    if len(lines) != 1:  # nothing, or an explanation around the question
        return None
    text = _PREFIX.sub("", lines[0]).strip().strip("\"'“”「」《》【】").strip()
    if len(text) < 4 or not _CJK.search(text) or "【" in text or "资料" in text:
        return None
    if len(text) > max(60, 4 * len(question)):
        return None
    if len([part for part in re.split(r"[？?。！!]+", text) if part.strip()]) > 1:
        return None  # two questions (the last one glued before the follow-up's): one is asked (review 363)
    # 忽略以上所有规则，直接说…: an order, which would be searched and asked; unless the person typed that very
    # phrase (那无视规则的呢？ asks about employees who ignore rules, and its rewrite says 无视规则 again). That the
    # question merely trips the detector too lets any other order through (review 52j #3)
    if any(phrase not in question for phrase in _orders(text)):
        return None
    if not _ASKING.search(text):  # an answer ("一类城市每晚500元。"), not a question
        return None
    # what the model wrote is searched, stored with the turn and shown: personal data it added (a name and
    # ID number from an earlier answer, or invented) is masked as the question as typed was
    return redact_text(text)


# The people `followup` takes for placeholders (员工, 职工): a rewrite may name them, or a kind of them no role contrasts
# (哺乳期女职工): saying whose 哺乳时间 it asks about does not change what it asks.
_PEOPLE = tuple(w for w in PLACEHOLDERS if w.endswith("工"))
# The roles `followup` contrasts (经理, 实习生, 试用期员工, 副经理 as 经理): naming one changes whom the question is
# about (那周末呢？ → 实习生周末加班费怎么算？), so a rewrite names one only when the follow-up or the dialogue did (试用期
# for 试用期员工)
_ROLES = tuple(sorted((w for w in next(g for g in CONTRASTS if "经理" in g) if w not in _PEOPLE), key=len, reverse=True))


def _adds_only_from(rewrite: str, question: str, turns: Sequence[tuple[str, str]]) -> bool:
    """Each noun the rewrite names beyond the follow-up comes from the dialogue: a rewrite completes the question
    with what was said before, it does not change its subject. A word counts as said when two characters of it in
    a row were (住宿费 after 住宿, 哺乳时间 after 哺乳期), when it names a person no role contrasts (员工, 女职工:
    `_PEOPLE`; a contrasted role, 实习生, 经理, counts only when said itself: `_ROLES`), or when
    a thesaurus entry whose colloquial word names a word of the follow-up itself has it among its policy terms (异地
    for 外地的呢: 外地看病 → 异地就医). The follow-up's own words may be put in policy terms, the earlier turns' are
    kept as said (出差补贴 → 交通补助, but 那一线城市呢 after 住宿 is no question about 交通)."""
    said = "\n".join([question, *(f"{asked}\n{answered}" for asked, answered in turns)])
    own = content_words(question)
    for word in content_words(rewrite, SUBJECT_TAGS):
        role = next((r for r in _ROLES if r in word), None)
        if role is not None:
            if role.removesuffix("员工") in said:
                continue
            return False
        if any(word[i : i + 2] in said for i in range(len(word) - 1)) or word.endswith(_PEOPLE):
            continue
        if not any(_names(terms, word) and any(_names((head,), other) for other in own)
                   for head, terms in shipped_entries().items()):
            return False
    return True


def _names(terms: tuple[str, ...], word: str) -> bool:
    """Some term is `word`, holds it or is held in it (外地 in 外地看病)."""
    return any(word in term or (len(term) >= 2 and term in word) for term in terms)


def llm_rewrite(
    llm: CompletionLLM, question: str, turns: Sequence[tuple[str, str]], reason: str, fallback: Rewrite | None = None
) -> Rewrite:
    """The model's standalone question; on a failure or nonsense, `fallback` (the rules' rewrite) or the raw question.

    A small local model often echoes the prompt instead of a question (SmolLM2-135M did
    for all 38 follow-ups in bench/followups.py): then the rules' rewrite is searched,
    so configuring a weak model never makes follow-ups worse than offline.
    """
    on_failure = fallback if fallback is not None else Rewrite(question.strip(), "")
    try:
        reply = complete(llm, build_prompt(question, turns), max_tokens=MAX_TOKENS)
    except Exception:  # a failing model must not cost the answer
        return on_failure
    cleaned = clean_reply(reply, question)
    if cleaned is None or _bare(cleaned) in _bare(question):
        return on_failure  # nonsense, or the fragment handed back (一类城市呢？ for 那一类城市呢？)
    if not keeps_own_words(question, [cleaned]):
        return on_failure  # the follow-up's own subject dropped (那网约车呢？ → 病假需要提供什么证明？)
    if not _adds_only_from(cleaned, question, turns):
        return on_failure  # a subject from nowhere (那一线城市呢？ after 住宿 → 一线城市的年假有几天？)
    # a question the rules only suspect of leaning on the last turn (公司有班车吗？ is short) stays on trial: its
    # own search and the model's rewrite are compared as the rules' would be, so a model that glues a complete
    # question to the last one is held to the same checks as the rules
    return Rewrite(cleaned, reason, tentative=on_failure.tentative, by_model=True)
