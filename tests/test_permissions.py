"""Permissions in the engine: every facade method checks the acting principal.

Fast tests on the shared fakes (real Chroma and SQLite, bigram embedder): a store with
a policy for everyone, an HR-only one and a managers-only one, and three accounts.
The same refusals hold whoever calls — a page, the CLI or a direct call.
"""

from __future__ import annotations

import pytest
from fakes import fake_assistant

from rag_core import PermissionDenied, Principal

LEAVE = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n\n第二条 病假须提供医院诊断证明。\n"
TRAVEL = "# 差旅制度\n\n第一条 国内出差住宿凭发票实报实销，一线城市每晚上限 600 元。\n"
PAY = "# 薪酬保密制度\n\n第一条 海豚补贴每月 800 元，发放名单仅限人事部门掌握。\n"
BOARD = "# 管理层制度\n\n第一条 鲸鱼津贴每季度 5000 元，只面向管理者。\n"
SECRET_WORDS = ("800 元", "发放名单", "人事部门掌握")  # in the HR-only text, not in the question

EMPLOYEE = Principal("zhang", "employee")
HR = Principal("li", "hr")
ADMIN = Principal("wang", "admin")
MANAGER = Principal("zhao", "employee", ("managers",))


@pytest.fixture()
def assistant(tmp_path):
    facade = fake_assistant(tmp_path / "store")
    for name, text, audience in (
        ("leave.md", LEAVE, ["all"]), ("travel.md", TRAVEL, ["all"]),
        ("pay.md", PAY, ["hr"]), ("board.md", BOARD, ["managers"]),
    ):
        assert facade.ingest_bytes(text.encode("utf-8"), name, audience=audience).ok
    for principal in (ADMIN, EMPLOYEE, HR, MANAGER):  # the first account is made by the local administrator
        facade.add_user(principal.user, principal.role, "correct horse", principal.audiences, actor=ADMIN)
    return facade


def texts(result) -> str:
    return " ".join(h.chunk.text for h in [*result.hits, *result.near_misses])


def test_without_accounts_the_caller_is_the_local_administrator(tmp_path):
    facade = fake_assistant(tmp_path / "desktop")
    assert facade.ingest_bytes(PAY.encode("utf-8"), "pay.md", audience=["hr"]).ok
    assert [d.doc_id for d in facade.list_documents()] == ["pay"]
    assert not facade.team_mode


def test_once_an_account_exists_a_call_without_a_principal_is_refused(assistant):
    assert assistant.team_mode
    for call in (
        lambda: assistant.list_documents(),
        lambda: assistant.search("年假有几天"),
        lambda: assistant.ask("年假有几天"),
        lambda: assistant.delete_document("leave"),
        lambda: assistant.list_memories("zhang"),
    ):
        with pytest.raises(PermissionDenied, match="请先登录"):
            call()
    assert [d.doc_id for d in assistant.list_documents(actor=ADMIN)] == ["board", "leave", "pay", "travel"]


@pytest.mark.parametrize(
    "call",
    [
        lambda a: a.ingest_bytes(b"# x\n\nx", "x.md", actor=EMPLOYEE),
        lambda a: a.delete_document("leave", actor=EMPLOYEE),
        lambda a: a.list_documents(actor=EMPLOYEE),
        lambda a: a.document_chunks("pay", actor=EMPLOYEE),
        lambda a: a.document_versions("pay", actor=EMPLOYEE),
        lambda a: a.update_settings(top_k=3, actor=EMPLOYEE),
        lambda a: a.update_settings(top_k=3, actor=HR),
        lambda a: a.save_custom_thesaurus("", actor=HR),
        lambda a: a.reindex(actor=HR),
        lambda a: a.run_eval("tests/data/eval.jsonl", actor=EMPLOYEE),
        lambda a: a.list_users(actor=HR),
        lambda a: a.add_user("x1", "admin", "correct horse", actor=HR),
        lambda a: a.audit_entries(actor=HR),
        lambda a: a.check_vectors(actor=HR),
        lambda a: a.forget_memories(0, actor=HR),
    ],
    ids=[
        "upload", "delete", "list", "chunks", "versions", "settings-employee", "settings-hr", "thesaurus", "reindex",
        "eval", "users", "add-user", "audit", "maintenance", "forget-everyone",
    ],
)
def test_the_facade_refuses_what_the_role_may_not_do(assistant, call):
    before = assistant.audit_log.count()
    with pytest.raises(PermissionDenied, match="没有权限"):
        call(assistant)
    assert assistant.audit_log.count() == before + 1  # exactly one row: the refusal
    assert assistant.audit_entries(actor=ADMIN)[0].outcome == "refused"


