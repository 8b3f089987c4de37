"""A correction scheduled before a pending wrong version says the wrong one still comes after it.

v1 in effect; HR schedules v2 (wrong) for day+20, then v3 (the correction) for day+15: v3 took effect on day 15 and
v2 silently replaced it on day 20, while v3's report named v3 only and the list named v3 only. Fake embedder.
"""

from __future__ import annotations

from datetime import date, timedelta

from fakes import fake_assistant

from rag_core import Principal
from rag_core.documents.catalog import office_today, versions_in_effect

HR = Principal("hr_li", "hr")
NAME = "加班制度.md"


def policy(line: str) -> bytes:
    return f"# 加班制度\n\n## 第一条\n\n{line}\n".encode()


def day(n: int) -> str:
    return (date.fromisoformat(office_today()) + timedelta(days=n)).isoformat()


def test_the_correction_names_the_wrong_version_still_to_come(tmp_path):
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(policy("加班费按一点五倍计算。"), NAME, actor=HR).ok
    wrong = a.ingest_bytes(policy("加班费按二点零倍计算（有误）。"), NAME, effective_date=day(20), actor=HR)
    assert wrong.version == 2 and not any("取代这一版" in w for w in wrong.warnings)
    fixed = a.ingest_bytes(policy("加班费按一点八倍计算（更正）。"), NAME, effective_date=day(15), actor=HR)
    assert fixed.version == 3
    [note] = [w for w in fixed.warnings if "取代这一版" in w]
    assert f"排期中的 v2（原定 {day(20)} 生效）届时会取代这一版" in note
    assert day(20) in note.rsplit("生效日期", 1)[-1]  # the remedy: the correction again, dated as the wrong one

    scheduled = a.scheduled_versions(actor=HR)
    assert [(v.version, v.effective_date) for v in scheduled["加班制度"]] == [(3, day(15)), (2, day(20))]
    assert a.waiting_versions(actor=HR)["加班制度"].version == 3  # the next one, as the list says it

    again = a.ingest_bytes(policy("加班费按一点八倍计算（更正）。"), NAME, effective_date=day(20), actor=HR)
    assert again.version == 4 and not any("取代这一版" in w for w in again.warnings)
    live = [v for v in a.catalog.versions("加班制度") if v.status == "current"]
    assert versions_in_effect(live, day(20))["加班制度"].version == 4  # the remedy works: v2 never takes effect
    assert [v.version for v in a.scheduled_versions(actor=HR)["加班制度"]] == [3, 4]  # v2 is replaced the same day


def test_a_later_correction_warns_of_nothing(tmp_path):
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(policy("加班费按一点五倍计算。"), NAME, actor=HR).ok
    assert a.ingest_bytes(policy("加班费按二点零倍计算。"), NAME, effective_date=day(10), actor=HR).ok
    later = a.ingest_bytes(policy("加班费按一点八倍计算。"), NAME, effective_date=day(30), actor=HR)
    assert later.ok and not any("取代这一版" in w for w in later.warnings)
    assert [v.version for v in a.scheduled_versions(actor=HR)["加班制度"]] == [2, 3]
