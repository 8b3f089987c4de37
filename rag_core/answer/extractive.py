"""Offline answerer: quotes the most relevant policy sentences verbatim.

Used when no LLM is configured. It cannot paraphrase, so it cannot invent:
every line it prints is a whole sentence copied from a numbered source, with
the [资料N] marker of that source.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ..text.instructions import OMITTED
from ..text.refusal_lines import no_number, no_value, other_case
from ..text.sentences import CLOSERS, END_CHARS, SENTENCE_RE, WORD_CHAR_RE, split_sentences
from ..types import OFFLINE_ANSWERER, SourceRef
from .answering import WEAK_EVIDENCE, WEAK_HEADER, Closeness
from .asks import asked_clause_polarity, asked_pattern, gives_asked, says_asked
from .enumerations import whole_enumerations
from .headers import HEADER, header
from .headings import AMOUNT as _AMOUNT
from .headings import NORMATIVE as _NORMATIVE
from .headings import first_chunk, is_heading, is_title
from .prompt import NOT_IN_POLICY
from .ranges import band_sentence, stated_amounts
from .sentence_terms import match_terms
from .subject import (
    answers_value,
    asked_value,
    is_yes_no,
    part_conflicts,
    polarity,
    question_parts,
    question_terms,
    required_quantity,
    scope_conflicts,
    states_quantity,
)
from .table_cells import AskedNumber

__all__ = ["HEADER", "WEAK_HEADER", "ExtractiveAnswerer", "Quote", "split_sentences"]

CHECK_ASKED_VALUE = True  # "X是多少" needs a clause stating a value for X (off only for the ablation in bench/)

_END_CHARS = END_CHARS
_CLOSERS = CLOSERS
_SENTENCE_RE = SENTENCE_RE

_WORD_CHAR_RE = WORD_CHAR_RE

_RELATIVE_FLOOR = 0.3  # an extra sentence must add at least this share of the best score
_COVERED_FACTOR = 0.5  # a term already quoted still counts, at half weight
_FRAGMENT_FACTOR = 0.85  # a chunk's unterminated last piece may be a sentence cut by chunking
# How much closeness in meaning counts against the words matched when a what/how answer's lead is chosen:
# chosen among 0, 0.15, 0.3, 0.6 on the open sessions (right sentence first 0.45 / 0.49 / 0.46 / 0.44)
LEAD_MEANING_WEIGHT = 0.15
# The least spread of those cosines a z-score divides by: two sentences 0.001 apart would otherwise differ
# by a full ±1 (fresh part unchanged, open +1 lead)
MEANING_SPREAD_FLOOR = 0.05
_RULE_FACTOR = 1.25  # a sentence that states an amount or a limit is more likely the rule itself
# Lines an answer may add beyond `max_sentences`: the best sentence of a source the search judged answering
# that no quoted sentence came from (docs/retrieval.md, "Stop 43")
UNQUOTED_SOURCE_LINES = 1


@dataclass(frozen=True)
class Quote:
    """One verbatim sentence and where it came from."""

    text: str
    source_number: int
    position: int  # order within its source
    is_heading: bool
    complete: bool  # ended by punctuation or a line break (not cut at the end of the chunk)
    line_end: bool = False  # ends its line: a list item, not a part of an enumeration running on (`enumerations`)


class Selection(NamedTuple):
    """The sentences an answer quotes, and for each source none of them came from, its best sentence."""

    picked: list[Quote]
    spare: list[Quote]


def _source_text(src: SourceRef) -> str:
    """File name and heading on a line of their own (the guard reads that line with every sentence), then the text."""
    return f"{src.source} {src.section}\n{src.text}"


def _stating_rule(quotes: list[Quote]) -> Quote | None:
    """The first quote with an amount or limit, else the first with a normative word."""
    for pattern in (_AMOUNT, _NORMATIVE):
        for quote in quotes:
            if pattern.search(quote.text):
                return quote
    return None


def _governing_sentence(picked: list[Quote]) -> Quote:
    """The sentence that states the rule among the picked ones of the best source."""
    best_source = min(q.source_number for q in picked)
    own = [q for q in picked if q.source_number == best_source]
    return _stating_rule(own) or own[0]


def _phrase_terms(terms: list[str], groups: Mapping[str, set[str]]) -> list[str]:
    """The thesaurus phrases that stand for the question's words (打车 → 出租车, 网约车)."""
    return list(dict.fromkeys(p for t in terms for p in sorted(groups.get(t, ())) if len(p) >= 2))


