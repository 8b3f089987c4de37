"""One conversation as Markdown (questions, answers, the cited clauses with their sources)."""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

from ..text.markdown import escape_md, inert_markdown, one_line, quoted_lines
from ..text.shown import without_tail
from ..types import ACKNOWLEDGED, quoted_offline
from .store import Conversation

_CITATION = re.compile(r"\[资料(\d+)\]")
DEFAULT_TIMEZONE = "Asia/Shanghai"


def local_time(iso: str, timezone: str = DEFAULT_TIMEZONE) -> str:
    """2026-11-30T23:30:12+00:00 → 2026-12-01 07:30 (the reader's local time)."""
    try:
        moment = datetime.fromisoformat(iso)
        return moment.astimezone(ZoneInfo(timezone)).strftime("%Y-%m-%d %H:%M")
    except (ValueError, KeyError):
        return iso


def cited_sources(trace: dict) -> list[dict]:
    """The prompt sources the answer cites ([资料N]); none when it cites none (a refusal quotes no clause, as the
    chat page shows it). The person's words the engine repeats after the answer (`engine_tail`) cite nothing."""
    sources = trace.get("sources") or []
    cited = {int(n) for n in _CITATION.findall(without_tail(trace.get("answer") or "", str(trace.get("engine_tail") or "")))}
    return [s for s in sources if s.get("number") in cited]


def _quote(text: str) -> str:
    """A clause as a block quote, every line shown literally (a policy's own markup stays text)."""
    return "\n".join(f"> {escape_md(line)}" if line.strip() else ">" for line in text.strip().splitlines())


def _field(text: object) -> str:
    """A one-line text a person or a document wrote (title, question, user): flattened and shown literally."""
    return escape_md(one_line(text))


def _name(text: object) -> str:
    """A file or section name after a prefix on its line: flattened, no link, image or HTML (its dots stay as typed)."""
    return inert_markdown(one_line(text))


def _answer(answer: str, trace: dict) -> str:
    """The answer as the chat page shows it: the offline quoter's sentences (a document's words) and what the engine
    says back about a statement (the person's words) literally, a model's or HR's formatting kept."""
    tail = str(trace.get("engine_tail") or "")
    if tail and answer.endswith(tail):
        return f"{_answer(answer[: -len(tail)].rstrip(), trace)}\n\n{quoted_lines(tail)}"
    literal = quoted_offline(str(trace.get("answerer", ""))) or trace.get("outcome") == ACKNOWLEDGED
    return quoted_lines(answer) if literal else inert_markdown(answer)


def to_markdown(conversation: Conversation, timezone: str = DEFAULT_TIMEZONE) -> str:
    """The whole conversation, readable on its own (the clauses are quoted, not linked).

    Nothing a person, a document or a model wrote is live in the file: titles, questions, names and quoted
    clauses are escaped (`escape_md`), answers keep their lists and bold only (`inert_markdown`), and a
    question's newlines are flattened, so no text forges a turn, a link, an image or HTML."""
    lines = [
        f"# {_field(conversation.title)}",
        "",
        f"- 用户：{_field(conversation.user)}",
        f"- 开始于：{local_time(conversation.created_at, timezone)}（{timezone}）",
        f"- 共 {len(conversation.turns)} 轮",
        "",
    ]
    for turn in conversation.turns:
        lines += [f"## 第 {turn.turn} 轮 · {local_time(turn.created_at, timezone)}", "", f"**问：** {_field(turn.question)}", ""]
        if turn.search_question and turn.search_question != turn.question:
            lines += [f"*检索用的问题：{_field(turn.search_question)}*", ""]
        lines += ["**答：**", "", _answer(turn.answer.strip(), turn.trace), ""]
        sources = cited_sources(turn.trace)
        if sources:
            lines += ["**引用的条款：**", ""]
            for source in sources:
                where = _name(source.get("source", ""))
                if source.get("section"):
                    where += f" · {_name(source['section'])}"
                lines += [f"[资料{source.get('number')}] {where}", "", _quote(source.get("text", "")), ""]
        if turn.rating:
            lines += [f"评价：{'有用' if turn.rating > 0 else '没用'}", ""]
    return "\n".join(lines).rstrip() + "\n"
