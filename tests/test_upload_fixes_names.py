"""Two different files whose names become equal only once masked or cut to length are not one document."""

from __future__ import annotations

import json

from fakes import fake_assistant

from rag_core.documents.name_keys import KEYS_META


def policy(tag: str, n: int = 3) -> bytes:
    return "".join(f"第{i}条 {tag}员工第 {i} 项规定，须提前三天申请。\n\n" for i in range(1, n + 1)).encode()


def test_names_equal_after_masking_are_refused_as_an_id_clash(tmp_path):
    a = fake_assistant(tmp_path / "s")
    first = a.ingest_bytes(policy("甲"), "13812345678_加班审批.md")
    estimate = a.estimate_ingest(policy("乙"), "13987654321_加班审批.md")
    second = a.ingest_bytes(policy("乙"), "13987654321_加班审批.md")
    assert first.ok and not estimate.ok and not second.ok
    assert second.conflict_doc_id == first.doc_id and "指定文档ID" in second.error
    assert [(d.doc_id, d.version) for d in a.list_documents()] == [(first.doc_id, 1)]
    again = a.ingest_bytes(policy("丙"), "13812345678_加班审批.md")  # the same file again: its next version
    assert again.ok and again.version == 2
    confirmed = a.ingest_bytes(policy("乙"), "13987654321_加班审批.md", doc_id=first.doc_id)  # the page's 是新版本
    assert confirmed.ok and confirmed.version == 3


def test_names_equal_after_the_cut_are_refused(tmp_path):
    a = fake_assistant(tmp_path / "s")
    base = "关于" + "调整员工差旅费报销标准及审批流程" * 8
    assert a.ingest_bytes(policy("甲"), base + "（销售部适用）.md").ok
    second = a.ingest_bytes(policy("乙"), base + "（研发部适用）.md")
    assert not second.ok and second.conflict_doc_id
    assert len(a.list_documents()) == 1 and a.list_documents()[0].version == 1


def test_only_a_keyed_hash_of_the_name_is_stored(tmp_path):
    a = fake_assistant(tmp_path / "s")
    report = a.ingest_bytes(policy("甲"), "13812345678_加班审批.md")
    keys = json.loads(a.catalog.get_meta(KEYS_META + report.doc_id))
    assert len(keys) == 1 and "13812345678" not in keys[0]
    a.delete_document(report.doc_id)  # deleted: another file may take the id again, numbered on (stop 57: a
    assert a.ingest_bytes(policy("乙"), "13987654321_加班审批.md").version == 2  # number is never given twice)