def test_nothing_changed_after_refusals(assistant):
    with pytest.raises(PermissionDenied):
        assistant.delete_document("pay", actor=EMPLOYEE)
    with pytest.raises(PermissionDenied):
        assistant.update_settings(top_k=2, actor=EMPLOYEE)
    assert "pay" in [d.doc_id for d in assistant.list_documents(actor=ADMIN)]
    assert assistant.settings.top_k != 2


def test_hr_only_text_never_reaches_an_employee(assistant):
    question = "海豚补贴每月多少钱？"
    result = assistant.search(question, actor=EMPLOYEE)
    assert not any(word in texts(result) for word in SECRET_WORDS)
    widened = assistant.search(question, role="hr", actor=EMPLOYEE)  # naming an audience never widens
    assert not any(word in texts(widened) for word in SECRET_WORDS)
    trace = assistant.ask(question, actor=EMPLOYEE, remember=False)
    shown = trace.answer + trace.prompt + texts(trace.search) + str(trace.to_dict())
    assert not any(word in shown for word in SECRET_WORDS)
    assert any(h.chunk.doc_id == "pay" for h in assistant.search(question, actor=HR).hits)


def test_hr_manages_only_the_documents_whose_audience_it_reads(assistant):
    assert [d.doc_id for d in assistant.list_documents(actor=HR)] == ["leave", "pay", "travel"]
    assert assistant.document_chunks("board", actor=HR) == []
    assert assistant.document_versions("board", actor=HR) == []
    assert assistant.delete_document("board", actor=HR) == 0  # answered as an unknown id: nothing told
    assert "board" in [d.doc_id for d in assistant.list_documents(actor=ADMIN)]
    assert "鲸鱼" in texts(assistant.search("鲸鱼津贴每季度多少？", actor=MANAGER))
    assert "鲸鱼" not in texts(assistant.search("鲸鱼津贴每季度多少？", actor=HR))


def test_eval_reads_only_what_the_actor_may_read(assistant, tmp_path):
    # a logged-in person's question set is one in the data dir (uploaded), not any file on the server (review 51i)
    row = '{"question": "海豚补贴每月多少钱？", "category": "literal", "expected": ["海豚补贴"]}\n'
    questions = assistant.save_eval_upload("q.jsonl", row.encode(), actor=HR)
    as_hr = assistant.run_eval(questions, actor=HR)
    assert as_hr["results"][0]["rank"] == 1
    as_admin_viewing_staff = assistant.run_eval(questions, role="all", actor=ADMIN)
    assert "发放名单" not in str(as_admin_viewing_staff["results"])


def test_another_persons_memory_is_refused(assistant):
    mine, _ = assistant.remember("zhang", "我在上海办公室上班", actor=EMPLOYEE)
    theirs, _ = assistant.remember("li", "我负责薪酬核算", actor=HR)
    with pytest.raises(PermissionDenied):
        assistant.delete_memories([theirs], actor=EMPLOYEE)
    with pytest.raises(PermissionDenied):
        assistant.delete_memories([mine, theirs], actor=EMPLOYEE)  # one foreign id refuses the whole call
    with pytest.raises(PermissionDenied):
        assistant.update_memory_importance(theirs, 0.1, actor=EMPLOYEE)
    with pytest.raises(PermissionDenied):
        assistant.list_memories("li", actor=EMPLOYEE)
    with pytest.raises(PermissionDenied):
        assistant.recall("li", "薪酬", actor=EMPLOYEE)
    with pytest.raises(PermissionDenied):
        assistant.ask("年假有几天？", user="li", actor=EMPLOYEE)
    assert [m.id for m in assistant.list_memories("li", actor=HR)] == [theirs]  # untouched
    assert assistant.delete_memories([mine], actor=EMPLOYEE) == 1
    assert assistant.delete_memories([theirs], actor=ADMIN) == 1  # an administrator may


def test_background_scores_do_not_reveal_a_document_the_reader_cannot_see(assistant):
    """Item 5: the cosine background is taken over the reader's readable set only."""
    question = "一线城市出差住宿每晚上限多少？"

    def scores():
        result = assistant.search(question, actor=EMPLOYEE)
        return [(h.chunk.chunk_id, h.scores.margin, h.scores.probability) for h in [*result.hits, *result.near_misses]]

    before = scores()
    assert before
    hidden = "# 人事内部\n\n" + "".join(f"第{i}条 住宿标准内部口径第{i}项，城市出差每晚上限另行核定。\n" for i in range(1, 30))
    assert assistant.ingest_bytes(hidden.encode("utf-8"), "internal.md", audience=["hr"], actor=HR).ok
    assert scores() == before
    assert assistant.centroid.count(EMPLOYEE.readable) < assistant.centroid.count(HR.readable)
