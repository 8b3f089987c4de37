"""Review 52p #2: the eval table never rounds a failure away: 1 zero-hit question in 250 is not 0%, and 249 of
250 right on the first hit is not 100%. AppTest of 检索测试 drawing a stored eval outcome (fake-embedder facade)."""

from __future__ import annotations

from pathlib import Path

from app_support import point_the_app_at
from fakes import fake_assistant

APP = str(Path(__file__).resolve().parents[1] / "app.py")


def shown_row(metrics: dict, tmp_path, monkeypatch) -> dict:
    """The eval table's first row as the page shows it, for an outcome with `metrics` (as `run_eval` returns)."""
    from streamlit.testing.v1 import AppTest

    import ui.state

    assistant = fake_assistant(tmp_path / "store")
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.run()
    at.session_state["retrieval_eval_result"] = ("set.jsonl", "hybrid", {"metrics": {"literal": metrics}, "results": []})
    at.switch_page("pages/retrieval_test.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at.dataframe[0].value.iloc[0].to_dict()


def test_a_rare_failure_is_not_rounded_to_0_or_100_percent(tmp_path, monkeypatch):
    shown = shown_row({"n": 250, "recall@1": 249 / 250, "recall@3": 0.9995, "zero_hit_rate": 1 / 250,
                       "mrr": 0.0004, "refusal_rate": 1.0, "answered_rate": 0.0, "unsupported_rate": 0.4},
                      tmp_path, monkeypatch)
    assert shown["一条也没找到的比例"] == "0.4%"
    assert shown["第 1 条就对"] == "99.6%"
    assert shown["前 3 条里有正确条款"] == ">99.9%"
    assert shown["正确条款的平均排名得分"] == "<0.1%"
    # exact ends and round shares read as before
    assert (shown["该拒答时拒答的比例"], shown["该回答时回答了的比例"], shown["含未在资料中找到的句子的比例"]) == ("100%", "0%", "40%")
    assert shown["题数"] == "250"
