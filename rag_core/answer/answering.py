"""Who writes the answer: nobody at zero hits, the LLM when configured, else the offline quoter.

Zero sources means the reply is 制度里没有写这一条 and no model is called, so
an absent question can never be answered from a model's general knowledge.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import NamedTuple

from ..text.completion import complete
from ..text.kept import kept_values, masked_keeping
from ..types import ANSWERED, REFUSED, STRONG_EVIDENCE, WEAK, WEAK_EVIDENCE, CitationCheck, Formatted, SourceRef
from .citations import check_citations, cites_a_source, without_citations
from .cut_number import number_in_progress, without_cut_number
from .llm import ANSWER_MAX_TOKENS, CUT_NOTE, LLMError
from .masked_stream import MaskedStream
from .prompt import NOT_IN_POLICY, BuiltPrompt

OnToken = Callable[[str], None]
# How close each sentence is in meaning to the question (cosines from a sentence model), for the offline lead
Closeness = Callable[[str, Sequence[str]], Sequence[float]]


class ComposedAnswer(NamedTuple):
    text: str
    answerer: str
    citations: CitationCheck  # what the guard found in an LLM answer; unchecked otherwise
    weak: bool = False  # an answer (not a refusal) resting on 依据较弱 evidence only: said in the chat, a gap for HR
    refused: bool = False  # 制度里没有写这一条 (no source, or the answerer found none that answers)
    verdict: str = ""  # 可以 / 不可以 the offline answer states for a yes/no question ("" otherwise, or a model's)

    @property
    def outcome(self) -> str:
        """The trace's outcome: refused, weak or answered."""
        return REFUSED if self.refused else WEAK if self.weak else ANSWERED


# The offline answer's first line when the best source that governs the question is only weak evidence:
# such answers quote no answering clause about twice as often as the others (bench/weak_evidence.py).
WEAK_HEADER = "依据较弱：以下条款与这个问题最相关，但不一定直接回答了它，请核对原文。"
# what a refusal starts with (zero hits, or the offline guards); also read by the eval
REFUSAL_MARKERS = (NOT_IN_POLICY, "制度没有写明")
# The most of a model's answer that is read: far more than ANSWER_MAX_TOKENS yields, so only a server that
# ignores the bound (or a stream that never ends) reaches it; the rest is not read and the answer says so.
ANSWER_MAX_CHARS = 8000
# ends an answer the offline answerer wrote because the model failed (timeout, connection, error, blank reply)
MODEL_DOWN_NOTE = "（大模型暂时不可用，以上回答直接引用制度条款原文，未经大模型整理。）"
# streamed after the part of a model's answer already shown when the model failed midway
ABANDONED_NOTE = "\n\n——————\n（大模型的回答中途失败，上面的内容不完整，请以下面直接引用的制度条款为准。）\n\n"


def is_refusal(text: str) -> bool:
    """An answer that says the policies do not cover the question. The one place answer text is read for it:
    a model says so in words (the prompt tells it how), the offline answerer opens with the same words.

    The reply's first sentence decides (a sentence of courtesy only, 抱歉。, is passed over; a list's marker 1.
    ends no sentence): it refuses when it declines and states nothing of its own, whatever later sentences cite
    (制度里没有写这一条。[资料1] 只规定了…; 资料中没有提到夜宵。资料1只规定了…). It declines when one of its clauses
    holds the refusal words or says in the model's own words that the sources do not cover the matter (资料中没有
    关于…的规定; The policy does not mention this: `_DECLINES`), and every other clause is a frame (抱歉, 根据资料1,
    According to [资料1]) or a bare citation: a citation that is only the subject of the decline ([资料1]没有提到…,
    资料1和资料2都没有提到…) cites nothing. A clause that states a value or a rule makes it an answer, cited or not
    (每餐30元，规定中未包括夜宵。[资料1]; 制度没有写明舅舅，但按[资料1]…可以请丧假3天; 报销材料没有包含发票原件的，财务不予
    受理); so does a sentence that states what the policy says (制度没有规定试用期可以延长). Advice and the decline's
    consequence state nothing (资料中没有相关规定，请联系HR确认: `_ASIDE`). A reply that cites nothing anywhere (strict or
    loose) refuses when its first sentence declines (资料没有提到需要审批，员工可直接请假 is the model's own inference, not
    the policy's) or the refusal words open it (within its first 40 characters)."""
    text = text.strip()
    if _an_item_answers(text):
        return False
    first = ""
    for sentence in _SENTENCE.finditer(_LIST_MARKER.sub("", text)):
        clauses = _clauses(sentence.group())
        if clauses and not all(_FRAME.fullmatch(c) for c in clauses):
            first = sentence.group()
            break
    clauses = _clauses(first)
    declining = [c for c in clauses if _declines(c)]
    if declining and all(_declines(c) or _FRAME.fullmatch(c) or _aside(c) for c in clauses):
        return True
    if cites_a_source(text):
        return False
    return any(marker in text[:40] for marker in REFUSAL_MARKERS) or bool(declining)


