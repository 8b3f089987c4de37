"""Review 55a #2: a 👎 marks a gap's turn only for a reader who may see that rating in 反馈审阅. A manager's
conversation showed a managers-only clause, so the 👎 of a refused follow-up keeps the managers' audience; HR saw
no rating in 反馈审阅 but a 👎 beside the gap (fake embedder, real stores)."""

from __future__ import annotations

from fakes import fake_assistant_with_samples

from rag_core.types import Principal

ADMIN, HR = Principal("boss", "admin"), Principal("hr_li", "hr")
MANAGER = Principal("mgr_zhou", "employee", audiences=("managers",))
SECRET = "部门经理年终奖为年薪的百分之四十"
BONUS_POLICY = f"# 管理层绩效奖金办法\n\n## 第一条 年终奖\n\n{SECRET}，次年三月发放。\n".encode()


def test_a_dislike_hr_may_not_read_marks_no_gap_for_hr(tmp_path) -> None:
    a = fake_assistant_with_samples(tmp_path / "s")
    assert a.ingest_bytes(BONUS_POLICY, "管理层绩效奖金办法.txt", audience=("managers",), actor=ADMIN).ok
    first = a.ask("部门经理年终奖是年薪的多少？", user="mgr_zhou", actor=MANAGER, conversation="m1")
    assert any("管理层" in s.source for s in first.sources), "the first turn must show the managers' clause"
    refused = a.ask("公司有没有提供班车？", user="mgr_zhou", actor=MANAGER, conversation="m1")
    assert refused.hit_count == 0, "the follow-up must be a gap"
    a.record_feedback(refused, -1, actor=MANAGER, reason="答非所问")
    assert a.feedback_reviews(actor=HR) == [] and len(a.feedback_reviews(actor=ADMIN)) == 1
    assert [g.kinds for g in a.knowledge_gaps(actor=ADMIN)] == [{"zero_hit": 1, "disliked": 1}]
    assert [g.kinds for g in a.knowledge_gaps(actor=HR)] == [{"zero_hit": 1}]
    assert "👎".encode() in a.export_insights("gaps", "csv", actor=ADMIN)
    assert "👎".encode() not in a.export_insights("gaps", "csv", actor=HR)  # nor in HR's export
