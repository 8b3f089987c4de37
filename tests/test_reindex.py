"""重新索引 (the settings page, after a new chunk size or overlap) cuts every live version again and loses nothing.

It used to rebuild each document from its chunks' text saved as a .txt: titles became file stems, articles
merged or moved under the wrong chapter, a number the uploader kept unmasked was masked, a scheduled version
was retired by the rewrite of the one in effect, and documents the chunk cap refused were skipped while the
page said it was done (helper-36). Real SQLite and Chroma, the fake embedder.
"""

from __future__ import annotations

from datetime import date

from fakes import fake_assistant

from rag_core.types import Principal

ADMIN = Principal("boss", "admin")
POLICY = (
    "# 星河科技考勤与休假管理制度\n\n## 第一章 总则\n\n第一条 为规范考勤，制定本制度。\n\n"
    "## 第三章 假期类别\n\n第七条 员工入职满一年后每年享有带薪年假 5 天。\n\n"
    "第八条 病假须提供医院诊断证明，咨询热线 13912345678。\n"
)


def _fingerprint(assistant, doc_id: str) -> list[tuple[str, str, str, str]]:
    return [(c.title, c.section, c.source, c.text) for c in assistant.document_chunks(doc_id, actor=ADMIN)]


def test_a_version_cut_again_is_what_a_fresh_upload_with_the_new_settings_gives(tmp_path):
    a = fake_assistant(tmp_path / "a")
    assert a.ingest_bytes(POLICY.encode(), "考勤.md", redact_disabled=["mobile"], actor=ADMIN).ok
    a.update_settings(chunk_size=300, chunk_overlap=30, actor=ADMIN)
    done = a.reindex(actor=ADMIN)
    assert done.failed == [] and done.documents == 1
    fresh = fake_assistant(tmp_path / "b", chunk_size=300, chunk_overlap=30)
    assert fresh.ingest_bytes(POLICY.encode(), "考勤.md", redact_disabled=["mobile"], actor=ADMIN).ok
    assert _fingerprint(a, "考勤") == _fingerprint(fresh, "考勤")
    shown = _fingerprint(a, "考勤")
    assert {title for title, *_ in shown} == {"星河科技考勤与休假管理制度"}
    assert any("第三章 假期类别" in section for _, section, _, _ in shown)
    assert any("13912345678" in text for *_, text in shown)  # kept unmasked at upload, kept so


def test_a_scheduled_version_is_cut_again_and_keeps_its_date(tmp_path):
    a = fake_assistant(tmp_path / "a")
    assert a.ingest_bytes(POLICY.encode(), "考勤.md", actor=ADMIN).ok
    later = POLICY.replace("5 天", "7 天")
    assert a.ingest_bytes(later.encode(), "考勤.md", effective_date="2099-01-01", actor=ADMIN).ok
    a.update_settings(chunk_size=300, chunk_overlap=30, actor=ADMIN)
    assert a.reindex(actor=ADMIN).documents == 2
    live = [v for v in a.document_versions("考勤", actor=ADMIN) if v.status != "retired"]
    assert [(v.status, v.effective_date) for v in live] == [("current", None), ("current", "2099-01-01")]
    scheduled = live[-1]
    assert any("7 天" in c.text for c in a.catalog.chunks_of("考勤", scheduled.version))
    assert a.retriever.visible("all", date(2099, 1, 2)).keys == {f"考勤@v{scheduled.version}"}


def test_versions_the_chunk_cap_refuses_are_named_not_skipped_quietly(tmp_path):
    long_article = "第九条 " + "员工请假应当提前在系统中提交申请并写明事由。" * 12 + "\n"
    a = fake_assistant(tmp_path / "a", max_chunks_per_file=6)
    assert a.ingest_bytes((POLICY + "\n" + long_article).encode(), "考勤.md", actor=ADMIN).ok
    a.update_settings(chunk_size=40, chunk_overlap=0, actor=ADMIN)
    done = a.reindex(actor=ADMIN)
    assert done.documents == 0 and len(done.failed) == 1 and "星河科技考勤与休假管理制度" in done.failed[0]
    assert a.audit_log.entries()[0].outcome == "failed"


