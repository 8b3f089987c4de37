"""One verdict per answer, read from `trace.outcome` and shown the same everywhere.

The badge under an answer, the label of its clause list, the first line of 技术细节
and the 出处 line all come from `verdict_of`, so a refusal never sits beside a green
hit count and every count agrees. Nothing here reads the answer's words to find the
outcome (`AnswerNotes`, shared with the command line, reads which clauses it cited).
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from rag_core import AnswerNotes
from rag_core.types import ACKNOWLEDGED, ANSWERED, STANDARD, WEAK, AskTrace, Hit
from ui.inert import escape_md
from ui.state import person_name
from ui.timefmt import local_time

NO_HIT_REASON = "没有资料通过阈值"


@dataclass(frozen=True)
class Verdict:
    outcome: str  # one of rag_core.types.OUTCOMES
    badge: str  # the one line under the answer
    colour: str
    icon: str
    note: str  # one plain sentence under the badge ("" for none)
    used: tuple[Hit, ...] = ()  # the clauses the answer rests on: their cards keep their strength
    unused: tuple[Hit, ...] = ()  # the nearest clauses it did not use: grey cards
    unused_reason: str = ""  # what a grey card says ("": the search's own 未采用 words)
    unused_heading: str = NO_HIT_REASON  # why none was used, above the grey cards

    @property
    def list_label(self) -> str:
        """The clause list's title, with the same count as the badge."""
        if self.used:
            return f"依据的条款（{len(self.used)} 条）"
        return f"相近但未采用的条款（{len(self.unused)} 条）"

    @property
    def line(self) -> str:
        """The verdict in one line, for 技术细节."""
        return f"回答结论：{self.badge}；{self.list_label}"


def outcome_of(trace: AskTrace) -> str:
    """The trace's own outcome (`AnswerNotes.outcome_of`: one reading for the page and the command line)."""
    return AnswerNotes.outcome_of(trace)


def verdict_of(trace: AskTrace) -> Verdict:
    """What the person reads about this answer: one badge, one count, the clauses used and not used."""
    outcome = outcome_of(trace)
    hits, misses = tuple(trace.search.hits), tuple(trace.search.near_misses)
    if outcome in (ANSWERED, WEAK):
        count = f"命中 {len(hits)} 块"
        if outcome == WEAK:
            return Verdict(outcome, f"依据较弱 · {count}", "orange", ":material/warning:", "", hits)
        return Verdict(outcome, count, "green", ":material/check_circle:", "", hits)
    if outcome == STANDARD:
        return Verdict(outcome, "标准答复", "blue", ":material/verified:", _standard_note(trace),
                       unused=hits or misses, unused_reason="未引用", unused_heading="已用标准答复回答")
    if outcome == ACKNOWLEDGED:
        return Verdict(outcome, "已记住您的信息", "gray", ":material/psychology:", "")
    if hits:  # the search found clauses, and none of them answers the question
        note = f"找到 {len(hits)} 条相近的条款，但没有一条直接回答这个问题，所以不引用。"
        return Verdict(outcome, "没有可用的条款", "gray", ":material/block:", note, unused=hits,
                       unused_reason="未采用：没有直接回答这个问题", unused_heading="找到的条款都没有直接回答这个问题")
    return Verdict(outcome, "没有可用的条款", "gray", ":material/block:", f"命中 0 块：{NO_HIT_REASON}，所以不引用任何资料。",
                   unused=misses)


def _standard_note(trace: AskTrace) -> str:
    """Who wrote the standard answer, when, and what it rests on (their words, shown inert)."""
    s = trace.standard_answer or {}
    author = person_name(str(s.get("author", "")))
    note = f"HR 写好的答复 · {escape_md(author)} · {local_time(s.get('created_at', ''), fmt='%Y-%m-%d')}"
    return note + (f" · 依据：{escape_md('；'.join(s['clauses']))}" if s.get("clauses") else "")


def render_verdict(verdict: Verdict) -> None:
    """The badge under an answer, and its one plain sentence."""
    st.badge(f"**{verdict.badge}**", icon=verdict.icon, color=verdict.colour)
    if verdict.note:
        st.caption(verdict.note)


def hit_count_badge(count: int) -> None:
    """A search without an answer (the retrieval test): its hit count; zero is stated plainly with its reason."""
    if count:
        st.badge(f"命中 {count} 块", icon=":material/check_circle:", color="green")
    else:
        st.badge("命中 0 块", icon=":material/block:", color="gray")
        st.caption(f"{NO_HIT_REASON}，所以不引用任何资料。")
