"""Render a search result or an answer trace so a person can see why the answer was given.

HR first: by default each hit shows where it comes from, the clause, one line in
words on why it matched and how strong it is as evidence. The numbers (BM25,
cosine, ranks, probabilities, thresholds), the prompt and the timings are one
click away under 技术细节, an expander that renders its content only when opened.
Shared by the chat page and the retrieval test page, so both show the same hits
in the same layout for the same facade call.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

import pandas as pd
import streamlit as st

from rag_core import MEMORY_KIND_NAMES, AnswerNotes, AskTrace, Hit, MemoryHit, SearchResult
from rag_core.types import ACKNOWLEDGED, STANDARD, STRONG_EVIDENCE, WEAK_EVIDENCE
from ui.chunk_text import records_frame, render_chunk_text  # noqa: F401 (records_frame: re-exported)
from ui.inert import escape_md, escape_quoted_lines, inert_markdown
from ui.tables import WRAP_ROWS
from ui.timefmt import local_time, relative_age
from ui.verdict import NO_HIT_REASON, Verdict, outcome_of, render_verdict, verdict_of

TECH_LABEL = "技术细节"
UNSUPPORTED_MARK = AnswerNotes.UNSUPPORTED_MARK
MEMORY_KINDS = {"profile": "个人信息", "preference": "偏好", "episode": "经历/事件", "interaction": "问答记录"}
# verdict -> (words a person reads, badge colour)
STRENGTH: dict[str, tuple[str, str]] = {
    STRONG_EVIDENCE: (STRONG_EVIDENCE, "green"),
    WEAK_EVIDENCE: (f"{WEAK_EVIDENCE}，请核对原文", "orange"),
    "": ("未采用：与问题不够相关", "gray"),
}
_CITATION = re.compile(r"\[资料(\d+)\]")
# drawn only where the citation check flagged a sentence (`link_citations`), never recognised by its text
UNSUPPORTED_BADGE = f" :orange-badge[:material/warning: {UNSUPPORTED_MARK}]"

# Known timing keys (without the "_ms" suffix) -> Chinese stage names; unknown keys are shown as they come.
STAGE_LABELS: dict[str, str] = {
    "filter": "可见范围过滤",
    "bm25": "关键词检索(BM25)",
    "embed": "查询向量化",
    "vector": "向量检索",
    "sentence": "逐句相似度",
    "signals": "汇总信号",
    "decision": "判断是否采用",
    "total": "检索合计",
    "rewrite": "追问改写",
    "memory": "记忆召回",
    "memory_search": "结合记忆再检索",
    "prompt": "组装提示词",
    "answer": "生成回答",
    "write_back": "写回记忆",
}


def anchor_id(prefix: str, index: int) -> str:
    """HTML id of a chunk card; unique per answer so links never jump to another turn."""
    return f"{prefix}-chunk-{index}"


def keeps_formatting(trace: AskTrace) -> bool:
    """Whether the answer's own markdown (lists, bold) is kept: a model's answer, or HR's 标准答复. Text the
    engine assembled (the offline quotes, an acknowledgement repeating what was typed, a refusal naming a
    heading) is shown literally, so a document or a person cannot format it."""
    outcome = outcome_of(trace)
    if outcome == STANDARD:
        return True
    offline = trace.quoted_offline
    # no model is called without sources: 无命中 refusals, acknowledgements and chatter are the engine's words
    return outcome != ACKNOWLEDGED and bool(trace.sources) and not offline


def unsupported_ends(answer: str, sentences: Sequence[str]) -> list[int]:
    """Where each sentence the citation check flagged ends in the answer (its first occurrence; after a [资料N]
    it would split), as `ask` marks it too."""
    return AnswerNotes(False, tuple(sentences), (), ()).unsupported_ends(answer)


def link_citations(answer: str, anchors: dict[int, str], unsupported: Sequence[str] = (), *,
                   literal: bool = False) -> str:
    """The answer as markdown: each [资料N] the engine wrote links to its chunk card, a 未在资料中找到 badge
    follows each `unsupported` sentence, the rest is inert text (`literal`: shown as written but for the
    engine's '- ' bullets). The badge goes where the check flagged a sentence, never where its text appears,
    so a clause or a model writing the badge's markup shows it as text."""
    marks: list[tuple[int, int, str]] = []  # (start, end, the markdown the engine puts there)
    for match in _CITATION.finditer(answer):
        target = anchors.get(int(match.group(1)))
        label = f"\\[资料{match.group(1)}\\]"
        marks.append((match.start(), match.end(), f"[{label}](#{target})" if target else label))
    for end in unsupported_ends(answer, unsupported):  # never inside a [资料N]: after it
        marks.append((end, end, UNSUPPORTED_BADGE))
    parts: list[str] = []
    position = 0
    for start, end, mark in sorted(marks, key=lambda m: (m[0], m[1])):
        parts += [_inert(answer, position, start, literal), mark]
        position = end
    parts.append(_inert(answer, position, len(answer), literal))
    return "".join(parts)


def _inert(answer: str, start: int, end: int, literal: bool) -> str:
    text = answer[start:end]
    if not literal:
        return inert_markdown(text)
    return escape_quoted_lines(text, at_line_start=start == 0 or answer[start - 1] == "\n")


def _fmt(value: float | None, digits: int) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _rank(value: int | None) -> str:
    return "—" if value is None else f"第 {value} 名"


def hits_frame(hits: Sequence[Hit], numbers: dict[str, int] | None = None) -> pd.DataFrame:
    """One row per hit with every score; `numbers` maps chunk_id -> [资料N] in the prompt."""
    rows = []
    for rank, hit in enumerate(hits, start=1):
        s, c = hit.scores, hit.chunk
        row = {
            "排名": s.fused_rank or rank,
            "来源": c.source,
            "章节": c.section or "（无）",
            "BM25": round(s.bm25, 3),
            "BM25排名": s.bm25_rank,
            "余弦": None if s.cosine is None else round(s.cosine, 4),
            "余弦排名": s.cosine_rank,
            "最接近的一句": None if s.sentence_cosine is None else round(s.sentence_cosine, 4),
            "高出背景": None if s.margin is None else round(s.margin, 4),
            "关键词覆盖": f"{s.coverage:.0%}",
            "是依据的把握": round(s.probability, 3),
            "判断": s.verdict or "未采用",
            "文本": c.text[:80] + ("…" if len(c.text) > 80 else ""),
        }
        if numbers is not None:
            number = numbers.get(c.chunk_id)
            row = {"资料": f"[资料{number}]" if number else "未入提示词", **row}
        rows.append(row)
    return pd.DataFrame(rows)


def plain_why(hit: Hit) -> str:
    """The engine's one line in words, without its verdict prefix (the badge shows that)."""
    why = hit.scores.why or ""
    return why.split("｜", 1)[1] if "｜" in why else ("" if why == hit.scores.verdict else why)


def card_header(hit: Hit, *, anchor: str, number: int | None = None, in_prompt: bool = True) -> str:
    """The card's first line, the only markdown drawn with HTML allowed (for the citation anchor):
    every piece of document text in it is escaped, so a file name or heading cannot add markup."""
    c = hit.chunk
    if number is not None:
        label = f"**\\[资料{number}\\]** · "
    elif in_prompt:
        label = ""
    else:
        label = "**未放入提示词（篇幅已满）** · "
    where = escape_md(c.source) + (f" · {escape_md(c.section)}" if c.section else "")
    if c.page:
        where += f" · 第 {c.page} 页"
    return f'<span id="{anchor}"></span>{label}{where}'


def render_hit_card(hit: Hit, rank: int, *, anchor: str, number: int | None = None, in_prompt: bool = True,
                    unused: str = "") -> None:
    """One chunk as HR reads it: where it comes from, how strong it is (or, `unused`, why the answer did not
    use it), why it matched, the clause."""
    strength, colour = (unused, "gray") if unused else STRENGTH.get(hit.scores.verdict, STRENGTH[""])
    with st.container(border=True):
        st.markdown(card_header(hit, anchor=anchor, number=number, in_prompt=in_prompt), unsafe_allow_html=True)
        why = plain_why(hit)
        st.markdown(f":{colour}-badge[{strength}]" + (f" {escape_md(why)}" if why else ""))
        render_chunk_text(hit.chunk.text)


def hit_numbers_line(hit: Hit, rank: int) -> str:
    """Every number one hit earned, for the technical view."""
    s, c = hit.scores, hit.chunk
    return (
        f"第 {s.fused_rank or rank} 名 · {escape_md(c.source)} · 把握 {s.probability:.0%}（问题层 {s.answerable:.0%}，"
        f"采用线 {s.threshold:.0%}） · BM25 {_fmt(s.bm25, 3)}（{_rank(s.bm25_rank)}，关键词覆盖 {s.coverage:.0%}） · "
        f"余弦 {_fmt(s.cosine, 4)}（{_rank(s.cosine_rank)}，高出背景 {_fmt(s.margin, 4)}） · "
        f"最接近的一句 {_fmt(s.sentence_cosine, 4)} · 版本 v{c.version}"
    )


def render_hits_and_misses(result: SearchResult, prefix: str, numbers: dict[str, int] | None = None,
                           verdict: Verdict | None = None) -> None:
    """The clauses used as cards; with none, the nearest clauses that were not used, and why.

    A search alone (the retrieval test) shows its hits; an answer passes its `verdict`, whose clause lists decide.
    """
    used, unused = (result.hits, result.near_misses) if verdict is None else (verdict.used, verdict.unused)
    for i, hit in enumerate(used, start=1):
        number = numbers.get(hit.chunk.chunk_id) if numbers is not None else None
        render_hit_card(hit, i, anchor=anchor_id(prefix, i), number=number, in_prompt=numbers is None)
    if not used:
        if unused:
            why, reason = (verdict.unused_heading, verdict.unused_reason) if verdict is not None else (NO_HIT_REASON, "")
            st.markdown(f"**{why}。** 下面是最接近、但没有被采用的资料：")
            for i, hit in enumerate(unused, start=1):
                render_hit_card(hit, i, anchor=anchor_id(prefix + "-miss", i), unused=reason)
        else:
            st.markdown(f"**{NO_HIT_REASON}**，也没有相近的资料。")
    if result.thesaurus:
        st.caption("按词表也用同义的说法检索了：" + escape_md("；".join(result.thesaurus)))  # 年假 is the policy's word too
    elif result.expanded_terms:
        st.caption("同义词扩展：" + escape_md("、".join(result.expanded_terms)))
    for warning in result.warnings:
        st.warning(escape_md(warning))  # warnings quote document titles


# The score table's visible columns and their widths (px): it fits a chat answer at 1280 px.
SCORE_COLUMNS: dict[str, int] = {
    "资料": 70, "来源": 125, "章节": 130, "BM25": 60, "余弦": 65, "最接近的一句": 85, "关键词覆盖": 75,
    "是依据的把握": 85, "判断": 75,
}


def render_score_tables(result: SearchResult, numbers: dict[str, int] | None = None) -> None:
    """Technical view of a search: every score of every hit (or near miss) and the thresholds."""
    shown = result.hits or result.near_misses
    visible = f"；可见资料 {result.store_chunks} 块" if result.store_chunks else ""  # 0 in traces stored before stop 37
    st.caption(
        f"问题层把握 {result.answerable:.0%}（采用线 {result.threshold:.0%}）；"
        f"问题中制度从未用过的词占 {result.unknown_share:.0%}{visible}。"
    )
    if result.second_best is not None:
        reading = f"（问题也按词表读作：{escape_md(result.second_reading)}）" if result.second_reading else ""
        st.caption(f"第二模型（USE）与最接近的资料或句子的相似度 {result.second_best:.2f}{reading}，计入问题层把握。")
    if not shown:
        return
    frame = hits_frame(shown, numbers if result.hits else None)
    st.dataframe(
        frame,
        hide_index=True,
        width="stretch",
        column_order=[c for c in SCORE_COLUMNS if c in frame.columns],  # ranks, margin: in the lines below
        column_config={name: st.column_config.Column(width=px) for name, px in SCORE_COLUMNS.items()},
        row_height=WRAP_ROWS,  # 来源 and 章节 wrap instead of ending in "…"
    )
    for i, hit in enumerate(shown, start=1):
        st.caption(hit_numbers_line(hit, i))


def _moment(stamp: str | None) -> datetime | None:
    """A stored ISO stamp as an aware time (one without an offset is UTC, as the engine writes), or None."""
    try:
        moment = datetime.fromisoformat(str(stamp).replace("Z", "+00:00")) if stamp else None
    except ValueError:
        return None
    if moment is None:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _age_days(created_at: str, at: str | None = None) -> float | None:
    """Days from `created_at` to `at` (a stored turn's time), or to now without one (or when it does not parse)."""
    created = _moment(created_at)
    if created is None:
        return None
    return max(0.0, ((_moment(at) or datetime.now(UTC)) - created).total_seconds() / 86400)


def memories_frame(memories: Sequence[MemoryHit], at: str | None = None) -> pd.DataFrame:
    """Memories with the numbers that decided them: importance, age, freshness, relevance, score.

    `at`: the time of the answer whose trace these are (a stored turn's `created_at`): 年龄(天) is measured to it, as
    新鲜度 and 得分 were when it was answered; the memories page passes none and measures to now."""
    rows = []
    for m in memories:
        age = _age_days(m.created_at, at)
        rows.append(
            {
                "内容": m.content,
                "类型": MEMORY_KIND_NAMES.get(m.kind, m.kind),  # as 使用的记忆 and the memories page name it
                "重要度": round(m.importance, 3),
                "年龄(天)": None if age is None else round(age, 1),
                "新鲜度": round(m.freshness, 3),
                "相关度": round(m.relevance, 3),
                "得分": round(m.score, 3),
                "创建时间": local_time(m.created_at),
                "最近使用": local_time(m.last_accessed),
                "使用次数": m.access_count,
                "id": m.id,
            }
        )
    return pd.DataFrame(rows)


def timings_frame(*timings: dict[str, float]) -> pd.DataFrame:
    """Per-stage milliseconds, search stages first, in the order the engine reported them."""
    merged: dict[str, float] = {}
    for part in timings:
        merged.update(part)
    rows = [
        {"阶段": STAGE_LABELS.get(k.removesuffix("_ms"), k), "耗时(毫秒)": round(float(v), 1)}
        for k, v in merged.items()
    ]
    return pd.DataFrame(rows)


def source_numbers(trace: AskTrace) -> dict[str, int]:
    """chunk_id -> N for the chunks that went into the prompt as [资料N]."""
    return {s.chunk_id: s.number for s in trace.sources}


def citation_anchors(trace: AskTrace, prefix: str) -> dict[int, str]:
    """N -> anchor id of the card showing [资料N] (none when the answer used no clause)."""
    numbers = source_numbers(trace)
    anchors: dict[int, str] = {}
    for i, hit in enumerate(verdict_of(trace).used, start=1):
        number = numbers.get(hit.chunk.chunk_id)
        if number is not None:
            anchors[number] = anchor_id(prefix, i)
    return anchors


WEAK_LLM_NOTE = AnswerNotes.WEAK_NOTE


def answer_notes(trace: AskTrace) -> AnswerNotes:
    """What goes beside the answer, decided as `ask` decides it, for the outcome the badge shows."""
    return AnswerNotes.of(trace, verdict_of(trace).outcome)


def weak_llm_answer(trace: AskTrace) -> bool:
    """A model's answer the engine judged to rest on 依据较弱 evidence only, unless it already says so
    (the offline answer always does, in its first line; rule 6 asks a model to)."""
    return answer_notes(trace).weak


def render_answer(trace: AskTrace, prefix: str) -> None:
    """The answer text with [资料N] linked, then a one-line source list for reading at a glance."""
    anchors = citation_anchors(trace, prefix)
    notes = answer_notes(trace)  # the same notes, in the same order, as `ask` prints
    answer, tail = trace.answer, trace.engine_tail
    own = bool(tail) and answer.endswith(tail)  # the acknowledgement repeats what was typed: never formatted
    body = answer[: len(answer) - len(tail)] if own else answer
    st.markdown(link_citations(body, anchors, notes.unsupported, literal=not keeps_formatting(trace))
                + (escape_quoted_lines(tail) if own else ""))
    if notes.weak:
        st.caption(WEAK_LLM_NOTE)
    if notes.unsupported:
        st.caption(notes.UNSUPPORTED_NOTE)
    if notes.removed:
        st.caption(notes.removed_note(escape_md("、".join(f"[资料{n}]" for n in notes.removed))))
    refs = [  # only the clauses the answer cites: a source in the prompt that it did not quote is no 出处
        f"[\\[资料{s.number}\\]](#{anchors[s.number]}) {escape_md(s.source)}"
        + (f" · {escape_md(s.section)}" if s.section else "")
        for s in notes.cited
        if s.number in anchors
    ]
    if refs:
        st.caption("出处：" + "；".join(refs))


def memories_plain_frame(memories: Sequence[MemoryHit]) -> pd.DataFrame:
    """Memories as a person reads them: what, which kind, how old."""
    return pd.DataFrame(
        [
            {"内容": m.content, "类型": MEMORY_KINDS.get(m.kind, m.kind), "记下时间": relative_age(m.created_at)}
            for m in memories
        ]
    )


def technical_details(key: str, render: Callable[[], None]) -> None:
    """The 技术细节 expander: its content is built only while it is open (one click away, not in the way)."""
    with st.expander(TECH_LABEL, icon=":material/tune:", key=key, on_change="rerun") as panel:
        if panel.open:
            render()


def render_trace_numbers(trace: AskTrace, at: str | None = None) -> None:
    """Everything behind one answer: scores, thresholds, memory scores, the prompt, the timings.

    `at`: when the answer was given (a stored turn's `created_at`; None: just now), the moment memory ages are
    measured to, as its freshness was."""
    result = trace.search
    st.markdown(f"**{verdict_of(trace).line}**")  # the same words and count as the badge under the answer
    if trace.followup:  # how the question was read against the last turn: glued, or kept as typed and why
        st.markdown("**追问判断**")
        st.caption(escape_md(trace.followup))
    st.markdown("**检索分数**")
    render_score_tables(result, source_numbers(trace))
    if trace.dropped_hits:
        st.caption(f"有 {trace.dropped_hits} 块因提示词预算未放入提示词。")
    if trace.memories:
        st.markdown("**记忆得分**")
        frame = memories_frame(trace.memories, at).drop(columns=["id"])
        st.dataframe(frame, hide_index=True, width="stretch")
    answerer = AnswerNotes.answerer_of(trace)
    st.markdown(f"**完整提示词（{trace.prompt_tokens} / {trace.token_budget} token）**")
    st.caption(f"回答方式：{escape_md(answerer)}；提示词共 {trace.prompt_tokens} token，预算 {trace.token_budget} token。")
    if trace.prompt:
        st.code(trace.prompt, language=None, wrap_lines=True)
    else:  # a review copy (反馈审阅) keeps no prompt: an empty box read as "the model was given nothing" (review 360)
        st.caption("这份记录没有保存完整提示词（评价记录只保留检索和回答），提示词请在问答页该轮的技术细节里查看。")
    if trace.citations.checked:
        check = trace.citations
        st.caption(f"引用检查：删除不存在的引用 {len(check.removed)} 处；数字未在引用条款中找到的句子 {len(check.unsupported)} 句。")
    st.markdown("**各阶段耗时**")
    st.dataframe(timings_frame(result.timings_ms, trace.timings_ms), hide_index=True, width="stretch")


def render_trace(trace: AskTrace, prefix: str, at: str | None = None) -> None:
    """Badge, the evidence cards, the memories used, and 技术细节 (numbers, prompt, timings) on demand; `at`: when a
    stored turn was answered (`render_trace_numbers`)."""
    verdict = verdict_of(trace)
    render_verdict(verdict)
    with st.expander(verdict.list_label, icon=":material/description:"):
        render_hits_and_misses(trace.search, prefix, source_numbers(trace), verdict)
        if trace.dropped_hits and verdict.used:
            st.caption(f"另有 {trace.dropped_hits} 条因篇幅所限没有交给回答。")
    with st.expander(f"使用的记忆（{len(trace.memories)} 条）", icon=":material/psychology:"):
        if trace.memories:
            st.dataframe(memories_plain_frame(trace.memories), hide_index=True, width="stretch")
            st.caption("记忆只用于个性化表述，不作为制度依据。")
        else:
            st.markdown("本次没有用到记忆。")
    technical_details(f"tech_{prefix}", lambda: render_trace_numbers(trace, at))


# Static script (no user data in it): a [资料N] link whose card sits in a closed expander
# would otherwise land in the wrong place, because Chrome opens the <details> itself
# while Streamlit animates it. Open the expander the Streamlit way, then scroll.
_CITATION_SCRIPT = """
<script>
(() => {
  if (window.__hrCitationLinks) return;
  window.__hrCitationLinks = true;
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest('a[href^="#"]');
    if (!link) return;
    const id = decodeURIComponent(link.getAttribute("href").slice(1));
    const target = id.includes("-chunk-") ? document.getElementById(id) : null;
    if (!target) return;
    event.preventDefault();
    const details = target.closest("details");
    const opening = details && !details.open;
    if (opening) details.querySelector("summary").click();
    const card = target.closest('[data-testid="stMarkdownContainer"]') || target;
    const jump = () => card.scrollIntoView({ block: "center" });
    // while the expander animates open, the chat view keeps re-pinning itself to the bottom
    (opening ? [60, 450, 900, 1500] : [0]).forEach((ms) => setTimeout(jump, ms));
  }, true);
})();
</script>
"""


def install_citation_links() -> None:
    """Make [资料N] links open the chunk expander and scroll to the card (once per page)."""
    st.html(_CITATION_SCRIPT, unsafe_allow_javascript=True, width="content")
