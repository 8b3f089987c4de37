"""Review 60 (rev-eval), the pages half: with question recording off (retention 0), or a window before any question,
usage lists no policy as never cited and gaps says no 问题都有制度可答 (D4); the retrieval test page states the
engine's own upload limit (D6)."""

from __future__ import annotations

from pathlib import Path

from app_support import point_the_app_at
from fakes import fake_assistant_with_samples
from streamlit.testing.v1 import AppTest

from rag_core import Principal

APP = str(Path(__file__).resolve().parent.parent / "app.py")
LOCAL = Principal("local", "admin")


def page(assistant, name: str, tmp_path, monkeypatch) -> AppTest:
    import ui.state

    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page(f"pages/{name}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def headings(at: AppTest) -> list[str]:
    return [str(e.value) for e in at.subheader]


def test_fix60_recording_off_is_said_on_usage_and_gaps(tmp_path, monkeypatch):
    a = fake_assistant_with_samples(tmp_path / "s", question_retention_days=0)
    for q in ("年假有几天？", "病假工资怎么发放？"):
        assert a.ask(q, user="local", actor=LOCAL).sources
    assert a.usage(actor=LOCAL)["recording"] is False
    assert a.question_window(actor=LOCAL) == {"recording": False, "questions": 0}
    usage = page(a, "usage", tmp_path, monkeypatch)
    assert "从未被引用的文档" not in headings(usage)
    assert any("提问记录已关闭" in i.value for i in usage.info)
    gaps = page(a, "gaps", tmp_path, monkeypatch)
    assert not gaps.success and any("提问记录已关闭" in i.value for i in gaps.info)


def test_fix60_a_window_without_questions_is_no_all_answered(tmp_path, monkeypatch):
    import datetime as dt

    a = fake_assistant_with_samples(tmp_path / "s")
    assert a.question_window(since="2001-01-01", until="2001-01-31", actor=LOCAL) == {"recording": True,
                                                                                     "questions": 0}
    gaps = page(a, "gaps", tmp_path, monkeypatch)  # nothing asked yet: no question to judge
    assert not gaps.success and any("没有记录到提问" in i.value for i in gaps.info)
    usage = page(a, "usage", tmp_path, monkeypatch)
    assert "从未被引用的文档" not in headings(usage) and any("没有记录到提问" in i.value for i in usage.info)
    assert a.ask("年假有几天？", user="local", actor=LOCAL).sources
    gaps = page(a, "gaps", tmp_path, monkeypatch)
    assert "1 个提问都有制度可答" in gaps.success[0].value  # asked and answered in the window: said so
    before = dt.date.today() - dt.timedelta(days=400)  # a month before the first question (the box takes 10 years)
    gaps.date_input(key="gaps_since").set_value(before)
    gaps.date_input(key="gaps_until").set_value(before + dt.timedelta(days=30))
    gaps.run()
    assert not gaps.success and any("没有记录到提问" in i.value for i in gaps.info)


def test_fix60_the_retrieval_test_page_states_the_engines_upload_limit(tmp_path, monkeypatch):
    from rag_core.facade.eval_upload import MAX_UPLOAD_BYTES

    a = fake_assistant_with_samples(tmp_path / "s")
    at = page(a, "retrieval_test", tmp_path, monkeypatch)
    captions = "\n".join(c.value for c in at.caption)
    assert f"不超过 {MAX_UPLOAD_BYTES / 2**20:g} MB" in captions and "20 MB" not in captions


def test_fix60_the_gaps_page_says_how_many_questions_are_still_being_regrouped(tmp_path, monkeypatch):
    from datetime import UTC, datetime

    import numpy as np

    from rag_core.insights import reembed

    monkeypatch.setattr(reembed, "PER_READ", 2, raising=False)
    a = fake_assistant_with_samples(tmp_path / "s")
    for i in range(5):
        a.insight_log.log_question(asked_at=datetime.now(UTC).isoformat(timespec="seconds"), user="u", role="employee",
                                   question=f"宠物保险第{i}种怎么申请", outcome="zero_hit", hit_count=0, cited_docs=[],
                                   nearest={}, model="an-older-model", vector=np.zeros(8, dtype=np.float32))
    gaps = page(a, "gaps", tmp_path, monkeypatch)
    assert any("3 条较早的提问正在按新的嵌入模型重新归组" in i.value for i in gaps.info), [i.value for i in gaps.info]
