"""The audit trail: append-only, exactly one row per audited action, questions never in it."""

from __future__ import annotations

import io
import sqlite3

import pytest
from cli_support import invoke
from fakes import fake_assistant

import rag_core.cli
from rag_core import AccountError, PermissionDenied, Principal

ADMIN = Principal("wang", "admin")
HR = Principal("li", "hr")
EMPLOYEE = Principal("zhang", "employee")
POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n\n第二条 病假须提供医院诊断证明。\n"


@pytest.fixture()
def assistant(tmp_path):
    facade = fake_assistant(tmp_path / "store")
    facade.add_user("wang", "admin", "correct horse")
    facade.add_user("li", "hr", "correct horse", actor=ADMIN)
    facade.add_user("zhang", "employee", "correct horse", actor=ADMIN)
    return facade


def one_new_row(facade, action):
    """Run `action` and return the single audit row it left (fails on zero or several)."""
    before = facade.audit_log.count()
    try:
        action()
    except (PermissionDenied, AccountError):
        pass
    rows = facade.audit_entries(actor=ADMIN)[: facade.audit_log.count() - before]
    assert len(rows) == 1, rows
    return rows[0]


def test_each_audited_action_leaves_exactly_one_row(assistant):
    cases = [
        (lambda: assistant.ingest_bytes(POLICY.encode("utf-8"), "leave.md", actor=HR), "document.upload", "ok"),
        (lambda: assistant.ingest_bytes(b"", "empty.md", actor=HR), "document.upload", "failed"),
        (lambda: assistant.update_settings(top_k=4, actor=ADMIN), "settings.change", "ok"),
        (lambda: assistant.save_custom_thesaurus("", actor=ADMIN), "thesaurus.change", "ok"),
        (lambda: assistant.login("zhang", "correct horse"), "login", "ok"),
        (lambda: assistant.login("zhang", "wrong"), "login", "failed"),
        (lambda: assistant.add_user("zhao", "employee", "correct horse", actor=ADMIN), "user.add", "ok"),
        (lambda: assistant.set_user_disabled("zhao", actor=ADMIN), "user.disable", "ok"),
        (lambda: assistant.reset_user_password("zhao", "battery staple", actor=ADMIN), "user.password", "ok"),
        (lambda: assistant.set_user_role("zhao", "hr", actor=ADMIN), "user.role", "ok"),
        (lambda: assistant.delete_document("leave", actor=EMPLOYEE), "refused", "refused"),
        (lambda: assistant.delete_document("leave", actor=HR), "document.delete", "ok"),
        (lambda: assistant.reindex(actor=ADMIN), "document.reindex", "ok"),
    ]
    for action, name, outcome in cases:
        row = one_new_row(assistant, action)
        assert (row.action, row.outcome) == (name, outcome), row


def test_memory_deletions_and_refusals_are_audited(assistant):
    mine, _ = assistant.remember("zhang", "我在上海办公室上班", actor=EMPLOYEE)
    theirs, _ = assistant.remember("li", "我负责薪酬核算", actor=HR)
    refused = one_new_row(assistant, lambda: assistant.delete_memories([theirs], actor=EMPLOYEE))
    assert (refused.actor, refused.action, refused.outcome) == ("zhang", "refused", "refused")
    deleted = one_new_row(assistant, lambda: assistant.delete_memories([mine], actor=EMPLOYEE))
    assert (deleted.action, deleted.target, deleted.outcome) == ("memory.delete", f"zhang 的记忆 {mine}", "ok")


def test_the_trail_is_append_only(assistant):
    with sqlite3.connect(assistant.audit_log.path) as db:
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            db.execute("UPDATE audit SET outcome = 'ok'")
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            db.execute("DELETE FROM audit")


def test_questions_are_not_written_to_the_trail(assistant):
    assistant.ingest_bytes(POLICY.encode("utf-8"), "leave.md", actor=HR)
    before = assistant.audit_log.count()
    assistant.ask("我的病假工资怎么算？", actor=EMPLOYEE, remember=False)
    assert assistant.audit_log.count() == before
    assert not any("病假工资" in e.target + e.detail for e in assistant.audit_entries(actor=ADMIN))


def test_only_an_administrator_reads_the_trail(assistant):
    with pytest.raises(PermissionDenied):
        assistant.audit_entries(actor=HR)


def test_audit_command_filters_by_date_and_prints_json(monkeypatch, capsys, tmp_path):
    store = tmp_path / "store"
    monkeypatch.setattr(rag_core.cli, "open_assistant", lambda args: fake_assistant(args.data_dir))
    monkeypatch.setattr("sys.stdin", io.StringIO("correct horse\ncorrect horse\n"))
    assert invoke(capsys, "--data-dir", str(store), "users", "add", "wang", "--role", "admin").exit_code == 0
    entries = invoke(capsys, "--data-dir", str(store), "audit", "--json").json()["entries"]
    assert [(e["actor"], e["action"], e["target"], e["outcome"]) for e in entries] == [("local", "user.add", "wang", "ok")]
    assert invoke(capsys, "--data-dir", str(store), "audit", "--since", "2999-01-01", "--json").json()["entries"] == []
    with pytest.raises(SystemExit):
        invoke(capsys, "--data-dir", str(store), "audit", "--since", "yesterday")


