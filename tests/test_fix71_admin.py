"""Review 391 (administrators' pages), the engine side: an upload's audit row names its readers and a change of
them; 使用情况 counts the tests it leaves out as it counts the rest; an address with an apostrophe is masked whole."""

from __future__ import annotations

from fakes import fake_assistant

from rag_core.documents.redaction import redact_text
from rag_core.errors import AccountError
from rag_core.facade.access import LOCAL_ADMIN

BOSS_PASSWORD = "Xk9#pLm2qq"


def _team(tmp_path):
    a = fake_assistant(tmp_path / "store")
    a.add_user("boss", "admin", BOSS_PASSWORD, actor=LOCAL_ADMIN)
    a.add_user("hrli", "hr", BOSS_PASSWORD, actor=LOCAL_ADMIN)
    return a, a.session_principal(a.login("boss", BOSS_PASSWORD)), a.session_principal(a.login("hrli", BOSS_PASSWORD))


def test_an_upload_that_opens_a_managers_policy_to_all_staff_is_said_in_the_audit_trail(tmp_path) -> None:
    a, boss, _ = _team(tmp_path)
    body = "# 经理奖金办法\n\n第一条 部门经理年终奖金为三个月工资。\n"
    first = a.ingest_bytes(body.encode(), "jiangjin.md", audience=["managers"], actor=boss)
    a.ingest_bytes(body.replace("三", "四").encode(), "jiangjin.md", audience=["all"], doc_id=first.doc_id, actor=boss)
    rows = [r.detail for r in a.audit_entries(actor=boss) if r.action == "document.upload"]
    assert any(d.endswith("v1 已索引；受众 管理者") for d in rows), rows
    assert any("v2 已索引；受众 管理者（v1）→ 全体员工" in d for d in rows), rows


def test_usage_leaves_out_only_the_tests_the_reader_could_count(tmp_path) -> None:
    a, boss, hr = _team(tmp_path)
    a.ingest_bytes("# 经理奖金办法\n\n第一条 部门经理年终奖金为三个月工资。\n".encode(), "jiangjin.md",
                   audience=["managers"], actor=boss)
    a.ingest_bytes("# 考勤制度\n\n第一条 员工每天工作八小时。\n".encode(), "kaoqin.md", actor=boss)
    a.ask("部门经理年终奖金是多少个月工资", user="boss", actor=boss, traffic="test")  # about a policy HR cannot read
    a.ask("员工每天工作几个小时", user="hrli", actor=hr, traffic="test")
    a.ask("员工每天工作几个小时", user="hrli", actor=hr)
    people, every = a.usage(actor=hr), a.usage(actor=hr, include_tests=True)
    assert people["left_out"] == 1 and every["left_out"] == 0
    assert people["questions"] + people["left_out"] == every["questions"] == 2


def test_an_address_with_an_apostrophe_is_masked_whole_in_the_audit_trail(tmp_path) -> None:
    assert redact_text("邮箱“mary.o'neil@corp.com”已属于") == "邮箱“[邮箱]”已属于"
    assert redact_text("请发'hr@corp.com'") == "请发'[邮箱]'"  # a quote around one is not taken in
    a, boss, _ = _team(tmp_path)
    a.add_user("zhao", "employee", BOSS_PASSWORD, email="mary.o'neil@corp.com", actor=boss)
    try:
        a.add_user("mary", "employee", BOSS_PASSWORD, email="mary.o'neil@corp.com", actor=boss)
    except AccountError:
        pass
    details = [r.detail for r in a.audit_entries(actor=boss) if r.outcome == "failed"]
    assert details and not any("o'" in d or "@" in d for d in details), details


def test_a_version_scheduled_for_later_is_no_ones_before_in_the_audit_line(tmp_path) -> None:
    # review 394 #4: the line compared with a scheduled version, which readers never had
    a, boss, _ = _team(tmp_path)
    text = "# 经理津贴办法\n\n第一条 部门经理每月享受管理津贴2000元。\n"
    first = a.ingest_bytes(text.encode(), "jintie.md", audience=["managers"], actor=boss)
    a.ingest_bytes((text + "第二条 补充。\n").encode(), "jintie.md", audience=["all"], doc_id=first.doc_id,
                   effective_date="2099-01-01", actor=boss)
    a.ingest_bytes((text + "第三条 再补充。\n").encode(), "jintie.md", audience=["all"], doc_id=first.doc_id, actor=boss)
    last = [r.detail for r in a.audit_entries(actor=boss) if r.action == "document.upload"][0]  # newest first
    assert "v3" in last and "管理者（v1）→ 全体员工" in last, last
