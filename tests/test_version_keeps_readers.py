"""A new version given no audience keeps the readers of the version it replaces (review 328).

`ingest 管理者用车.md` after `ingest 管理者用车.md --audience managers` published the managers' figures to every
employee, silently. Not given, the audience is the replaced version's; a new document is still for 全体员工, and an
audience given explicitly that widens the readers is warned about, as a narrower one was."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import invoke
from fakes import fake_assistant

import rag_core.cli as cli
from rag_core.types import Principal

ADMIN, EMPLOYEE = Principal("boss", "admin"), Principal("zhang", "employee")
V1 = "# 管理者用车规定\n\n第一条 管理者用车补贴每月3000元。\n"
V2 = V1.replace("3000", "3500")


def test_the_facade_keeps_the_readers_when_none_are_given(tmp_path: Path) -> None:
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(V1.encode(), "car.md", audience=["managers"], actor=ADMIN).ok
    report = a.ingest_bytes(V2.encode(), "car.md", audience=None, actor=ADMIN)
    assert report.ok and report.version == 2 and tuple(report.audience) == ("managers",)
    assert a.search("管理者用车补贴", actor=EMPLOYEE).hit_count == 0
    assert tuple(a.ingest_bytes("# 新制度\n\n第一条 规定。\n".encode(), "new.md", audience=None, actor=ADMIN).audience) == ("all",)


def test_a_wider_audience_given_is_warned_about(tmp_path: Path) -> None:
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(V1.encode(), "car.md", audience=["managers"], actor=ADMIN).ok
    report = a.ingest_bytes(V2.encode(), "car.md", audience=["all"], actor=ADMIN)
    assert report.ok and any("宽" in w and "管理者" in w and "全体员工" in w for w in report.warnings), report.warnings


@pytest.fixture()
def run(capsys, monkeypatch, tmp_path):
    store = tmp_path / "store"
    monkeypatch.setattr(cli, "open_assistant", lambda args: fake_assistant(Path(args.data_dir or store)))
    return lambda *args: invoke(capsys, "--data-dir", str(store), *args)


def test_the_cli_keeps_and_names_the_readers(run, tmp_path: Path) -> None:
    policy = tmp_path / "管理者用车.md"
    policy.write_text(V1, encoding="utf-8")
    assert run("ingest", str(policy), "--audience", "managers").exit_code == 0
    policy.write_text(V2, encoding="utf-8")
    again = run("ingest", str(policy))
    assert again.exit_code == 0 and "v2" in again.stdout and "可见范围：管理者" in again.stdout, again.stdout
    assert run("search", "管理者用车补贴", "--role", "all", "--json").json()["hit_count"] == 0


def test_the_estimate_asks_before_a_version_reaches_other_readers(tmp_path: Path) -> None:
    """The documents page writes without asking unless the estimate says why (review 329): its 可见范围 box starts at
    全体员工, so a new version of a managers-only policy went to all staff, warned about only afterwards."""
    from ui.uploads import confirmation_question

    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(V1.encode(), "car.md", audience=["managers"], actor=ADMIN).ok
    wider = a.estimate_ingest(V2.encode(), "car.md", audience=["all"], actor=ADMIN)
    assert "宽" in wider.readers_change and "导入后" in wider.readers_change and "重新上传" not in wider.readers_change
    assert not wider.needs_confirmation  # not a long import: the CLI shows no progress bar for it
    assert "宽" in (confirmation_question([wider]) or "")
    same = a.estimate_ingest(V2.encode(), "car.md", audience=["managers"], actor=ADMIN)
    assert not same.readers_change and confirmation_question([same]) is None
    kept = a.estimate_ingest(V1.encode(), "car.md", audience=None, actor=ADMIN)  # as the ingest decides: unchanged
    assert kept.unchanged and not kept.readers_change


def test_other_readers_are_said_as_both(tmp_path: Path) -> None:
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(V1.encode(), "car.md", audience=["hr"], actor=ADMIN).ok
    report = a.ingest_bytes(V2.encode(), "car.md", audience=["managers"], actor=ADMIN)
    [said] = [w for w in report.warnings if "可见范围" in w]
    assert "不同" in said and "查不到" in said and "新增的受众能查到" in said


def test_a_version_still_scheduled_is_the_one_replaced(tmp_path: Path) -> None:
    """A managers-only policy whose only version is scheduled was republished to everyone with no question (review
    330): the estimate compared with the version in effect today, of which there is none."""
    import datetime

    later = (datetime.date.today() + datetime.timedelta(days=10)).isoformat()
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(V1.encode(), "car.md", audience=["managers"], effective_date=later, actor=ADMIN).ok
    assert "宽" in a.estimate_ingest(V2.encode(), "car.md", audience=["all"], actor=ADMIN).readers_change
    kept = a.ingest_bytes(V2.encode(), "car.md", audience=None, actor=ADMIN)
    assert kept.ok and tuple(kept.audience) == ("managers",)


def test_the_cli_estimate_says_the_change_of_readers(run, tmp_path: Path) -> None:
    policy = tmp_path / "car.md"
    policy.write_text(V1, encoding="utf-8")
    assert run("ingest", str(policy), "--audience", "managers").exit_code == 0
    policy.write_text(V2, encoding="utf-8")
    said = run("ingest", str(policy), "--audience", "all", "--estimate")
    assert said.exit_code == 0 and "宽" in said.stderr and "导入后" in said.stderr


def test_an_immediate_version_is_compared_with_the_scheduled_ones_it_cancels(tmp_path: Path) -> None:
    """Review 331: 全体员工 in effect, 管理者 scheduled; an upload taking effect now cancels the scheduled one, and the
    estimate compared only with the version in effect, so no question was asked."""
    import datetime

    later = (datetime.date.today() + datetime.timedelta(days=10)).isoformat()
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(V1.encode(), "car.md", audience=["all"], actor=ADMIN).ok
    assert a.ingest_bytes(V2.encode(), "car.md", audience=["managers"], effective_date=later, actor=ADMIN).ok
    third = V2.replace("3500", "3600")
    assert "宽" in a.estimate_ingest(third.encode(), "car.md", audience=["all"], actor=ADMIN).readers_change


def test_only_scheduled_versions_keep_the_newest_one_s_readers(tmp_path: Path) -> None:
    """Review 332: two scheduled versions, 全体员工 then 管理者; re-ingested with no audience it took the first's."""
    import datetime

    soon, later = ((datetime.date.today() + datetime.timedelta(days=d)).isoformat() for d in (5, 10))
    a = fake_assistant(tmp_path / "s")
    assert a.ingest_bytes(V1.encode(), "car.md", audience=["all"], effective_date=soon, actor=ADMIN).ok
    assert a.ingest_bytes(V2.encode(), "car.md", audience=["managers"], effective_date=later, actor=ADMIN).ok
    third = a.ingest_bytes(V2.replace("3500", "3600").encode(), "car.md", audience=None, actor=ADMIN)
    assert third.ok and tuple(third.audience) == ("managers",)
