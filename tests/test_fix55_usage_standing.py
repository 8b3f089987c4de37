"""The usage page lists the documents that stand (in effect or scheduled), as the documents list does: a version
replaced on its scheduled day stays 'current' in the catalog, and its 全体员工 audience showed HR the title of a
policy now for managers only (review 179)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fakes import fake_assistant

import rag_core.documents.catalog as catalog
from rag_core.types import Principal

HR, ADMIN = Principal("li", "hr"), Principal("wang", "admin")
BONUS = "# 年终奖制度\n\n第三条 年终奖按个人绩效与部门系数核定，于次年一月发放。\n".encode()


def test_fix55_a_policy_narrowed_on_its_day_leaves_hrs_usage_list(tmp_path, monkeypatch):
    a = fake_assistant(tmp_path / "store")
    assert a.ingest_bytes(BONUS, "年终奖制度.md", actor=ADMIN).ok
    later = (catalog.office_day() + timedelta(days=5)).isoformat()
    assert a.ingest_bytes(BONUS, "年终奖制度.md", audience=["managers"], effective_date=later, actor=ADMIN).version == 2

    def titles(actor):
        report = a.usage(actor=actor)
        return {d["title"] for d in report["documents"]} | {d["title"] for d in report["never_cited"]}

    assert "年终奖制度" in titles(HR)  # today v1, for everyone, is in effect
    moved = datetime.now(UTC) + timedelta(days=6)
    monkeypatch.setattr(catalog, "_utc_now", lambda: moved)
    assert "年终奖制度" not in titles(HR)  # v2, for managers only, is in effect
    assert "年终奖制度" in titles(ADMIN)
