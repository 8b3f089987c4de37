"""Review 52k #7: the conversation delete popover says the truth: ratings already given stay for HR's review."""

from __future__ import annotations

from pathlib import Path

from app_support import point_the_app_at
from fakes import fake_assistant_with_samples

from rag_core.types import Principal

APP = str(Path(__file__).resolve().parents[1] / "app.py")
LOCAL = Principal("local", "admin")


def test_the_delete_popover_says_given_ratings_stay_for_review(tmp_path, monkeypatch) -> None:
    from streamlit.testing.v1 import AppTest

    import ui.state

    a = fake_assistant_with_samples(tmp_path / "store")
    liked = a.ask("出差住宿标准是多少？", actor=LOCAL, conversation="c1")
    disliked = a.ask("病假工资怎么算？", actor=LOCAL, conversation="c1")
    a.record_feedback(liked, 1, actor=LOCAL)
    a.record_feedback(disliked, -1, actor=LOCAL, reason="答非所问")
    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: a)
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["c"] = "c1"
    at.run()
    warning = next(w.value for w in at.warning if "删除后" in w.value)
    assert "全部问答和依据记录都会一起删除" not in warning
    assert "已经给出的评价" in warning and "反馈审阅" in warning
    next(b for b in at.button if b.label == "确认删除").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert a.conversations.get("c1") is None
    kept = a.feedback_reviews(actor=LOCAL)  # what the popover promised: both ratings, with their question and answer
    assert sorted((e.rating, e.question) for e in kept) == [(-1, "病假工资怎么算？"), (1, "出差住宿标准是多少？")]
