"""Two versions scheduled for the same day: the later upload (the correction) replaces the earlier one on that day,
so the earlier one never takes effect (`documents.taking_effect`).

The re-cut cut that dead version again into a new, higher version: when the correction's own re-cut then failed,
the dead text won the tie on the day (review 61, s9). The upload said nothing of the cancelled version, the history
still called it 待生效 and the chunk preview showed it (s1). Fake embedder.
"""

from __future__ import annotations

import dataclasses
from datetime import date, timedelta

from fakes import fake_assistant

from rag_core import Principal
from rag_core.documents.catalog import office_today, versions_in_effect
from rag_core.errors import RagError

HR = Principal("hr_li", "hr")
ADMIN = Principal("root", "admin")
NAME = "年假制度.md"


def day(n: int) -> str:
    return (date.fromisoformat(office_today()) + timedelta(days=n)).isoformat()


def policy(days: str) -> bytes:
    rules = "\n\n".join(f"第{i}条 员工年假规则{i}，按工龄计算，具体以人事部门核定为准。" for i in range(1, 8))
    return f"# 年假制度\n\n{rules}\n\n第九条 年假{days}。\n".encode()


def same_day(a) -> None:
    assert a.ingest_bytes(policy("五天"), NAME, actor=HR).version == 1
    assert a.ingest_bytes(policy("七天（错误版本）"), NAME, effective_date=day(30), actor=HR).version == 2
    fixed = a.ingest_bytes(policy("十天（更正版本）"), NAME, effective_date=day(30), actor=HR)
    assert fixed.version == 3
    return fixed


def in_effect_text(a, on: str) -> str:
    live = [v for v in a.catalog.versions("年假制度") if v.status == "current"]
    chosen = versions_in_effect(live, on)["年假制度"]
    return "".join(c.text for c in a.catalog.chunks_of("年假制度", chosen.version))


def test_a_failed_recut_of_the_correction_never_lets_the_cancelled_version_take_effect(tmp_path):
    a = fake_assistant(tmp_path / "s")
    same_day(a)
    assert [v.version for v in a.scheduled_versions(actor=HR)["年假制度"]] == [3]
    write, cut = a.indexer.write, []

    def correction_fails(prepared, *args, **kwargs):  # the correction's re-cut copy cannot be written
        cut.append(prepared.chunks[0].version)
        if any("更正版本" in c.text for c in prepared.chunks):
            raise RagError("模拟：写入失败")
        return write(prepared, *args, **kwargs)

    a.indexer.write = correction_fails
    a._settings = dataclasses.replace(a._settings, chunk_size=max(60, a._settings.chunk_size // 4), chunk_overlap=0)
    report = a.reindex(actor=ADMIN)
    assert "十天（更正版本）" in in_effect_text(a, day(30))
    assert "错误版本" not in in_effect_text(a, day(31))  # the cancelled v2's text took effect
    [failed] = report.failed
    assert "v3" in failed and "仍按原来的切块" in failed, failed
    assert len(cut) == 2  # v1 and v3: the cancelled v2 was not cut again
    statuses = {v.version: v.status for v in a.catalog.versions("年假制度")}
    assert statuses[2] == "retired"  # the cancelled version goes, not cut again
    assert all(v != 2 for v in (x.version for x in a.scheduled_versions(actor=HR)["年假制度"]))


def test_a_recut_writes_the_correction_and_retires_the_cancelled_version(tmp_path):
    a = fake_assistant(tmp_path / "s")
    same_day(a)
    a._settings = dataclasses.replace(a._settings, chunk_size=max(60, a._settings.chunk_size // 4), chunk_overlap=0)
    report = a.reindex(actor=ADMIN)
    assert report.failed == [] and report.documents == 2  # v1 and v3, not v2
    assert "十天（更正版本）" in in_effect_text(a, day(30))
    assert a.versions_to_recut(actor=ADMIN) == []


def test_the_upload_history_and_preview_say_the_earlier_same_day_version_never_takes_effect(tmp_path):
    a = fake_assistant(tmp_path / "s")
    fixed = same_day(a)
    [note] = [w for w in fixed.warnings if "同日生效" in w]
    assert "v2" in note and "不会生效" in note, fixed.warnings
    statuses = {c.version: c.status for c in a.document_changes("年假制度", actor=HR)}
    assert statuses == {3: "scheduled", 2: "superseded", 1: "current"}, statuses
    assert {c.version for c in a.document_chunks("年假制度", actor=HR)} == {1, 3}


def test_a_later_day_warns_of_no_same_day_replacement(tmp_path):
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(policy("五天"), NAME, actor=HR).ok
    assert a.ingest_bytes(policy("七天"), NAME, effective_date=day(10), actor=HR).ok
    later = a.ingest_bytes(policy("十天"), NAME, effective_date=day(30), actor=HR)
    assert not any("同日生效" in w for w in later.warnings)
    statuses = {c.version: c.status for c in a.document_changes("年假制度", actor=HR)}
    assert statuses == {3: "scheduled", 2: "scheduled", 1: "current"}
    assert {c.version for c in a.document_chunks("年假制度", actor=HR)} == {1, 2, 3}


def test_only_the_version_the_upload_replaces_is_named(tmp_path):
    a = fake_assistant(tmp_path / "s")
    same_day(a)
    third = a.ingest_bytes(policy("十一天"), NAME, effective_date=day(30), actor=HR)
    [note] = [w for w in third.warnings if "同日生效" in w]
    assert "v3" in note and "v2" not in note, note


def test_the_next_version_coming_is_the_correction_not_the_one_it_cancels(tmp_path):
    a = fake_assistant(tmp_path / "s")
    same_day(a)
    assert a.waiting_versions(actor=HR)["年假制度"].version == 3