def _an_item_answers(text: str) -> bool:
    """A list whose items answer parts of the question, one of them with a cited rule: declining another part first
    (- 二线城市：制度里没有写这一条 ⏎ - 一线城市：每晚上限600元[资料1]) is a partial answer, not a refusal (review 363)."""
    starts = [m.start() for m in _LIST_MARKER.finditer(text)]
    if len(starts) < 2 or any(_declines(c) for c in _clauses(text[: starts[0]])):
        return False  # (制度里没有写这一条。[资料1]只规定了：⏎- … lists what the policy says instead: a refusal, review 366)
    items = [text[a:b] for a, b in zip(starts, [*starts[1:], len(text)], strict=True)]
    return any(
        cites_a_source(item) and not any(_declines(c) for c in _clauses(_LIST_MARKER.sub("", item))) for item in items)


def refusal_kept(text: str) -> str:
    """A model's refusal without what it adds of its own: after the first decline, a sentence is kept whole when it
    cites a source, else only its clauses that decline too; each line's list marker stays with what is kept of it,
    and a markdown table stays whole when any of its rows is kept (制度里没有写这一条。[资料1]只规定了… keeps both;
    …没有提到年假能否折现，不过一般公司都按每天300元折现 loses the guess the guard prompt forbids: reviews 363, 366, 368)."""
    lines, declined, table = [], False, []
    for line in [*text.split("\n"), ""]:
        if line.lstrip().startswith("|"):  # a table's rows are judged together: its header and rule cite nothing
            table.append(line)
            continue
        if table:
            if not declined or any(cites_a_source(row) or _declines(row) for row in table):
                lines += table
            declined = declined or any(_declines(row) for row in table)  # | 三线 | 制度里没有写这一条 | (review 369)
            table = []
        marker = _LIST_MARKER.match(line)
        head = marker.group() if marker else ""
        body, declined = _kept_of_line(line[len(head):], declined)
        if body or not line.strip():
            lines.append(head + body if body else "")
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip() if declined else text


def _kept_of_line(line: str, declined: bool) -> tuple[str, bool]:
    """What `refusal_kept` keeps of one line, and whether the refusal has declined by its end: a sentence citing a
    source whole, one before any decline whole, else its clauses up to its first decline and the declining ones."""
    kept = []
    for match in _SENTENCE.finditer(line):
        sentence = match.group()
        if cites_a_source(sentence) or not declined and not any(_declines(c) for c in _clauses(sentence)):
            kept.append(sentence)
            declined = declined or any(_declines(c) for c in _clauses(sentence))
            continue
        body = sentence.rstrip("。.！!？?\n")
        pieces = _labels_kept(_CLAUSE_KEPT.split(body))  # clause, separator, clause, …
        shown: list[str] = []
        for separator, clause in zip(["", *pieces[1::2]], pieces[0::2], strict=True):
            if not declined or _declines(clause):
                shown += [separator, clause] if shown else [clause]
            declined = declined or _declines(clause)
        if "".join(shown).strip():
            kept.append("".join(shown).strip() + sentence[len(body):])
    return "".join(kept).strip(), declined


def _labels_kept(pieces: list[str]) -> list[str]:
    """Split pieces with a short label before a colon joined to what follows (三线城市：制度里也没有写明 stays whole)."""
    out = [pieces[0]]
    for separator, clause in zip(pieces[1::2], pieces[2::2], strict=True):
        if separator.strip() in ("：", ":") and len(out[-1].strip()) <= 10 and not re.search(r"\d", out[-1]) \
                and not _declines(out[-1]):  # (资料未提及：一般公司… is no label)
            out[-1] += separator + clause
        else:
            out += [separator, clause]
    return out


def _aside(clause: str) -> bool:
    """Advice or a consequence that states nothing of the policy's: no citation and no number in it (建议咨询HR is one;
    建议按[资料1]的5天执行 and 以[资料1]正式员工的5天为准 answer — review 299)."""
    return bool(_ASIDE.search(clause)) and not cites_a_source(clause) and not re.search(r"\d", clause)


def _clauses(sentence: str) -> list[str]:
    """The clauses of a sentence that say something beyond a citation, citations kept (资料1…没有提到 declines)."""
    return [c.strip() for c in _CLAUSE.split(sentence) if without_citations(c).strip(" \t\n。.！!？?")]


