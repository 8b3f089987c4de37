"""The CLI's refusals said in Chinese, once (review 62, CLI defects 2, 3, 5 and 7):
- Ctrl-C in any command: one line 已取消 and exit 130, not an English traceback (ingest keeps its own line);
- backup/restore: no OS or JSON parser English (`File exists`, `Expecting value`, `'utf-8' codec`), a file standing
  where a folder is needed said as that;
- the e-mail refusal's example survives the masking of error lines (it read 形如 [邮箱]);
- an ingest warning that already starts with 注意： is not printed as 注意：注意：.
"""

from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest
from cli_support import invoke
from fakes import fake_assistant

from rag_core.accounts.emails import check_email
from rag_core.cli.documents import noted
from rag_core.errors import AccountError
from rag_core.text.pii import redact_text

POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n"
ENGLISH = ("File exists", "Not a directory", "Expecting value", "codec", "Traceback", "KeyboardInterrupt")


@pytest.fixture()
def cli_facade(tmp_path: Path, monkeypatch):
    import rag_core.cli

    facade = fake_assistant(tmp_path / "store")
    monkeypatch.setattr(rag_core.cli, "open_assistant", lambda args: facade)
    return facade


def _run_caught(capsys, *argv: str):
    try:
        return invoke(capsys, *argv)
    except KeyboardInterrupt:  # what `python -m rag_core` printed as an English traceback
        pytest.fail("Ctrl-C left main() as a KeyboardInterrupt")


def test_ctrl_c_in_a_command_is_one_chinese_line_and_exit_130(cli_facade, capsys, monkeypatch) -> None:
    def ctrl_c(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(type(cli_facade), "search_as_chat", ctrl_c)
    result = _run_caught(capsys, "search", "年假有几天？")
    assert result.exit_code == 130
    assert "已取消" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not any(word in result.stderr for word in ENGLISH)


def test_ctrl_c_while_the_store_opens_is_the_same_line(tmp_path: Path, capsys, monkeypatch) -> None:
    import rag_core.cli

    def ctrl_c(args):
        raise KeyboardInterrupt  # the models load for a few seconds: the likeliest moment to press it

    monkeypatch.setattr(rag_core.cli, "open_assistant", ctrl_c)
    result = _run_caught(capsys, "--data-dir", str(tmp_path), "docs", "list")  # one that exists: a reading command
    assert result.exit_code == 130 and "已取消" in result.stderr


@pytest.fixture()
def data_dir(tmp_path: Path) -> Path:
    assistant = fake_assistant(tmp_path / "data")
    assert assistant.ingest_bytes(POLICY.encode(), "leave.md").ok
    assistant.catalog.close()
    assistant.release_data_dir()
    del assistant
    gc.collect()
    return tmp_path / "data"


def test_backup_refusals_carry_no_english(data_dir: Path, tmp_path: Path, capsys) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x", encoding="utf-8")
    for dest in (blocker / "backup", blocker):  # a file where a folder is needed: above the backup, or the backup
        result = invoke(capsys, "--data-dir", str(data_dir), "backup", str(dest))
        assert result.exit_code == 1
        assert "是一个文件" in result.stderr and "文件夹" in result.stderr, result.stderr
        assert not any(word in result.stderr for word in ENGLISH), result.stderr


@pytest.mark.parametrize("manifest", [b'{"files": [', b"\xff\xfe"], ids=["cut-json", "not-utf8"])
def test_a_damaged_manifest_is_said_as_no_valid_backup(data_dir: Path, tmp_path: Path, capsys, manifest: bytes) -> None:
    backup = tmp_path / "backup"
    assert invoke(capsys, "--data-dir", str(data_dir), "backup", str(backup)).exit_code == 0
    json.loads((backup / "backup.json").read_text(encoding="utf-8"))  # a real manifest before it is damaged
    (backup / "backup.json").write_bytes(manifest)
    result = invoke(capsys, "--data-dir", str(data_dir), "restore", str(backup))
    assert result.exit_code == 1
    assert "不是有效的备份清单（已损坏或被改动）" in result.stderr, result.stderr
    assert not any(word in result.stderr for word in ENGLISH), result.stderr


def test_the_email_refusal_reads_the_same_after_masking() -> None:
    with pytest.raises(AccountError) as refused:
        check_email("not-an-email")
    said = str(refused.value)
    assert redact_text(said) == said and "[邮箱]" not in redact_text(said)
    assert "@" in said  # it still shows what an address looks like


def test_a_warning_is_said_after_one_注意() -> None:
    assert noted("注意：这一版的可见范围比它取代的 v1 窄") == "注意：这一版的可见范围比它取代的 v1 窄"
    assert noted("这份文件与 a.md 内容相同") == "注意：这份文件与 a.md 内容相同"


def test_ingest_prints_a_narrower_audience_warning_with_one_注意(cli_facade, tmp_path: Path, capsys) -> None:
    policy = tmp_path / "leave.md"
    policy.write_text(POLICY, encoding="utf-8")
    assert invoke(capsys, "ingest", str(policy)).exit_code == 0
    policy.write_text(POLICY + "\n第二条 年假须提前三天申请。\n", encoding="utf-8")
    result = invoke(capsys, "ingest", str(policy), "--audience", "hr")
    assert result.exit_code == 0, result.stderr
    assert "注意：" in result.stderr and "注意：注意：" not in result.stderr, result.stderr