def _where(src: SourceRef) -> str:
    """How a refusal names the nearest clause: its last heading, else its file."""
    return (src.section or src.source).split(">")[-1].strip()


def _refusal(terms: list[str], parts: list[list[str]], first: SourceRef, groups: Mapping[str, set[str]]) -> str:
    """制度里没有写这一条, and why the nearest clause does not answer (it conflicts with every part, so
    there is always a word to name)."""
    text = _source_text(first)
    missing = scope_conflicts(terms, text, groups) or list(dict.fromkeys(
        t for part in parts for t in part_conflicts(part, terms, text, groups)))
    return f"{NOT_IN_POLICY}。\n" + other_case(_where(first), missing)


class ExtractiveAnswerer:
    """Picks whole sentences from the sources by term overlap with the question."""

    name = OFFLINE_ANSWERER

    def answer(
        self, question: str, sources: list[SourceRef], max_sentences: int = 3, groups: Mapping[str, set[str]] | None = None,
        facts: Sequence[str] = (), closeness: Closeness | None = None, asks: str = "",
    ) -> str:
        """The quoted answer, or 制度里没有写这一条 when no source governs the question's subject."""
        return "".join(self.stream(question, sources, max_sentences, groups, facts, closeness, asks))

    def stream(
        self, question: str, sources: list[SourceRef], max_sentences: int = 3, groups: Mapping[str, set[str]] | None = None,
        facts: Sequence[str] = (), closeness: Closeness | None = None, asks: str = "",
    ) -> Iterator[str]:
        """The same text as `answer`, one line at a time, for the chat UI.

        `groups` maps question words to their thesaurus terms (what counts as the
        source naming them). Sources that govern another subject are never quoted;
        the governing rule sentence leads, then conditions and limits in source order.
        `facts` are what the person told about themself (the memories used): an amount
        there (用户参加工作12年了) picks the band that holds it, like one in the question. `closeness` (the
        second model's cosines, `SecondModel.closeness_over`) helps pick the sentence that leads a what/how answer (`_closest`).
        `asks` says what is asked (a number, who, when, yes or no) when that differs from the question's words:
        a follow-up's own words, while `question` (its standalone form) finds the subject and the amounts.
        """
        groups = groups or {}
        terms = question_terms(question)
        parts = question_parts(question)
        governing = [src for src in sources if any(not part_conflicts(part, terms, _source_text(src), groups) for part in parts)]
        if sources and not governing:
            yield _refusal(terms, parts, sources[0], groups)
            return
        asks = asks or question
        # the asked kind of number, also stated by a table cell whose column the question names (午餐：30)
        asked_kind = required_quantity(asks)
        quantity = AskedNumber(asked_kind, question, tuple(terms), groups) if asked_kind is not None else None
        clauses = [(src.text, src.section) for src in governing]
        if governing and quantity is not None and not states_quantity(quantity, terms, clauses, groups):
            yield f"{NOT_IN_POLICY}。\n" + no_number(_where(governing[0]))
            return
        value = asked_value(asks) if CHECK_ASKED_VALUE else None
        # the heading and the clause, not the file name: 2024-01-员工手册.pdf states no value
        if governing and value and not answers_value(value, clauses, groups):
            yield f"{NOT_IN_POLICY}。\n" + no_value(_where(governing[0]), value)
            return
        extra = _phrase_terms(terms, groups)
        picked, spare = self.select(question, governing, max_sentences, extra_terms=extra)
        if not picked:
            yield NOT_IN_POLICY
            return
        if quantity is not None and not any(quantity.search(q.text) for q in picked):
            picked = self._with_stated_number(governing, picked, quantity)
        # amounts stated anywhere in the standalone question (工作满12年 carried to 能休几天) pick the band
        amounts = stated_amounts([question, *facts])
        lead = self._rule_sentence(question, governing, picked, extra, amounts, closeness, asks)
        # a yes/no answer led by meaning still quotes the clause's first rule second (出差能坐飞机吗: led by
        # 乘坐飞机一律购买经济舱, it keeps 单程火车时间超过6小时的，可以选择乘坐飞机)
        ruling = (self._rule_sentence(question, governing, picked, extra, amounts, None, asks)
                  if closeness is not None and is_yes_no(asks) else lead)
        leading = [lead] if ruling.text == lead.text else [lead, ruling]
        led = {q.text for q in leading}
        ordered = [*leading, *[q for q in picked if q.text not in led]][:max_sentences]
        if quantity is not None and len(parts) == 1 and not any(quantity.search(q.text) for q in ordered):
            # an answer to 多少/几天 that quotes no number is no answer: quote the matching sentence
            # that states it (每月扣除的部分不得超过…20%), or say the policy does not state it. (A question
            # of several parts asks the number of its last part only; the other parts may still be answered.)
            stating = self._stating_number(question, governing, quantity, extra)
            if stating is None:
                yield f"{NOT_IN_POLICY}。\n" + no_number(_where(governing[0]))
                return
            ordered = sorted([stating, *[q for q in ordered if q.text != stating.text]][:max_sentences],
                             key=lambda q: (q.text != lead.text, q.source_number, q.position))
        ordered = whole_enumerations(ordered, self._collect(governing))
        # 能休几天吗 asks for a number, not yes or no: no 可以 / 不可以
        verdict = _verdict(asks, lead) if is_yes_no(asks) and quantity is None else ""
        # another source's best sentence comes last (a picked one the cut above left out first), and never counts
        # as stating the asked number (a number in a lower source answers something else as often as not:
        # 最低工资标准 ≠ 百分之二十) nor says the opposite of the verdict stated
        quoted = {q.source_number for q in ordered}
        first_of_source: dict[int, Quote] = {}
        for q in [*picked, *spare]:
            if q.source_number not in quoted and not (verdict and polarity(q.text) not in ("", verdict)):
                first_of_source.setdefault(q.source_number, q)
        ordered += list(first_of_source.values())[:UNQUOTED_SOURCE_LINES]
        yield header(verdict, weak=governing[0].verdict == WEAK_EVIDENCE)
        for quote in ordered:
            yield f"\n- {quote.text} [资料{quote.source_number}]"

    # -- selection -------------------------------------------------------------

    def _with_stated_number(self, sources: list[SourceRef], picked: list[Quote], quantity: AskedNumber) -> list[Quote]:
        """The picked sentences plus the one right after them that states the asked number
        (女职工生育享受产假。→ 顺产的，98天), so an answer to 几天 shows the days."""
        every = self._collect(sources)
        for quote in picked:
            follow = next((q for q in every if q.source_number == quote.source_number and q.position == quote.position + 1), None)
            if follow is not None and quantity.search(follow.text):
                return sorted([*picked, follow], key=lambda q: (q.source_number, q.position))
        return picked

    def _stating_number(
        self, question: str, sources: list[SourceRef], quantity: AskedNumber, extra: Sequence[str]
    ) -> Quote | None:
        """In the best source, the sentence stating the asked kind of number that best matches the question.

        Only the best source: a number in a lower one answers something else as often as not
        (最低工资标准具体是多少钱 is not answered by 按照最低工资标准发放工资的职工人数占…百分之二十).
        """
        best = min(sources, key=lambda src: src.number)
        every = [q for q in self._collect([best]) if not q.is_heading and quantity.search(q.text)]
        scored = [(sum(m.values()), q) for q, m in zip(every, match_terms(question, every, extra), strict=True) if m]
        return max(scored, key=lambda pair: (pair[0], -pair[1].source_number, -pair[1].position))[1] if scored else None

    def _rule_sentence(self, question: str, sources: list[SourceRef], picked: list[Quote], extra: Sequence[str],
                       amounts: list[tuple[float, str]] = (), closeness: Closeness | None = None,
                       asks: str = "") -> Quote:
        """The sentence that answers what was asked: in the best source, among the sentences that match the
        question, the one whose band holds an amount the person stated (工作12年 → 已满10年不满20年), else the
        best-matching one that gives what the question asks for (a number, who, when: `asks`), else the first
        that names an amount or limit (else a normative word); else the best picked sentence."""
        best = min(sources, key=lambda src: src.number)
        own = [q for q in self._collect([best]) if not q.is_heading]
        asks = asks or question
        matches = match_terms(question, own, extra) if own else []
        if asks != question and own and any(mine := match_terms(asks, own, extra)):
            # a follow-up's own words say which sentences are candidates; the carried subject still scores them
            matches = [whole if part else {} for whole, part in zip(matches, mine, strict=True)]
        matched = [(q, m) for q, m in zip(own, matches, strict=True) if m]
        if amounts and (band := band_sentence([q.text for q, _ in matched], list(amounts))) is not None:
            return matched[band][0]
        asked = asked_pattern(asks)
        giving = [(q, sum(m.values())) for q, m in matched if asked is not None and gives_asked(asked, q.text)]
        if closeness is not None and own:  # with a sentence model at hand, words and meaning choose
            return _closest(question, [q for q, _ in giving] or own, own, matched, closeness)
        if giving:  # the best-matching sentence that gives what was asked (a number, who, when)
            return max(giving, key=lambda pair: (pair[1], -pair[0].position))[0]
        if asked is not None or is_yes_no(asks):  # yes or no, or what was asked is not given: the rule is
            return _stating_rule([q for q, _ in matched]) or _governing_sentence(picked)  # stated before its exceptions
        # what or how (病假需要什么证明): of the sentences that match the question best, the one stating a rule
        scored = [(q, sum(m.values())) for q, m in matched]
        top = max((score for _, score in scored), default=0.0)
        best = [q for q, score in scored if score >= top - 1e-9]
        return _stating_rule(best) or (best[0] if best else _governing_sentence(picked))

    def select(
        self, question: str, sources: list[SourceRef], max_sentences: int = 3, extra_terms: Sequence[str] = ()
    ) -> Selection:
        """The chosen sentences in source order (by source number, then position), and the spare ones.

        Greedy coverage halves the words already quoted, so a lower source that restates the subject with
        the answer in it (a second article the search also found) is left out; its best sentence is
        kept as a spare when it matches as well as a quoted one must (`_RELATIVE_FLOOR`)."""
        if not sources or max_sentences < 1:
            return Selection([], [])
        sentences = self._collect(sources)
        if not sentences:
            return Selection([], [])
        if any(not s.is_heading for s in sentences):
            sentences = [s for s in sentences if not s.is_heading]

        matches = match_terms(question, sentences, extra_terms)
        scores = [
            sum(m.values()) * (1.0 if s.complete else _FRAGMENT_FACTOR) * (_RULE_FACTOR if _AMOUNT.search(s.text) else 1.0)
            for m, s in zip(matches, sentences, strict=True)
        ]
        ranked = sorted(
            range(len(sentences)),
            key=lambda i: (-scores[i], not sentences[i].complete, sentences[i].source_number, sentences[i].position),
        )

        # The top source was judged relevant by retrieval: always quote its best sentence.
        first_number = min(s.source_number for s in sentences)
        chosen = [next(i for i in ranked if sentences[i].source_number == first_number)]
        covered = set(matches[chosen[0]])
        floor = max(scores[ranked[0]] * _RELATIVE_FLOOR, 1e-9)
        # Greedy coverage: prefer sentences that answer a part of the question not yet quoted,
        # so "年假几天，病假要什么证明" quotes both rules instead of two variants of one.
        while len(chosen) < max_sentences:
            best_i, best_gain = -1, 0.0
            for i in ranked:
                if i in chosen:
                    continue
                factor = 1.0 if sentences[i].complete else _FRAGMENT_FACTOR
                gain = factor * sum(w * (_COVERED_FACTOR if t in covered else 1.0) for t, w in matches[i].items())
                if gain > best_gain + 1e-12:
                    best_i, best_gain = i, gain
            if best_i < 0 or best_gain < floor:
                break
            chosen.append(best_i)
            covered.update(matches[best_i])
        quoted = {sentences[i].source_number for i in chosen}
        spare = []
        for number in sorted({s.source_number for s in sentences} - quoted):
            best_i = next(i for i in ranked if sentences[i].source_number == number)
            if scores[best_i] >= floor:
                spare.append(sentences[best_i])
        return Selection(sorted((sentences[i] for i in chosen), key=lambda s: (s.source_number, s.position)), spare)

    @staticmethod
    def _collect(sources: list[SourceRef]) -> list[Quote]:
        """All sentences, higher-ranked sources first; a sentence repeated by chunk overlap is kept once."""
        seen: set[str] = set()
        out: list[Quote] = []
        for src in sorted(sources, key=lambda s: s.number):
            pieces = list(_SENTENCE_RE.finditer(src.text))
            position = 0
            opens, first = True, first_chunk(src.chunk_id)  # a document's title opens its first chunk (`is_title`)
            for match in pieces:
                raw = match.group(0)
                text = raw.strip()
                if not text or not _WORD_CHAR_RE.search(text) or OMITTED in text:  # an order left out of the source
                    continue
                own_line, opens_chunk, opens = raw.rstrip(" \t\r").endswith("\n"), opens, False
                key = re.sub(r"\s+", "", text)
                if key in seen:
                    continue
                seen.add(key)
                complete = own_line or text[-1] in _END_CHARS or text[-1] in _CLOSERS
                heading = is_heading(text, src.section) or is_title(text, src.source, opens_chunk=opens_chunk,
                                                                     own_line=own_line, first=first)
                line_end = own_line or not src.text[match.end():].split("\n", 1)[0].strip()  # nothing after it
                out.append(Quote(text, src.number, position, heading, complete, line_end))
                position += 1
        return out


