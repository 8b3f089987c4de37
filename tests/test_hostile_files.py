"""Files that are not files, encodings that lie, names that collide.

Each refusal is an IngestReport with a Chinese reason and the library unchanged;
nothing blocks (a FIFO), nothing reads without bound (a symlink to /dev/zero).
Real Chroma and SQLite in a temp dir, the fake embedder.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from cli_support import invoke
from fakes import fake_assistant

from rag_core.documents.parsing import decode_text

POLICY = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n"
BIG5_POLICY = "員工請假應提前三個工作日向部門主管提出申請，經批准後方可休假。年假天數依照工齡計算，工作滿一年不滿十年者，年休假五天。"


@pytest.fixture(autouse=True)
def fast_cli(monkeypatch):
    """CLI commands open the fake-embedder facade (the e5 model is for the integration tests)."""
    import rag_core.cli

    monkeypatch.setattr(rag_core.cli, "open_assistant", lambda args: fake_assistant(args.data_dir))


@pytest.fixture()
def assistant(tmp_path: Path):
    facade = fake_assistant(tmp_path / "store")
    assert facade.ingest_bytes(POLICY.encode(), "leave.md").ok
    return facade


def run_with_timeout(call, seconds: float = 10.0):
    """Run `call` in a thread; fail (instead of hanging the suite) when it does not return."""
    box: dict = {}
    thread = threading.Thread(target=lambda: box.setdefault("value", call()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "the read blocked"
    return box["value"]


def unchanged(assistant) -> None:
    assert [d.doc_id for d in assistant.list_documents()] == ["leave"]


def test_directory_is_refused_by_name(assistant, tmp_path: Path) -> None:
    (tmp_path / "folder.md").mkdir()
    report = assistant.ingest_file(tmp_path / "folder.md")
    assert not report.ok and "不是普通文件" in report.error and "目录" in report.error
    unchanged(assistant)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_is_refused_without_blocking(assistant, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    report = run_with_timeout(lambda: assistant.ingest_file(fifo))
    assert not report.ok and "管道" in report.error
    unchanged(assistant)


def test_symlink_to_dev_zero_is_refused_without_reading(assistant, tmp_path: Path) -> None:
    link = tmp_path / "zero.txt"
    link.symlink_to("/dev/zero")
    report = run_with_timeout(lambda: assistant.ingest_file(link))
    assert not report.ok and "不是普通文件" in report.error
    unchanged(assistant)


def test_file_over_the_limit_is_refused_from_its_size(tmp_path: Path) -> None:
    facade = fake_assistant(tmp_path / "store", max_file_mb=1)
    big = tmp_path / "big.txt"
    with open(big, "wb") as f:
        f.truncate(50 * 1024 * 1024)  # sparse: refused from fstat, never read
    report = facade.ingest_file(big)
    assert not report.ok and "超过上限" in report.error


def test_cli_ingest_of_a_directory_exits_1_with_the_reason(assistant, tmp_path: Path, capsys) -> None:
    (tmp_path / "d.md").mkdir()
    result = invoke(capsys, "--data-dir", str(assistant.settings.data_dir), "ingest", str(tmp_path / "d.md"))
    assert result.exit_code == 1 and "不是普通文件" in result.stderr


# ---------------------------------------------------------------- encodings


def test_big5_is_recognised_not_indexed_as_mojibake(assistant) -> None:
    text, codec = decode_text(BIG5_POLICY.encode("big5"), "leave_tw.txt")
    assert codec in ("big5", "cp950") and text == BIG5_POLICY
    report = assistant.ingest_bytes(BIG5_POLICY.encode("big5"), "leave_tw.txt")
    assert report.ok
    assert BIG5_POLICY[:10] in assistant.document_chunks(report.doc_id)[0].text


def test_gbk_stays_gbk(assistant) -> None:
    text = "第八条 年假。员工每年享有五天带薪年假，入职满一年后开始计算。病假须提供诊断证明。"
    assert decode_text(text.encode("gbk"), "gbk.txt") == (text, "gb18030")


def test_gb18030_with_rare_characters_is_not_taken_for_big5() -> None:
    text = "第三条 生僻字姓名：𠮷野家、䶮，欧元符号€。"
    assert decode_text(text.encode("gb18030"), "gb.txt") == (text, "gb18030")


# ---------------------------------------------------------------- document identity


def test_a_different_name_mapping_to_an_existing_doc_id_is_refused(assistant) -> None:
    first = assistant.ingest_bytes(POLICY.encode(), "员工手册 v2.md")
    assert first.ok and first.doc_id == "员工手册_v2"
    second = assistant.ingest_bytes((POLICY + "第二条 病假。\n").encode(), "员工手册(v2).md")
    assert not second.ok and second.conflict_doc_id == "员工手册_v2"
    assert "员工手册 v2.md" in second.error and "--doc-id" in second.error
    assert [v.version for v in assistant.document_versions("员工手册_v2")] == [1]
    confirmed = assistant.ingest_bytes((POLICY + "第二条 病假。\n").encode(), "员工手册(v2).md", doc_id="员工手册_v2")
    assert confirmed.ok and confirmed.version == 2


def test_the_same_name_again_is_still_a_new_version(assistant) -> None:
    again = assistant.ingest_bytes((POLICY + "第二条 病假。\n").encode(), "leave.md")
    assert again.ok and again.version == 2


def test_cli_refuses_the_colliding_name_unless_doc_id_is_given(assistant, tmp_path: Path, capsys) -> None:
    data = str(assistant.settings.data_dir)
    (tmp_path / "员工手册 v2.md").write_text(POLICY, encoding="utf-8")
    (tmp_path / "员工手册(v2).md").write_text(POLICY + "第二条 病假。\n", encoding="utf-8")
    assert invoke(capsys, "--data-dir", data, "ingest", str(tmp_path / "员工手册 v2.md")).exit_code == 0
    refused = invoke(capsys, "--data-dir", data, "ingest", str(tmp_path / "员工手册(v2).md"))
    assert refused.exit_code == 1 and "--doc-id 员工手册_v2" in refused.stderr
    accepted = invoke(capsys, "--data-dir", data, "ingest", str(tmp_path / "员工手册(v2).md"), "--doc-id", "员工手册_v2")
    assert accepted.exit_code == 0 and "v2" in accepted.stdout


# ---------------------------------------------------------------- encodings: detected, or refused, never mojibake

SJIS_POLICY = "就業規則\n第一条 従業員は、会社の規則を守らなければならない。年次有給休暇は十日とする。\n"
ZH_NO_ASCII = "员工请假应提前申请，经部门负责人批准后方可休假。病假须提供医院证明。"


@pytest.mark.parametrize(
    ("text", "codec", "expected"),
    [
        (SJIS_POLICY, "shift_jis", "shift_jis"),  # was stored as GB18030 mojibake (廇嬈婯懃)
        (SJIS_POLICY, "euc_jp", "euc_jp"),  # was stored as GB18030 mojibake (舰度惮搂)
        (ZH_NO_ASCII, "utf-16-le", "utf-16-le"),  # no ASCII: no NUL byte to give UTF-16 away
        (ZH_NO_ASCII, "utf-16-be", "utf-16-be"),
        ("### 第三条 基本原则", "utf-16-be", "utf-16-be"),  # read as LE it decodes too (⌀⌀⌀ …)
        (POLICY, "utf-16", "utf-16-le"),
        (BIG5_POLICY, "big5", "big5"),
        ("- **经营理念**——健康经营 创新发展", "gbk", "gb18030"),  # the dash once tipped a GBK line into Big5
    ],
)
def test_encodings_are_detected(text: str, codec: str, expected: str) -> None:
    assert decode_text(text.encode(codec), "p.txt") == (text, expected)


def test_shift_jis_is_indexed_as_japanese_and_the_report_says_how_it_was_read(assistant) -> None:
    report = assistant.ingest_bytes(SJIS_POLICY.encode("shift_jis"), "就業規則.txt")
    assert report.ok and any("Shift-JIS" in w for w in report.warnings)
    assert "年次有給休暇は十日とする" in assistant.document_chunks(report.doc_id)[0].text


@pytest.mark.parametrize(
    "data",
    [
        "第一条 年次有給休暇 十日 特別休暇 慶弔休暇 産前産後休暇 育児休業".encode("shift_jis"),  # kanji only, no kana
        bytes(b for trail in range(0x40, 0x7F) for b in (0x8A, trail)),  # GBK extension only: rare hanzi, kanji in SJIS
    ],
)
def test_text_no_codec_reads_as_language_is_refused_not_stored_as_mojibake(assistant, data: bytes) -> None:
    report = assistant.ingest_bytes(data, "odd.txt")
    assert not report.ok and "无法确定文件编码" in report.error and "UTF-8" in report.error
    unchanged(assistant)


def test_a_guessed_encoding_is_never_silent(assistant) -> None:
    report = assistant.ingest_bytes("Les employés ont droit à des congés payés en été.".encode("latin-1"), "fr.txt")
    assert report.ok and any("可能不准确" in w or "已替换" in w for w in report.warnings)
