"""A backup whose files other than the stores were cut on the way to the backup media is refused (review 63, defect 4).

thesaurus.tsv cut at a line end (5 -> 2 entries) and settings.json are plain text: restore had only the store checks
and the counts, so it replaced the data dir with the cut word list without a word. `backup` records each file's
size and sha256 in backup.json and `verify_backup` checks them; a manifest from before (no `checksums`) is still
restored, with a notice. Failed before the fix (restore accepted the cut file).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.assistant import Assistant
from rag_core.cli import main as cli_main
from rag_core.errors import StoreDamaged
from rag_core.facade.access import LOCAL_ADMIN

DOC = "# 休假制度\n\n第一条 员工入职满一年后每年享有带薪年假 5 天。\n".encode()
WORDS = [("年假", "带薪年休假 年休假"), ("调休", "补休 倒休"), ("社保", "社会保险 五险"), ("公积金", "住房公积金"),
         ("试用期", "见习期")]
SUMS = "checksums"  # backup.json: file -> size and sha256
NO_SUMS = "这份备份由较早的版本生成"


@pytest.fixture()
def backup(tmp_path: Path) -> Path:
    a = fake_assistant(tmp_path / "data")
    assert a.ingest_bytes(DOC, "leave.md").ok
    for word, terms in WORDS:
        a.add_thesaurus_entry(word, terms.split(), actor=LOCAL_ADMIN)
    a.update_settings(actor=LOCAL_ADMIN, top_k=8)
    a.release_data_dir()
    Assistant.backup_data_dir(tmp_path / "data", tmp_path / "bk", actor=LOCAL_ADMIN)
    return tmp_path / "bk"


def _thesaurus_lines(data_dir: Path) -> int:
    return (data_dir / "thesaurus.tsv").read_text(encoding="utf-8").count("\n")


def test_the_manifest_records_size_and_digest_of_every_file(backup: Path) -> None:
    manifest = json.loads((backup / "backup.json").read_text(encoding="utf-8"))
    assert set(manifest[SUMS]) == set(manifest["files"])
    assert manifest[SUMS]["thesaurus.tsv"]["size"] == (backup / "thesaurus.tsv").stat().st_size
    assert len(manifest[SUMS]["thesaurus.tsv"]["sha256"]) == 64


def test_a_text_file_cut_at_a_line_end_is_refused(backup: Path, tmp_path: Path) -> None:
    path = backup / "thesaurus.tsv"
    data = path.read_bytes()
    path.write_bytes(data[: data.index(b"\n", len(data) // 2) + 1])  # still a valid, shorter word list
    target = tmp_path / "restored"
    with pytest.raises(StoreDamaged, match="thesaurus.tsv.*截断"):
        Assistant.restore_data_dir(backup, target, actor=LOCAL_ADMIN)
    assert not target.exists()


def test_a_file_changed_in_place_is_refused(backup: Path, tmp_path: Path) -> None:
    path = backup / "settings.json"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("8", "9", 1), encoding="utf-8")  # same size, other bytes
    assert path.stat().st_size == len(text.encode())
    with pytest.raises(StoreDamaged, match="settings.json.*校验值"):
        Assistant.restore_data_dir(backup, tmp_path / "restored", actor=LOCAL_ADMIN)


def test_a_whole_backup_restores(backup: Path, tmp_path: Path) -> None:
    report = Assistant.restore_data_dir(backup, tmp_path / "restored", actor=LOCAL_ADMIN)
    assert report.notices == []
    assert _thesaurus_lines(tmp_path / "restored") == _thesaurus_lines(tmp_path / "data")


def test_an_older_manifest_restores_with_a_notice(backup: Path, tmp_path: Path, capsys) -> None:
    manifest = json.loads((backup / "backup.json").read_text(encoding="utf-8"))
    del manifest[SUMS]
    (backup / "backup.json").write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")
    report = Assistant.restore_data_dir(backup, tmp_path / "restored", actor=LOCAL_ADMIN)
    assert len(report.notices) == 1 and report.notices[0].startswith(NO_SUMS) and "thesaurus.tsv" in report.notices[0]
    assert report.documents == 1
    trail = fake_assistant(tmp_path / "restored").audit_log.entries(action="restore")
    assert any("未能核对" in row.detail and "损坏" not in row.detail for row in trail)
    assert cli_main(["--data-dir", str(tmp_path / "again"), "restore", str(backup)]) == 0
    assert NO_SUMS in capsys.readouterr().out


@pytest.mark.parametrize("sums", [[], {"catalog.sqlite3": {"size": -1, "sha256": "0" * 64}}, {}])
def test_sums_of_another_shape_or_missing_a_file_are_refused(backup: Path, tmp_path: Path, sums: object) -> None:
    manifest = json.loads((backup / "backup.json").read_text(encoding="utf-8"))
    manifest[SUMS] = sums
    (backup / "backup.json").write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(StoreDamaged, match="backup.json"):
        Assistant.restore_data_dir(backup, tmp_path / "restored", actor=LOCAL_ADMIN)
