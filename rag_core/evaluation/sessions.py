"""Session eval: whole conversations as people have them, scored turn by turn.

A session file (JSONL, one session a line) was written by people who never read
the engine: {"id", "corpus", "turns": [...]}, each turn either an upload
({"upload": path}) or something typed ({"say", "kind", gold fields}). Kinds:
new_topic, followup, statement, personal, after_upload, trap, absent. Gold:
`expected` (substrings of the answering clause, any one counts), `lead` (of the
sentence that must come first), `refuse`, `must_contain` (words a follow-up's
search question must carry), `remember` and `memory` (what a statement stores,
what a personal question must use), `yes_no` (the policy's plain answer to a yes/no question: yes or no).

Scoring is pure (`score_turn`); `run_session` drives an assistant through one
session; `summarise` gives the acceptance figures and a table per kind.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..answer.answering import WEAK_HEADER
from ..text.pii import redact_text
from ..types import REFUSED, WEAK_EVIDENCE
from .metrics import QuestionSetError, json_problem, jsonl_lines

KINDS = ("new_topic", "followup", "statement", "personal", "after_upload", "trap", "absent")
# a question that carries its own subject: it must be searched exactly as typed
COMPLETE = ("new_topic", "personal", "after_upload", "trap", "absent")
TOP_K = 3
_CITED = re.compile(r"\[资料(\d+)\]")
_SPACE = re.compile(r"\s+")
_BULLET = re.compile(r"^(?:[-•*]|\d{1,2}[.、）)])\s*")  # a list marker, not a sentence's own leading number
# the offline answer's opening lines, which precede the first quoted sentence
_OPENERS = ("根据制度", WEAK_EVIDENCE, "按这些条款")
_VERDICT = {"yes": "可以", "no": "不可以"}  # gold yes_no -> the verdict an answer must state


@dataclass
class TurnResult:
    session: str
    index: int
    kind: str
    say: str
    searched: str
    checks: dict[str, bool] = field(default_factory=dict)  # measure -> held (confident: True is the failure)
    answer: str = ""  # what was answered, for reading an open set's failures (the sealed part writes no turns)


def load_sessions(path: Path) -> list[dict[str, Any]]:
    """Sessions of a JSONL file; a malformed line is refused with its number."""
    sessions = []
    for n, line in enumerate(jsonl_lines(Path(path).read_text(encoding="utf-8")), start=1):
        if not line.strip():
            continue
        try:
            session = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{n}: 不是合法的 JSON（{json_problem(exc, n)}）") from None
        if not isinstance(session, dict) or not session.get("id") or not session.get("corpus") or not session.get("turns"):
            raise ValueError(f"{path}:{n}: 需要 id、corpus 和 turns")
        for turn in session["turns"]:
            if "upload" in turn:
                continue
            if turn.get("kind") not in KINDS:
                raise ValueError(f"{path}:{n}: 不认识的 kind {turn.get('kind')!r}")
            if not isinstance(turn.get("say"), str) or not turn["say"].strip():
                raise ValueError(f"{path}:{n}: 每一轮需要 say（说了什么）")
            for name in ("expected", "must_contain"):  # a string would be matched character by character
                if name in turn and not (isinstance(turn[name], list) and all(isinstance(x, str) and x for x in turn[name])):
                    raise ValueError(f"{path}:{n}: {name} 应为非空文本的列表")
        sessions.append(session)
    if not sessions:  # a run over nothing reported no failures
        raise QuestionSetError(f"{path}: 文件里没有会话（文件是空的或只有空行）：请每行写一个会话，需要 id、corpus 和 turns")
    return sessions


def _flat(text: str) -> str:
    return _SPACE.sub("", _CITED.sub("", text))


def _holds(text: str, substrings: Sequence[str]) -> bool:
    flat = _flat(text)
    return any(_flat(s) in flat for s in substrings)


def first_sentence(answer: str) -> str:
    """The first line the answer quotes or says after its opening (根据制度：…, 依据较弱：…): an opening line ends
    with a colon (or is the weak-evidence hedge); 根据制度，年假每年5天。 is an answer in one line, not an opening."""
    for line in answer.splitlines():
        text = _BULLET.sub("", line.strip()).strip()
        if not text or text == WEAK_HEADER or (text.startswith(_OPENERS) and len(text) < 60 and text.endswith(("：", ":"))):
            continue
        for opener in _OPENERS:  # an opening on the same line as the first quote
            if text.startswith(opener) and "：" in text[:40]:
                text = text.split("：", 1)[1].strip()
        if text:
            return text
    return ""


def cited_texts(trace) -> list[str]:
    """Texts of the sources the answer cites ([资料N]); none when it cites none (an answer citing nothing did
    not cite the answering clause, whatever the prompt held)."""
    numbers = {int(n) for n in _CITED.findall(trace.answer)}
    return [s.text for s in trace.sources if s.number in numbers]


def score_turn(turn: dict[str, Any], trace) -> dict[str, bool]:
    """The measures this turn has gold for, each True when it holds (`failed_checks` says which are failures)."""
    kind, say = turn["kind"], turn["say"].strip()
    searched = (trace.search_question or trace.question).strip()
    refused = trace.outcome == REFUSED
    checks: dict[str, bool] = {}
    if kind in COMPLETE:
        # as typed: nothing glued on. The search question is the typed text, masked, maybe without a clause that
        # only told something (我在郑州上班，…) or only talked (对了，…): a part of what was typed
        typed = _flat(redact_text(say))
        checks["as_typed"] = bool(_flat(searched)) and _flat(searched) in typed
    if kind == "followup" and turn.get("must_contain"):
        checks["must_contain"] = all(word in searched for word in turn["must_contain"])
    expected = turn.get("expected") or []
    if expected and not turn.get("refuse"):
        checks["top3"] = any(_holds(h.chunk.text, expected) for h in trace.search.hits[:TOP_K])
        checks["cited"] = not refused and any(_holds(text, expected) for text in cited_texts(trace))
        # the right clause, answered without 依据较弱: what a hedge meant for traps costs real answers
        checks["sure"] = checks["cited"] and not trace.weak_evidence
        # the answering wording among the lines quoted: an answer citing the clause can still leave out its part that
        # answers (年假 quoting two of three bands; a rule cut at its ；), stop 58
        checks["quoted"] = not refused and _holds(trace.answer, expected)
    if turn.get("lead") and not turn.get("refuse"):
        checks["lead"] = not refused and _flat(turn["lead"]) in _flat(first_sentence(trace.answer))
    if turn.get("yes_no") in _VERDICT and not turn.get("refuse"):
        # the 可以 / 不可以 the answer states: right, or (worse than none) the opposite of the policy's
        right, opposite = _VERDICT[turn["yes_no"]], _VERDICT["no" if turn["yes_no"] == "yes" else "yes"]
        checks["verdict"] = not refused and trace.verdict == right
        checks["verdict_wrong"] = not refused and trace.verdict == opposite
    if kind == "personal" and turn.get("memory"):
        checks["memory"] = any(turn["memory"] in m.content for m in trace.memories)
    if kind == "statement" and turn.get("remember"):
        checks["remembered"] = any(redact_text(turn["remember"]) in m["content"] for m in trace.acknowledged)
    if turn.get("refuse"):
        checks["refused"] = refused
        if kind == "trap":
            checks["confident"] = not refused and not trace.weak_evidence
    return checks


def run_session(assistant, session: dict[str, Any], base: Path, *, user: str | None = None,
                on_turn: Callable[[TurnResult], None] | None = None) -> list[TurnResult]:
    """Ask every turn of `session` in one conversation of its own user; uploads are ingested where they stand."""
    user = user or f"session-{session['id']}"
    conversation = f"eval-{session['id']}"
    results = []
    for index, turn in enumerate(session["turns"]):
        if "upload" in turn:
            report = assistant.ingest_file(base / turn["upload"])
            if not report.ok:
                raise ValueError(f"{session['id']}: 上传失败 {turn['upload']}: {report.error}")
            continue
        trace = assistant.ask(turn["say"], user=user, conversation=conversation, traffic="eval")
        result = TurnResult(session["id"], index, turn["kind"], turn["say"], trace.search_question,
                            score_turn(turn, trace), trace.answer)
        results.append(result)
        if on_turn:
            on_turn(result)
    return results


# acceptance measure -> (label, check name, kinds it is read on; None: every kind that has the check)
ACCEPTANCE: dict[str, tuple[str, str, tuple[str, ...] | None]] = {
    "as_typed": ("complete questions searched as typed", "as_typed", COMPLETE),
    "followup_top3": ("follow-ups resolved (answering clause in the top 3)", "top3", ("followup",)),
    "cited": ("answering clause cited", "cited", None),
    "cited_sure": ("answering clause cited without 依据较弱", "sure", None),
    "quoted": ("answering wording quoted in the answer", "quoted", None),
    "lead": ("the right sentence first", "lead", None),
    "memory": ("memory used where gold says so", "memory", ("personal",)),
    "traps_confident": ("traps answered confidently (lower is better)", "confident", ("trap",)),
    "verdict": ("yes/no questions answered with the policy's 可以 / 不可以", "verdict", None),
    "verdict_wrong": ("yes/no questions answered with the opposite (lower is better)", "verdict_wrong", None),
    "absent_refused": ("absent questions refused", "refused", ("absent",)),
}


LOWER_IS_BETTER = frozenset({"confident", "verdict_wrong"})  # checks whose True is the failure


def failed_checks(checks: dict[str, bool]) -> list[str]:
    """The checks a turn failed: False for most, True for a trap answered confidently."""
    return [name for name, ok in checks.items() if ok == (name in LOWER_IS_BETTER)]


def _rate(results: Sequence[TurnResult], check: str, kinds: tuple[str, ...] | None) -> tuple[float | None, int]:
    marks = [r.checks[check] for r in results if check in r.checks and (kinds is None or r.kind in kinds)]
    return (round(sum(marks) / len(marks), 3) if marks else None), len(marks)


def summarise(results: Sequence[TurnResult]) -> dict[str, Any]:
    """Acceptance figures, and per kind the pass rate of each check it has."""
    acceptance = {}
    for key, (label, check, kinds) in ACCEPTANCE.items():
        rate, n = _rate(results, check, kinds)
        acceptance[key] = {"label": label, "rate": rate, "n": n}
    per_kind: dict[str, dict[str, Any]] = {}
    for kind in KINDS:
        rows = [r for r in results if r.kind == kind]
        if not rows:
            continue
        checks = sorted({c for r in rows for c in r.checks})
        per_kind[kind] = {"turns": len(rows), **{c: _rate(rows, c, None)[0] for c in checks}}
    return {"turns": len(results), "sessions": len({r.session for r in results}), "acceptance": acceptance,
            "per_kind": per_kind}