def _verdict(asks: str, lead: Quote) -> str:
    """可以 / 不可以 as the lead states it, when it says what the yes/no question turns on (`says_asked`):
    离职证明遗失的，员工可以…补开 does not answer 离职证明上会写我为什么走吗, so it gives no 可以. Only the lead:
    reading the quoted rule second as well added wrong verdicts and no right one (stop 42, open and fresh)."""
    said = polarity(lead.text)  # first: most leads state none, and `says_asked` needs the part-of-speech tagger
    if said:
        return said if says_asked(asks, lead.text) else ""
    return asked_clause_polarity(asks, lead.text)


def _closest(question: str, candidates: list[Quote], own: list[Quote], matched: list[tuple[Quote, dict[str, float]]],
             closeness: Closeness) -> Quote:
    """Of `candidates` (the sentences giving what was asked, else the clause's), the one that matches the
    question's words best (as a share of the best match) plus, weighted by LEAD_MEANING_WEIGHT, how close it
    is in meaning (its cosine's z-score among the clause's sentences). Words alone often tie, or favour a
    sentence that repeats the question's topic (员应提前一周登记… for 一周最多几天) over the one answering it."""
    lexical = {id(q): sum(m.values()) for q, m in matched}
    top = max(lexical.values(), default=0.0) or 1.0
    cosines = np.asarray(closeness(question, [q.text for q in own]), dtype=float)
    spread = max(float(cosines.std()), MEANING_SPREAD_FLOOR)  # near-equal cosines (float16 rows) do not decide
    meaning = dict(zip(map(id, own), (cosines - cosines.mean()) / spread, strict=True))
    return max(candidates, key=lambda q: (lexical.get(id(q), 0.0) / top + LEAD_MEANING_WEIGHT * meaning[id(q)],
                                          -q.position))
