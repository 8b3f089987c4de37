"""Answer text the engine assembled is shown literally; only a model's (or HR's) own formatting is kept.

The offline answer quotes document sentences after its own '- ' bullets, and an acknowledgement repeats
what the person typed: neither may turn a quoted '# 标题', '*强调*', '`代码`', '1. ' or '---' into markup.
The 未在资料中找到 badge is placed where the citation check flagged a sentence, never recognised by its
text, so a clause or a model writing the badge's markup shows it as text. Review rev51c.
"""

from __future__ import annotations

import re
from pathlib import Path

from app_support import point_the_app_at
from fakes import fake_assistant
from markdown_it import MarkdownIt
from streamlit.testing.v1 import AppTest
from test_inert_pages import markdown_strings
from trace_samples import sample_trace

import ui.state
from rag_core import Principal
from rag_core.types import ACKNOWLEDGED, REFUSED, STANDARD, CitationCheck
from ui import trace_view
from ui.trace_view import UNSUPPORTED_MARK, link_citations

APP = str(Path(__file__).resolve().parent.parent / "app.py")
LOCAL = Principal(user="local", role="admin")
BADGE = ":orange-badge["


def app_on(assistant, tmp_path: Path, monkeypatch) -> AppTest:
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    return at


def chat_markdown(at: AppTest, conversation: str) -> list[str]:
    at.query_params["c"] = conversation
    at.switch_page("pages/chat.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return [text for kind, text in markdown_strings(at) if kind == "markdown"]


def html(source: str) -> str:
    return MarkdownIt("commonmark").render(source)


def test_a_quoted_clause_is_not_drawn_as_heading_emphasis_or_code(tmp_path: Path, monkeypatch) -> None:
    a = fake_assistant(tmp_path / "store")
    body = "事假制度\n\n第一条 事假须提前申请。# 事假工资 事假期间*不发*工资，`扣款`按日计算。\n"
    assert a.ingest_bytes(body.encode(), "事假.txt", actor=LOCAL).ok
    c = a.new_conversation_id()
    trace = a.ask("事假期间发工资吗？", user="local", actor=LOCAL, conversation=c)
    assert trace.answerer == "extractive"
    answer = next(t for t in chat_markdown(app_on(a, tmp_path, monkeypatch), c) if "事假工资" in t)
    shown = html(answer)
    assert not re.search(r"<h\d|<em>|<code>", shown), shown
    assert "<li>" in shown and "# 事假工资 事假期间*不发*工资，`扣款`按日计算。" in shown  # the bullets stay, the text reads as written
    assert re.search(r'<a href="#[^"]+-chunk-1">\[资料1\]</a>', shown), shown  # and [资料1] still links to its card


def test_a_remembered_statement_echoed_in_the_answer_is_not_formatted(tmp_path: Path, monkeypatch) -> None:
    a = fake_assistant(tmp_path / "store")
    c = a.new_conversation_id()
    trace = a.ask("我叫 **王五**，我是 *研发部* 的经理", user="local", actor=LOCAL, conversation=c)
    assert trace.outcome == ACKNOWLEDGED
    answer = next(t for t in chat_markdown(app_on(a, tmp_path, monkeypatch), c) if "我记住了" in t)
    assert not re.search(r"<strong>|<em>", html(answer)), html(answer)
    assert "**王五**" in html(answer)


def test_a_clause_cannot_draw_the_engines_unsupported_badge(tmp_path: Path, monkeypatch) -> None:
    a = fake_assistant(tmp_path / "store")
    body = "婚假制度\n\n第一条 婚假为三天 :orange-badge[:material/warning: 未在资料中找到]。\n"
    assert a.ingest_bytes(body.encode(), "婚假.txt", actor=LOCAL).ok
    c = a.new_conversation_id()
    trace = a.ask("婚假有几天？", user="local", actor=LOCAL, conversation=c)
    assert not trace.citations.unsupported  # the engine flagged nothing
    answer = next(t for t in chat_markdown(app_on(a, tmp_path, monkeypatch), c) if "婚假为三天" in t)
    assert BADGE not in re.sub(r"\\.", "", answer), answer


def test_a_model_cannot_forge_the_badge_and_a_flagged_sentence_gets_exactly_one() -> None:
    forged = f"一类城市每晚 800 元 [资料1]。二类城市 400 元 :orange-badge[:material/warning: {UNSUPPORTED_MARK}] [资料1]。"
    shown = link_citations(forged, {1: "t1-chunk-1"}, ["一类城市每晚 800 元 [资料1]。"])
    assert shown.count(BADGE) == 1  # the one the check placed; the model's copy is escaped
    assert shown.index(BADGE) < shown.index("二类城市")  # right after the flagged sentence
    assert shown.count("[\\[资料1\\]](#t1-chunk-1)") == 2


def test_a_badge_never_splits_a_citation_link() -> None:
    shown = link_citations("年假五天[资料1]。", {1: "c1"}, ["年假五天[资料"])  # a flagged end inside the mark
    assert shown.startswith("年假五天[\\[资料1\\]](#c1) " + BADGE)


def test_engine_text_keeps_its_bullets_and_nothing_else() -> None:
    offline = "根据制度：\n- 1. 员工请假须提前申请。 [资料1]\n- --- 病假按日计算。 [资料1]\n- + *全勤奖*取消。 [资料2]"
    shown = html(link_citations(offline, {1: "c1", 2: "c2"}, literal=True))
    assert shown.count("<ul>") == 1 and shown.count("<li>") == 3, shown  # one list of three quotes, as written
    assert not re.search(r"<ol|<hr|<em>|<h\d", shown), shown
    assert "1. 员工请假须提前申请。" in shown and "--- 病假按日计算。" in shown and "+ *全勤奖*取消。" in shown
    refusal = "制度里没有写这一条。\n找到的相近条款（# 第三章 *加班*）讲的是别的情形。"
    assert not re.search(r"<h\d|<em>", html(link_citations(refusal, {}, literal=True)))
    # a model's own formatting is kept (lists, bold), as before
    model = html(link_citations("**结论**：\n\n1. 提前申请 [资料1]\n2. 主管审批", {1: "c1"}))
    assert "<strong>结论</strong>" in model and "<ol>" in model


def test_only_a_model_or_hr_keeps_its_formatting() -> None:
    assert trace_view.keeps_formatting(sample_trace())  # an LLM answer
    assert not trace_view.keeps_formatting(sample_trace(llm=False))  # the offline quoter
    fell_back = sample_trace()
    fell_back.answerer = "extractive（大模型不可用：超时）"
    assert not trace_view.keeps_formatting(fell_back)
    for outcome in (ACKNOWLEDGED, STANDARD, REFUSED):
        trace = sample_trace()
        trace.outcome, trace.sources, trace.citations = outcome, [], CitationCheck()
        trace.answerer = {ACKNOWLEDGED: "记住个人信息：不检索", STANDARD: "标准答复", REFUSED: "无命中：不调用模型"}[outcome]
        assert trace_view.keeps_formatting(trace) == (outcome == STANDARD), outcome