def test_an_upload_in_effect_says_when_it_cancels_a_scheduled_version(tmp_path):
    """A version in effect retires every older one, a scheduled one too; that used to happen without a word."""
    a = fake_assistant(tmp_path / "a")
    assert a.ingest_bytes(POLICY.encode(), "考勤.md", actor=ADMIN).ok
    assert a.ingest_bytes(POLICY.replace("5 天", "7 天").encode(), "考勤.md", effective_date="2099-01-01", actor=ADMIN).ok
    fixed = a.ingest_bytes(POLICY.replace("制定本制度", "特制定本制度").encode(), "考勤.md", actor=ADMIN)
    assert fixed.ok and any("排期中的 v2" in w and "2099-01-01" in w for w in fixed.warnings), fixed.warnings


def test_a_table_cut_again_keeps_whole_rows_and_each_chunk_opens_with_its_heading(tmp_path):
    table = "# 差旅标准\n\n## 第二条 住宿\n\n各城市住宿标准如下：\n\n| 城市 | 住宿（元/晚） | 餐补（元/天） |\n|---|---|---|\n" + "".join(
        f"| 城市{i} | {300 + i * 10} | {50 + i} |\n" for i in range(12)) + "\n其他城市按三类城市执行。\n"
    a = fake_assistant(tmp_path / "a")
    assert a.ingest_bytes(table.encode(), "差旅.md", actor=ADMIN).ok
    a.update_settings(chunk_size=120, chunk_overlap=20, actor=ADMIN)
    assert a.reindex(actor=ADMIN).failed == []
    rows = {f"城市：城市{i}，住宿（元/晚）：{300 + i * 10}，餐补（元/天）：{50 + i}" for i in range(12)}
    lines = [line for *_, text in _fingerprint(a, "差旅") for line in text.split("\n") if line.startswith("城市：")]
    assert set(lines) == rows  # every row whole in some chunk, and no chunk holds a piece of one
    holding = [text for *_, text in _fingerprint(a, "差旅") if "城市：" in text]
    # each chunk knows its table: it opens with the caption or heading, not in the middle of the rows
    assert len(holding) > 1 and not any(text.startswith("城市：") for text in holding), holding



def test_a_scheduled_version_the_new_size_refuses_is_kept_with_the_whole_document(tmp_path):
    """The version in effect was written first and retired the scheduled one; the scheduled one's re-cut copy was
    then refused by the chunk cap, and the 2099 version was gone while the page said it was still searched
    (helper-38 1). Now a document is cut again only when all its live versions can be."""
    long_article = "第九条 " + "员工请假应当提前在系统中提交申请并写明事由。" * 12 + "\\n"
    a = fake_assistant(tmp_path / "a", max_chunks_per_file=6)
    assert a.ingest_bytes(POLICY.encode(), "考勤.md", actor=ADMIN).ok
    later = POLICY.replace("5 天", "7 天") + "\\n" + long_article
    assert a.ingest_bytes(later.encode(), "考勤.md", effective_date="2099-01-01", actor=ADMIN).ok
    before = [(v.version, v.status, v.effective_date) for v in a.document_versions("考勤", actor=ADMIN)]
    a.update_settings(chunk_size=40, chunk_overlap=0, actor=ADMIN)
    done = a.reindex(actor=ADMIN)
    assert done.documents == 0 and len(done.failed) == 1
    assert [(v.version, v.status, v.effective_date) for v in a.document_versions("考勤", actor=ADMIN)] == before
    assert any("7 天" in c.text for c in a.catalog.chunks_of("考勤", 2))


def test_an_older_version_a_dated_one_replaced_is_not_cut_again(tmp_path):
    """With v2's date passed, v1 is no longer in effect: cutting it again retired v2 and could lose it
    (helper-39 2). Only the version in effect and scheduled ones are cut."""
    a = fake_assistant(tmp_path / "a")
    assert a.ingest_bytes(POLICY.encode(), "考勤.md", actor=ADMIN).ok
    assert a.ingest_bytes(POLICY.replace("5 天", "7 天").encode(), "考勤.md", effective_date="2099-01-01", actor=ADMIN).ok
    with a.catalog.transaction() as db:  # v2's day has come
        db.execute("UPDATE documents SET effective_date='2000-01-01' WHERE version=2")
    a.update_settings(chunk_size=300, chunk_overlap=30, actor=ADMIN)
    done = a.reindex(actor=ADMIN)
    assert done.documents == 1 and done.failed == []
    [current] = [v for v in a.document_versions("考勤", actor=ADMIN) if v.status == "current"]
    assert any("7 天" in c.text for c in a.catalog.chunks_of("考勤", current.version))
