"""What a person reads beside an answer besides its text, in plain words: shared by the chat page and `ask`.

The chat page draws these as captions and badges, the command line prints them as lines; both take the decisions
and the words from `AnswerNotes`, so the two cannot drift apart:
- `weak`: a model's answer that rests on 依据较弱 evidence only and does not say so itself (`WEAK_NOTE`);
- `unsupported`: sentences whose numbers, amounts or dates none of their cited clauses states (`UNSUPPORTED_MARK`
  after each, `UNSUPPORTED_NOTE` below);
- `removed`: [资料N] the model cited that were not in the prompt, taken out of the answer (`removed_note`);
- `cited`: the 出处, the sources the answer cites, in order, once each (none for an answer that used no clause).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..text.shown import without_tail
from ..types import (
    ACKNOWLEDGED,
    ANSWERED,
    OFFLINE_ANSWERER,
    OUTCOMES,
    REFUSED,
    STANDARD,
    WEAK,
    WEAK_EVIDENCE,
    AskTrace,
    SourceRef,
)
from .citations import citation_spans, cited_numbers

OFFLINE_WORDS = "离线抽取式（摘录原文）"


def trace_outcome(trace: AskTrace) -> str:
    """The trace's own outcome; a trace stored before outcomes were kept is read from its fields."""
    if trace.outcome in OUTCOMES:
        return trace.outcome
    if trace.standard_answer:
        return STANDARD
    if trace.acknowledged and not trace.search.query:
        return ACKNOWLEDGED
    if not trace.search.hits:
        return REFUSED
    return WEAK if trace.weak_evidence else ANSWERED


@dataclass(frozen=True)
class AnswerNotes:
    """The notes that go with one answer (`of`), and their words."""

    weak: bool
    unsupported: tuple[str, ...]
    removed: tuple[int, ...]
    cited: tuple[SourceRef, ...]

    UNSUPPORTED_MARK: ClassVar[str] = "未在资料中找到"
    WEAK_NOTE: ClassVar[str] = "依据较弱：回答所依据的条款与问题只是相近，请核对原文。"
    UNSUPPORTED_NOTE: ClassVar[str] = (
        f"标有“{UNSUPPORTED_MARK}”的句子里的数字、金额或日期，在它引用的条款中找不到，请以条款原文为准。"
    )

    outcome_of = staticmethod(trace_outcome)  # for the pages, which import only the engine's public names

    @staticmethod
    def answerer_of(trace: AskTrace) -> str:
        """Who answered, in words (回答方式): 离线抽取式（摘录原文）, also after a model failed; a model by its name. The
        command line printed the engine's own word, extractive (review 388 #2)."""
        name = trace.answerer
        return OFFLINE_WORDS + name[len(OFFLINE_ANSWERER):] if name.startswith(OFFLINE_ANSWERER) else name

    @classmethod
    def of(cls, trace: AskTrace, outcome: str | None = None) -> AnswerNotes:
        """The notes of `trace`; `outcome`: the one the page's badge shows (default: the trace's own)."""
        outcome = outcome or trace_outcome(trace)
        # rule 6 asks a model to start with 依据较弱 itself, and the offline answer always does: no second note then
        weak = outcome == WEAK and not trace.answer.lstrip().startswith(WEAK_EVIDENCE)
        sources = {s.number: s for s in trace.sources}
        used = outcome in (ANSWERED, WEAK) and bool(trace.search.hits)  # a refusal or 标准答复 cites no clause
        numbers = cited_numbers(without_tail(trace.answer, trace.engine_tail)) if used else []
        check = trace.citations
        return cls(weak, tuple(check.unsupported), tuple(check.removed),
                   tuple(sources[n] for n in numbers if n in sources))

    @property
    def cited_numbers(self) -> list[int]:
        """The N of every [资料N] the answer cites, in order, once each."""
        return [s.number for s in self.cited]

    def removed_note(self, shown: str = "") -> str:
        """The note on the deleted citations ("" when none); `shown`: the [资料N] list as the caller writes it."""
        if not self.removed:
            return ""
        shown = shown or "、".join(f"[资料{n}]" for n in self.removed)
        return f"模型引用了不存在的 {shown}，已从回答中删除。"

    def unsupported_ends(self, answer: str) -> list[int]:
        """Where each flagged sentence ends in `answer` (its first occurrence), moved past a [资料N] it would split."""
        citations = citation_spans(answer)
        ends = [at + len(sentence) for sentence in self.unsupported if sentence and (at := answer.find(sentence)) >= 0]
        return [next((e for s, e in citations if s < end < e), end) for end in ends]

    def marked(self, answer: str) -> str:
        """`answer` as plain text, with （未在资料中找到） after each flagged sentence."""
        parts, position = [], 0
        for end in sorted(self.unsupported_ends(answer)):
            parts += [answer[position:end], f"（{self.UNSUPPORTED_MARK}）"]
            position = end
        return "".join([*parts, answer[position:]])

    def lines(self) -> list[str]:
        """The notes as plain lines, in the order the chat page shows them under the answer."""
        lines = [self.WEAK_NOTE] if self.weak else []
        if self.unsupported:
            lines.append(self.UNSUPPORTED_NOTE)
        if self.removed:
            lines.append(self.removed_note())
        if self.cited:
            lines.append("出处：" + "；".join(source_line(s) for s in self.cited))
        return lines


def source_line(source: SourceRef) -> str:
    """[资料N] file · section, in plain text."""
    return f"[资料{source.number}] {source.source}" + (f" · {source.section}" if source.section else "")