def _declines(clause: str) -> bool:
    return any(marker in clause for marker in REFUSAL_MARKERS) or bool(_DECLINES.search(clause))


_SENTENCE = re.compile(r"[^。！？!?\n]*?(?:\.(?=\s|$)|[。！？!?\n]|$)")  # a sentence, its end included
# What parts a sentence's clauses: a comma or semicolon, a contrast (但, 不过, but)
_CLAUSE = re.compile(r"[，,；;]|但是?|不过|然而|\b(?:but|however)\b", re.IGNORECASE)
# The same and a colon or dash a guess may hang on a decline by (资料中没有提到X：一般公司…, review 369; not 9:00, nor 、
# a space or a bracket, which a decline's own object holds: 没有关于加班、调休的规定, review 370), separators kept by a split
_CLAUSE_KEPT = re.compile(f"({_CLAUSE.pattern}|(?<!\\d)[：:—]+(?!\\d))", re.IGNORECASE)
# A clause that only frames what follows: courtesy, the sources read (根据提供的资料, According to [资料1])
_FRAME = re.compile(
    r"(?:(?:很|非常|十分)?(?:抱歉|对不起|不好意思|遗憾)|您好|你好|(?:根据|按照|依据|依照|基于|结合|综合|经查阅?|查阅|从)"
    r"[^，,。]{0,24}?(?:资料|制度|规定|条款|文件|政策|材料|内容|信息)[^，,。]{0,4}|(?:i'?m\s+|i\s+am\s+|we\s+are\s+)?sorry"
    r"|unfortunately|(?:based\s+on|according\s+to|after\s+reviewing)[^,]{0,40})[\s.。！!]*",
    re.IGNORECASE,
)


# A clause that states nothing of the policy: advice (建议咨询HR, 请联系人事部门, 以公司通知为准), the decline's consequence
# (因此无法确定, 无法给出答案) or one more matter not covered (也没有提到试用期员工); or the same in English
_ASIDE = re.compile(
    r"^(?:具体|还是|最好)?建议|(?:请|可以|可|需要|建议|不妨)[^，,。]{0,12}?(?:咨询|联系|询问|请教|核实|确认)"
    r"|以[^，,。]{1,16}为准|^(?:因此|所以|故|因而)?(?:我|本助手)?(?:暂时)?(?:无法|不能|没法|难以)(?:准确)?"
    r"(?:确定|给出|判断|回答|作答|答复|提供)|^(?:并且|而且)?也(?:没有|未|没)"
    r"|\bplease\s+(?:contact|consult|check|ask|refer)|\b(?:i|we)\s+(?:recommend|suggest)"
    r"|\b(?:so|therefore|thus)\b[^,]{0,6}\b(?:cannot|can't|unable)|\byou\s+(?:may|can|should)\s+(?:contact|consult|ask)",
    re.IGNORECASE,
)
# 1. 2、 (3) 一、 （二） - open items
_LIST_MARKER = re.compile(r"^[ \t]*(?:\d{1,3}[.．、)）]|[（(][\d一二三四五六七八九十]{1,3}[)）]|[一二三四五六七八九十]{1,3}、|[-*•·])\s*",
                          re.MULTILINE)
# A sentence that declines: the sources (资料, 制度…) do not mention the matter, have nothing about it (没有关于…的规定,
# 没有相关规定), the question cannot be answered; or the same in English. The thing a policy does not provide comes
# before 规定/说明 (没有关于加班餐费的规定), never after it (没有规定试用期可以延长 states what the policy says).
_SOURCES = r"(?:资料|制度|规定|条款|文件|政策|材料|内容)"
_DECLINES = re.compile(
    rf"{_SOURCES}[中里内上]?[^。！？\n，,]{{0,4}}?(?:并|均|都|也)?(?:没有|未|没)(?:有)?(?:提及|提到|涉及|记载|包含|包括|写明|写到)"
    r"|(?:没有|未|无|未见|未找到|没有找到)(?:任何)?(?:关于|有关|涉及)[^。！？\n]{0,30}?的(?:规定|说明|内容|信息|条款|标准|描述|记载)"
    r"|(?:没有|未|无|未见|未找到|没有找到)(?:任何)?(?:相关|具体|明确|直接)?的?(?:相关)?(?:规定|说明|内容|信息|条款)(?=[。！？!?,，；;]|$)"
    r"|(?:无法|不能)(?:准确|具体|直接)?(?:回答|作答|答复)(?:您|你)?的?(?:这个|该|此|这一|此类)?(?:问题)?(?=[。！？!?,，；;]|$)"
    r"|\b(?:does|do|did)(?:n't|\s+not)\s+(?:explicitly\s+)?(?:mention|cover|specify|address|say|state|include|contain)"
    r"|\b(?:is|are|was|were)(?:n't|\s+not)\s+(?:explicitly\s+)?(?:mentioned|covered|specified|stated|addressed|included)"
    r"|\bno\s+(?:information|mention|provision)|\b(?:cannot|can't|unable\s+to)\s+(?:answer|determine)",
    re.IGNORECASE,
)
# A reasoning model's thinking before its answer (<think>…</think>): never shown, stored or checked.
_THINKING = re.compile(r"\s*<(think|thinking)>.*?</\1>\s*", re.IGNORECASE | re.DOTALL)
_THINKING_OPENS = ("<think>", "<thinking>")


