"""The damage matrix of docs/deploy.md for the account, audit and version-history files.

`accounts.sqlite3` decides whether anyone needs to log in, so its damage fails
closed: damaged, or lost (deleted, emptied) in a data dir the audit trail shows
was used with accounts, every page stops with one Chinese line — never the
no-login desktop mode with its local administrator. The audit trail and the
version history only record what happened: when either is damaged the action
still completes and its result stands (a deleted document is reported deleted),
and one line naming the file says what is off. Real SQLite and Chroma in a temp
dir, the fake embedder; the pages through AppTest on that facade.
"""

from __future__ import annotations

import gc
import json
import shutil
from pathlib import Path

import pytest
from app_support import point_the_app_at, submit_login
from cli_support import invoke
from fakes import fake_assistant
from streamlit.testing.v1 import AppTest

from rag_core import Principal
from rag_core.errors import PermissionDenied, StoreDamaged

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
PASSWORD = "correct horse"
ADMIN = Principal("wang", "admin")
POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n\n第二条 病假须提供医院诊断证明。\n"
NEWER = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 7 天。\n\n第二条 病假须提供医院诊断证明。\n"


def close(assistant) -> None:
    assistant.memory.close()
    del assistant
    gc.collect()


def truncate(path: Path, size: int | None = None) -> None:
    with open(path, "r+b") as f:
        f.truncate(path.stat().st_size // 2 if size is None else size)


def garble(path: Path) -> None:
    data = bytearray(path.read_bytes())
    for i in range(min(len(data), 4096)):
        data[i] = (data[i] * 7 + 13) % 256
    path.write_bytes(bytes(data))


def lose(path: Path, how: str) -> None:
    """Delete or empty a store file, with its side files."""
    if how == "deleted":
        path.unlink()
    else:
        truncate(path, 0)
    for suffix in ("-wal", "-shm", "-journal"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)


@pytest.fixture(scope="module")
def built_team(tmp_path_factory) -> Path:
    """A team-mode data dir: a document (two versions), memories, an administrator who logged in once."""
    data = tmp_path_factory.mktemp("team") / "store"
    assistant = fake_assistant(data)
    assert assistant.ingest_bytes(POLICY.encode(), "leave.md").ok
    assistant.add_user("wang", "admin", PASSWORD)  # the first account: team mode from here on
    assistant.login("wang", PASSWORD)
    assert assistant.ingest_bytes(NEWER.encode(), "leave.md", actor=ADMIN).ok
    assistant.remember("wang", "用户在研发部工作", actor=ADMIN)
    close(assistant)
    return data


@pytest.fixture(scope="module")
def built_desktop(tmp_path_factory) -> Path:
    """A desktop data dir: used without accounts (the audit trail holds the local administrator's rows)."""
    data = tmp_path_factory.mktemp("desk") / "desk"
    assistant = fake_assistant(data)
    assert assistant.ingest_bytes(POLICY.encode(), "leave.md").ok
    assert not assistant.team_mode
    close(assistant)
    return data


@pytest.fixture()
def team(built_team: Path, tmp_path: Path) -> Path:
    """A fresh copy of the team data dir for each test (built once per module: a copy ~20 ms, a build ~0.8 s)."""
    return Path(shutil.copytree(built_team, tmp_path / "store"))


@pytest.fixture()
def desktop(built_desktop: Path, tmp_path: Path) -> Path:
    """A fresh copy of the desktop data dir for each test."""
    return Path(shutil.copytree(built_desktop, tmp_path / "desk"))


def app_on(assistant, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, page: str | None = None) -> AppTest:
    import ui.state

    point_the_app_at(tmp_path / "unused", monkeypatch)
    monkeypatch.setattr(ui.state, "open_assistant", lambda settings: assistant)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.run()
    if page:
        at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def shown(elements) -> list[str]:
    """What a person reads (the pages escape Markdown: accounts\\.sqlite3 reads accounts.sqlite3)."""
    return [str(e.value).replace("\\", "") for e in elements]


def one_line_naming(at: AppTest, file: str) -> str:
    lines = [text for text in shown(at.error) if text.startswith(file)]
    assert len(lines) == 1, [e.value for e in at.error]
    assert "\n" not in lines[0]
    return lines[0]


# ---------------------------------------------------------------- accounts: lost → refused, never no-login


@pytest.mark.parametrize("how", ["deleted", "emptied"])
def test_lost_accounts_never_open_the_no_login_desktop_mode(team: Path, how: str) -> None:
    lose(team / "accounts.sqlite3", how)
    assistant = fake_assistant(team)
    with pytest.raises(StoreDamaged) as info:
        assert assistant.team_mode
    line = str(info.value)
    assert line.startswith("accounts.sqlite3") and "audit.sqlite3" in line and "restore" in line
    assert "users add" in line and "\n" not in line
    with pytest.raises(StoreDamaged):  # a call naming nobody is not the local administrator either
        assistant.list_users()
    with pytest.raises(StoreDamaged):
        assistant.login("wang", PASSWORD)
    assert assistant.search("年假有几天", actor=ADMIN).hits  # the library itself is intact


def test_an_administrator_added_on_the_command_line_ends_the_refusal(team: Path) -> None:
    lose(team / "accounts.sqlite3", "deleted")
    app = fake_assistant(team)
    with pytest.raises(StoreDamaged):
        assert app.team_mode
    cli = fake_assistant(team)
    cli.act_as_local_administrator()  # what `python -m rag_core users add` is
    cli.add_user("wang", "admin", PASSWORD)
    assert app.team_mode and app.session_principal(app.login("wang", PASSWORD)) == ADMIN


def test_lost_accounts_with_an_unreadable_audit_trail_fail_closed(team: Path) -> None:
    lose(team / "accounts.sqlite3", "emptied")
    garble(team / "audit.sqlite3")
    with pytest.raises(StoreDamaged) as info:
        assert fake_assistant(team).team_mode
    assert str(info.value).startswith("accounts.sqlite3") and "audit.sqlite3 已损坏" in str(info.value)


def test_a_desktop_store_without_accounts_still_needs_no_login(desktop: Path) -> None:
    assistant = fake_assistant(desktop)
    assert not assistant.team_mode
    assert [d.doc_id for d in assistant.list_documents()] == ["leave"]


@pytest.mark.parametrize("page", [None, "pages/users.py", "pages/audit.py"])
def test_the_app_with_lost_accounts_shows_one_line_and_nothing_else(team: Path, tmp_path: Path, monkeypatch, page) -> None:
    lose(team / "accounts.sqlite3", "emptied")
    at = app_on(fake_assistant(team), tmp_path, monkeypatch, page)
    one_line_naming(at, "accounts.sqlite3")
    assert not at.chat_input and not at.text_input and not at.dataframe  # no chat, no login form, no data
    assert "本机管理员" not in "".join(str(m.value) for m in at.sidebar.markdown)


def test_doctor_flags_lost_accounts(team: Path, capsys) -> None:
    lose(team / "accounts.sqlite3", "emptied")
    result = invoke(capsys, "--data-dir", str(team), "doctor", "--json")
    assert result.exit_code == 1
    bad = [c for c in json.loads(result.stdout)["checks"] if not c["ok"]]
    assert [(c["file"], c["status"]) for c in bad] == [("accounts.sqlite3", "lost")]
    assert "restore" in bad[0]["fix"] and "users add" in bad[0]["fix"]


def test_doctor_on_a_desktop_store_without_accounts_exits_0(desktop: Path, capsys) -> None:
    result = invoke(capsys, "--data-dir", str(desktop), "doctor")
    assert result.exit_code == 0, result.stdout


# ---------------------------------------------------------------- accounts garbled: closed, one line


def test_garbled_accounts_stop_every_page_with_one_line(team: Path, tmp_path: Path, monkeypatch) -> None:
    garble(team / "accounts.sqlite3")
    assistant = fake_assistant(team)
    with pytest.raises(StoreDamaged) as info:
        assert assistant.team_mode
    assert str(info.value).startswith("accounts.sqlite3 已损坏") and "restore" in str(info.value)
    at = app_on(assistant, tmp_path, monkeypatch)
    one_line_naming(at, "accounts.sqlite3")
    assert not at.chat_input and not at.text_input
    at.switch_page("pages/users.py").run()
    assert not at.exception, [e.value for e in at.exception]
    one_line_naming(at, "accounts.sqlite3")


def test_serving_beyond_this_machine_is_refused_with_garbled_accounts(team: Path) -> None:
    from rag_core import Settings
    from rag_core.accounts.serving import check

    garble(team / "accounts.sqlite3")
    refusal = check("0.0.0.0", Settings(data_dir=team))
    assert refusal and "accounts.sqlite3 已损坏" in refusal


# ---------------------------------------------------------------- audit garbled: actions stand, one line


def test_with_a_garbled_audit_trail_actions_complete_and_say_so(team: Path) -> None:
    garble(team / "audit.sqlite3")
    assistant = fake_assistant(team)
    token = assistant.login("wang", PASSWORD)  # the login form works
    assert assistant.session_principal(token) == ADMIN
    report = assistant.ingest_bytes("# 考勤制度\n\n第一条 每天九点上班。\n".encode(), "attendance.md", actor=ADMIN)
    assert report.ok and report.status == "indexed"
    assert assistant.purge_memories("wang", actor=ADMIN).count == 1
    assert assistant.delete_document("leave", actor=ADMIN) > 0
    assert [d.doc_id for d in assistant.list_documents(actor=ADMIN)] == ["attendance"]
    with pytest.raises(PermissionDenied):  # a refusal still refuses
        assistant.list_users(actor=Principal("zhang", "employee"))
    said = [n for n in assistant.store_notices if n.startswith("audit.sqlite3")]
    assert len(said) == 1 and "不会记入审计日志" in said[0] and "restore" in said[0]
    with pytest.raises(StoreDamaged) as info:
        assistant.audit_entries(actor=ADMIN)
    assert str(info.value) == said[0]


def test_the_login_form_works_past_a_garbled_audit_trail(team: Path, tmp_path: Path, monkeypatch) -> None:
    garble(team / "audit.sqlite3")
    at = app_on(fake_assistant(team), tmp_path, monkeypatch)
    submit_login(at, "wang", PASSWORD)
    assert at.chat_input, [e.value for e in at.error]
    assert any(w.startswith("audit.sqlite3") for w in shown(at.warning))  # said on the next page run
    at.switch_page("pages/audit.py").run()
    assert not at.exception, [e.value for e in at.exception]
    one_line_naming(at, "audit.sqlite3")


# ---------------------------------------------------------------- version history garbled: documents work


def test_with_a_garbled_history_upload_and_delete_complete_and_say_so(team: Path) -> None:
    garble(team / "document_history.sqlite3")
    assistant = fake_assistant(team)
    report = assistant.ingest_bytes(NEWER.replace("7 天", "9 天").encode(), "leave.md", actor=ADMIN)
    assert report.ok and report.status == "indexed" and report.version == 3
    said = [w for w in report.warnings if w.startswith("document_history.sqlite3")]
    assert len(said) == 1 and "检索照常" in said[0] and "\n" not in said[0]
    assert any("9 天" in h.chunk.text for h in assistant.search("年假几天", actor=ADMIN).hits)
    with pytest.raises(StoreDamaged) as info:
        assistant.document_changes("leave", actor=ADMIN)
    assert str(info.value).startswith("document_history.sqlite3")
    assert assistant.delete_document("leave", actor=ADMIN) > 0
    assert assistant.list_documents(actor=ADMIN) == []
    assert said[0] in assistant.store_notices


def test_the_documents_page_works_past_a_garbled_history(team: Path, tmp_path: Path, monkeypatch) -> None:
    garble(team / "document_history.sqlite3")
    assistant = fake_assistant(team)
    at = app_on(assistant, tmp_path, monkeypatch)
    submit_login(at, "wang", PASSWORD)
    at.switch_page("pages/documents.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(w.startswith("document_history.sqlite3") for w in shown(at.warning))
    assert any(b.label == "删除此文档" for b in at.button)  # the rest of the page is there


# ---------------------------------------------------------------- doctor names each file and its fix


@pytest.mark.parametrize("name", ["accounts.sqlite3", "audit.sqlite3", "document_history.sqlite3"])
def test_doctor_names_a_damaged_account_audit_or_history_file(team: Path, capsys, name: str) -> None:
    garble(team / name)
    result = invoke(capsys, "--data-dir", str(team), "doctor", "--json")
    assert result.exit_code == 1
    bad = [c for c in json.loads(result.stdout)["checks"] if not c["ok"]]
    assert [(c["file"], c["status"]) for c in bad] == [(name, "damaged")]
    assert "restore" in bad[0]["fix"] and "移走" in bad[0]["fix"]


def test_a_damaged_file_found_later_in_a_session_is_still_said(team: Path, tmp_path: Path, monkeypatch) -> None:
    """The audit line is shown after the login; the history line, found at a later upload, on the next run."""
    garble(team / "audit.sqlite3")
    garble(team / "document_history.sqlite3")
    assistant = fake_assistant(team)
    at = app_on(assistant, tmp_path, monkeypatch)
    submit_login(at, "wang", PASSWORD)
    assert any(w.startswith("audit.sqlite3") for w in shown(at.warning))
    assert assistant.ingest_bytes(NEWER.replace("7 天", "9 天").encode(), "leave.md", actor=ADMIN).ok
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(w.startswith("document_history.sqlite3") for w in shown(at.warning))


def test_an_audit_trail_torn_past_its_first_pages_is_one_line_too(team: Path) -> None:
    assistant = fake_assistant(team)
    for i in range(400):  # rows over many pages: a torn page past the schema opens, but cannot be read
        assistant.audit_log.record("wang", "admin", "document.upload", f"制度{i}.md", "ok", "x" * 200)
    close(assistant)
    path = team / "audit.sqlite3"
    data = bytearray(path.read_bytes())
    data[4096 * 3 : 4096 * 5] = b"\xff" * 8192
    path.write_bytes(bytes(data))
    with pytest.raises(StoreDamaged) as info:
        fake_assistant(team).audit_entries(actor=ADMIN)
    assert str(info.value).startswith("audit.sqlite3")


def test_the_cli_works_past_garbled_accounts_and_users_says_one_line(team: Path, capsys, monkeypatch) -> None:
    import rag_core.cli

    monkeypatch.setattr(rag_core.cli, "open_assistant", lambda args: fake_assistant(args.data_dir))
    garble(team / "accounts.sqlite3")
    assert invoke(capsys, "--data-dir", str(team), "docs", "list").exit_code == 0
    result = invoke(capsys, "--data-dir", str(team), "users", "list")
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("错误：accounts.sqlite3 已损坏"), result.stderr


def test_a_locked_account_file_is_busy_not_damaged(tmp_path):
    """SQLite's "database is locked" is a DatabaseError too: it was said as 已损坏…把它移走 (helper-38 7)."""
    import sqlite3

    from rag_core.errors import RagError
    from rag_core.facade.core import damage_named as _damage_named

    path = tmp_path / "accounts.sqlite3"
    holder = sqlite3.connect(path)
    holder.execute("CREATE TABLE t (x)")
    holder.commit()
    holder.execute("BEGIN EXCLUSIVE")
    with pytest.raises(RagError, match="正被另一个进程占用") as caught, _damage_named("accounts.sqlite3"):
        sqlite3.connect(path, timeout=0.05).execute("SELECT * FROM t").fetchall()
    assert "已损坏" not in str(caught.value)


def test_a_busy_audit_trail_never_fails_the_action_it_records(tmp_path, monkeypatch):
    """The busy error must be handled where damage is: the action stands and the row is skipped with a notice
    (helper-39 1: it raised after the settings were saved, leaving disk and memory apart)."""
    import sqlite3

    a = fake_assistant(tmp_path / "store")
    busy = sqlite3.OperationalError("database is locked")
    busy.sqlite_errorcode = sqlite3.SQLITE_BUSY

    def locked(*args, **kwargs):
        raise busy

    monkeypatch.setattr(a.audit_log, "record", locked)
    a.update_settings(top_k=3, actor=Principal("boss", "admin"))
    assert a.settings.top_k == 3 and any("正被另一个进程占用" in n for n in a.store_notices)