def test_a_failed_login_records_the_typed_name_only_when_it_is_an_account(assistant):
    """A password typed into the name field (or a phone number, an e-mail) never reaches the trail."""
    import hashlib

    typed = ["correct horse battery", "13812345678", "zhang@corp.cn", "correct horse battery"]
    rows = [one_new_row(assistant, lambda name=name: assistant.login(name, "whatever")) for name in typed]
    assert all(r.outcome == "failed" and r.role == "" for r in rows)
    assert all(r.actor.startswith("未知用户#") and len(r.actor) == len("未知用户#") + 8 for r in rows)
    assert rows[0].actor == rows[3].actor != rows[1].actor  # the same typing lines up, different ones do not
    assert rows[0].actor[-8:] != hashlib.sha256(typed[0].encode()).hexdigest()[:8]  # keyed: guesses cannot confirm it
    stored = " ".join(f"{e.actor} {e.target} {e.detail}" for e in assistant.audit_entries(actor=ADMIN))
    assert not any(name in stored for name in typed), stored
    known = one_new_row(assistant, lambda: assistant.login(" zhang ", "wrong password"))
    assert (known.actor, known.target, known.role, known.outcome) == ("zhang", "zhang", "employee", "failed")
    empty = one_new_row(assistant, lambda: assistant.login("", "whatever"))
    assert empty.actor == "（空用户名）"


def test_the_stranger_tag_survives_reopening_the_store(assistant):
    first = assistant.accounts.stranger("my-secret-pass")
    reopened = type(assistant.accounts)(assistant.accounts.path)
    assert reopened.stranger("my-secret-pass") == first and "my-secret-pass" not in first


def test_another_persons_conversations_leave_a_row_whoever_touches_them(tmp_path):
    """Memories audited a refusal and an administrator's deletion; conversations, with the same answers and
    personal facts in them, left no row (helper-40 5)."""
    a = fake_assistant(tmp_path / "store")
    bob, eve = Principal("bob", "employee"), Principal("eve", "employee")
    a.ask("年假有几天", user="bob", actor=bob, conversation="c-bob")
    with pytest.raises(PermissionDenied):
        a.export_history("bob", actor=eve)
    with pytest.raises(PermissionDenied):
        a.open_conversation("c-bob", actor=eve)
    a.export_history("bob", actor=ADMIN)
    a.delete_conversation("c-bob", actor=ADMIN)
    a.list_conversations("bob", actor=bob)  # one's own: no row
    rows = [(e.actor, e.action, e.outcome) for e in reversed(a.audit_entries(actor=ADMIN)) if "bob" in e.target]
    assert rows == [("eve", "refused", "refused"), ("eve", "refused", "refused"), (ADMIN.user, "conversation.export", "ok"),
                    (ADMIN.user, "conversation.delete", "ok")]


def test_an_evaluations_owner_less_conversation_leaves_no_row(tmp_path):
    """The follow-up eval deletes its own conversations, owned by nobody: one 删除他人对话 row each (helper-44 9)."""
    a = fake_assistant(tmp_path / "store")
    a.ask("年假有几天", user="", actor=ADMIN, conversation="eval-1", traffic="eval")
    before = a.audit_log.count()
    a.delete_conversation("eval-1", actor=ADMIN)
    assert a.audit_log.count() == before


def test_asking_in_another_persons_conversation_is_refused_with_a_row(tmp_path):
    """The refusal raised without an audit row (helper-40 5), while asking as another person writes one."""
    from rag_core.conversations.store import ConversationError

    a = fake_assistant(tmp_path / "store")
    a.ask("年假有几天", user="bob", actor=Principal("bob", "employee"), conversation="c-bob")
    with pytest.raises(ConversationError):
        a.ask("那病假呢", user="eve", actor=Principal("eve", "employee"), conversation="c-bob")
    assert [(e.actor, e.action) for e in a.audit_entries(actor=ADMIN) if "c-bob" in e.target] == [("eve", "refused")]


def test_an_administrators_deletion_of_several_peoples_memories_says_whose_each_is(assistant):
    """Review 379 #4: 'li、zhang 的记忆 id1、id2' did not say which memory was whose."""
    mine, _ = assistant.remember("zhang", "我在上海办公室上班", actor=EMPLOYEE)
    theirs, _ = assistant.remember("li", "我负责薪酬核算", actor=HR)
    row = one_new_row(assistant, lambda: assistant.delete_memories([mine, theirs], actor=ADMIN))
    assert row.target == f"li 的记忆 {theirs}；zhang 的记忆 {mine}"

