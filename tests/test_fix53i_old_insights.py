"""Review 53i: questions and ratings an older version logged with a phone its masker missed (Chinese digits) are
read out masked by today's masker: knowledge gaps, feedback review and detail, the exports."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from fakes import fake_assistant

RAW = "一三八一二三四五六七八"
OLD = f"我的手机：{RAW}，年假怎么休"


def old_rows(a) -> None:
    """Rows written with the log's own writers, past the facade's masking: as stop 41's masker left them."""
    log, now = a.insight_log, datetime.now(UTC).isoformat(timespec="seconds")
    vector = a.embedder.embed_query(OLD) if hasattr(a.embedder, "embed_query") else a.embedder.vector(OLD)
    nearest = {"text": "联系人见人事部", "doc_id": "d", "audience": []}  # a clause stays as stored
    log.log_question(asked_at=now, user="u1", role="employee", question=OLD, outcome="zero_hit", hit_count=0,
                     cited_docs=[], nearest=nearest, model=a.embedder.model_id, vector=vector)
    log.add_feedback(created_at=now, user="u1", question=OLD, answer=f"请拨打 {RAW} 咨询", rating=-1, reason="不对",
                     comment=f"打过 {RAW} 没人接", docs=[], trace={"question": OLD, "prompt": f"【问题】{OLD}"},
                     nearest=nearest, model=a.embedder.model_id, vector=vector)


def masked(text: str) -> bool:
    return RAW not in text and "[手机号]" in text


def test_fix53i_feedback_review_and_detail_mask_old_rows(tmp_path) -> None:
    a = fake_assistant(tmp_path / "s")
    old_rows(a)
    [entry] = a.feedback_reviews()
    assert masked(entry.question) and masked(entry.answer) and masked(entry.comment)
    detail = a.feedback_detail(entry.id)
    assert masked(json.dumps(detail.trace, ensure_ascii=False))
    assert RAW not in a.export_insights("feedback", "csv").decode("utf-8-sig")


def test_fix53i_knowledge_gaps_mask_old_rows(tmp_path) -> None:
    a = fake_assistant(tmp_path / "s")
    old_rows(a)
    groups = a.knowledge_gaps()
    assert groups
    dump = json.dumps([g.to_dict() if hasattr(g, "to_dict") else repr(g) for g in groups], ensure_ascii=False)
    assert masked(dump)
    assert RAW not in a.export_insights("gaps", "csv").decode("utf-8-sig")