def without_thinking(reply: str) -> str | None:
    """`reply` without a leading <think>…</think> block; None while it may still be in one (a stream holds it
    back: <thi… may open one) or when the block never closed (the model only thought)."""
    head = reply.lstrip()[:11].lower()
    if any(tag.startswith(head) or head.startswith(tag) for tag in _THINKING_OPENS):
        thinking = _THINKING.match(reply)
        return reply[thinking.end():] if thinking else None
    return reply


def _weak_model_answer(text: str, sources: list[SourceRef]) -> bool:
    """A model's answer (not its refusal) written when no source was 依据充分 and some were 依据较弱."""
    verdicts = {s.verdict for s in sources}
    return not is_refusal(text) and WEAK_EVIDENCE in verdicts and STRONG_EVIDENCE not in verdicts


def compose_answer(
    question: str,
    built: BuiltPrompt,
    llm,
    on_token: OnToken | None = None,
    groups: Mapping[str, set[str]] | None = None,
    facts: Sequence[str] = (),
    closeness: Closeness | None = None,
    typed: str = "",
) -> ComposedAnswer:
    """(answer, answerer name, citation check) for a built prompt; streams through `on_token` when given.

    `groups` (question word → thesaurus terms) lets the offline answerer see that
    a clause names the question's subject in policy wording. An LLM answer loses
    any [资料N] the prompt did not have, and its sentences are checked for numbers
    their clauses do not state (`citations`). `closeness` (question, sentences → how close each is in
    meaning) helps the offline answerer pick the sentence that leads. `typed` is the question as the person
    typed it when `question` is a follow-up made standalone: what it asks is read from it (`what_is_asked`).
    """
    if not built.sources:
        if on_token:
            on_token(NOT_IN_POLICY)
        # `build_prompt` keeps the best clause whatever the budget: a prompt without sources had no hits
        why = "条款超出提示词预算" if built.dropped else "无命中"
        return ComposedAnswer(NOT_IN_POLICY, f"{why}：不调用模型", CitationCheck(), refused=True)
    if llm is not None:
        shown: list[str] = []
        try:
            # a model may write personal data it read anywhere (a clause, a memory, its own invention): masked as
            # the question and the memories are, before the answer is stored or shown again; a value a source's
            # document kept (a hotline) stays, as the source shows it (`text.kept`)
            kept = kept_values(source.text for source in built.sources)
            raw = _model_reply(llm, built.text, on_token, shown, kept)
            answer, check = check_citations(masked_keeping(raw.strip(), kept), built.sources)
            answer = refusal_kept(answer) if is_refusal(answer) else answer
            # a citation the guard took out may have joined two runs of digits into one number: masked again
            answer = masked_keeping(answer, kept)
            if not any(char.isalnum() for char in without_citations(answer)):  # [资料1]。 alone
                raise LLMError(f"大模型 {llm.name} 的回复只有资料引用，没有内容", kind="response")
        except LLMError as failure:  # the clauses are at hand: quote them rather than lose the turn
            if on_token and shown:
                on_token(ABANDONED_NOTE)
            offline = compose_answer(question, built, None, on_token, groups, facts, closeness, typed)
            if on_token:
                on_token(f"\n\n{MODEL_DOWN_NOTE}")
            return offline._replace(text=f"{offline.text}\n\n{MODEL_DOWN_NOTE}",
                                    answerer=f"{offline.answerer}（大模型不可用：{failure}）")
        return ComposedAnswer(answer, llm.name, check, _weak_model_answer(answer, built.sources), is_refusal(answer))
    from .headers import stated_verdict

    answer, answerer = _offline(question, built.sources, on_token, groups, facts, closeness, typed)
    return ComposedAnswer(answer, answerer, CitationCheck(), answer.startswith(WEAK_HEADER), is_refusal(answer),
                          stated_verdict(answer))


def _model_reply(llm, prompt: str, on_token: OnToken | None, shown: list[str], kept: frozenset[str] = frozenset()) -> str:
    """The model's answer, streamed through `on_token` (pieces shown are kept in `shown`), at most
    `ANSWER_MAX_CHARS` of it (then `CUT_NOTE` ends it, after a number it was cut inside is dropped, and the rest
    is not read; so a number at the end of what came is held back until more shows it ended). A blank one is
    an LLMError."""
    if on_token:
        pieces: Iterator[str] = iter(llm.stream(prompt))
    else:
        pieces = iter([complete(llm, prompt, max_tokens=ANSWER_MAX_TOKENS)])
    body, passed, cut = "", 0, False  # passed: how much of body went to `masked`
    # pieces are shown masked, never as the model wrote them (but for the values its sources kept)
    masked = MaskedStream(lambda text: on_token(Formatted(text)), lambda text: masked_keeping(text, kept)) \
        if on_token else None  # the model's markdown is kept on the page (`Formatted`), as in the stored turn

    def pass_on(answer: str, upto: int) -> None:
        nonlocal passed
        if masked and upto > passed:
            shown.append(answer[passed:upto])
            masked(answer[passed:upto])
            passed = upto

    # once the answer declines, the rest waits: shown when the sentences so far are no refusal (制度没有规定上限，按实际
    # 发生报销[资料1]。), else at the end as `refusal_kept` leaves it (what a refusal adds uncited is never shown)
    held, floor, read = False, 0, 0  # floor: where a decline is looked for again after one read as no refusal; read: how
    # much of the answer was looked at for a sentence end
    try:
        for piece in pieces:
            body += piece[: ANSWER_MAX_CHARS - len(body)]
            if len(body) >= ANSWER_MAX_CHARS:
                cut = True
                break
            answer = without_thinking(body)
            if answer is None:
                continue
            held = held or _declines(answer[max(floor, passed - _DECLINE_REACH):])
            ended, read = _last_sentence_end(answer, read), len(answer)  # (each character looked at once)
            if held and ended > floor and not is_refusal(answer[:ended]):  # (judged when a sentence ends, not per piece)
                held, floor = False, ended
            if not held and not _may_open_a_refusal(answer):  # (制度规… waits for its next characters only)
                pass_on(answer, passed + number_in_progress(answer[passed:]))
        answer = without_thinking(body) or ""
        body = without_cut_number(answer) if cut else answer
        body = refusal_kept(body) if is_refusal(body) else body
        if body.startswith("".join(shown)):  # (a refusal trimmed of what was shown: the stored turn is drawn next)
            pass_on(body, len(body))  # what arrived is shown, masked with all of it, before a note or the offline answer
    finally:
        close = getattr(pieces, "close", None)
        if close is not None:  # a generator over an HTTP stream: its connection is closed, not read to the end
            close()
        if masked:
            masked.flush()
    if not body.strip():
        raise LLMError(f"大模型 {getattr(llm, 'name', '')} 返回了空白回复", kind="response")
    if not cut:
        return body
    if on_token:
        on_token(f"\n\n{CUT_NOTE}")
    return f"{body}\n\n{CUT_NOTE}"


_DECLINE_REACH = 80  # how far back a decline may start in what was already shown (read each piece: bounded)
_SENTENCE_END = re.compile(r"[。！？!?\n，,；;]")  # where a held answer is judged again: a sentence or clause ends


def _last_sentence_end(answer: str, start: int) -> int:
    """Just after the last sentence or clause end of `answer` at or after `start` (0: none there)."""
    ends = [match.end() for match in _SENTENCE_END.finditer(answer, start)]
    return ends[-1] if ends else 0


def _may_open_a_refusal(answer: str) -> bool:
    """The answer so far is, or may yet become, one opening with the refusal words: held back until it ends, so what
    a refusal adds of its own is never shown (`refusal_kept`)."""
    opening = answer.lstrip()
    return any(opening[: len(marker)] == marker[: len(opening)] for marker in REFUSAL_MARKERS)


def _offline(
    question: str, sources: list[SourceRef], on_token: OnToken | None, groups: Mapping[str, set[str]] | None,
    facts: Sequence[str] = (), closeness: Closeness | None = None, typed: str = "",
) -> tuple[str, str]:
    from .asks import what_is_asked
    from .extractive import ExtractiveAnswerer

    answer = ExtractiveAnswerer().answer(question, sources, groups=groups, facts=facts, closeness=closeness,
                                         asks=what_is_asked(typed, question))
    if on_token:
        on_token(answer)
    return answer, ExtractiveAnswerer.name
