"""Bounded, permitted ingest: who may replace a document, how big a file may grow, how long it takes, cancelling.

Each test names the guard it exercises; removing that guard makes it fail. Real Chroma and
SQLite in a temp dir, the fake embedder (tests/fakes.py).
"""

from __future__ import annotations

import glob
import threading
from pathlib import Path

import pytest
from fakes import fake_assistant

from rag_core.documents import prepare as prepare_module
from rag_core.documents.bounds import min_chunks
from rag_core.documents.parsing import parse_bytes
from rag_core.search.indexer import WAITING
from rag_core.settings import Settings
from rag_core.types import Principal

ROOT = Path(__file__).resolve().parent.parent
ADMIN = Principal("boss", "admin")
HR = Principal("hr1", "hr")
MANAGER = Principal("mgr", "employee", audiences=("managers",))
HR_FOR_MANAGERS = Principal("hr2", "hr", audiences=("managers",))
BONUS = "管理层绩效奖金办法.txt"
BONUS_TEXT = "第一条 部门经理年终奖为年薪的百分之四十。\n第二条 奖金于次年三月发放。\n"


def policy(articles: int, word: str = "年假") -> bytes:
    return "".join(f"第{i}条 员工{word}第 {i} 项规定，每年按工龄计算天数，须提前三天申请。\n\n" for i in range(1, articles + 1)).encode()


@pytest.fixture()
def facade(tmp_path: Path):
    return fake_assistant(tmp_path / "store", embed_batch_size=4)


# ------------------------------------------------------------------ who may replace a document


def test_hr_cannot_upload_over_a_document_it_may_not_read(facade) -> None:
    """Guard: refuse_unreplaceable (may_replace) in the indexer."""
    first = facade.ingest_bytes(BONUS_TEXT.encode(), BONUS, audience=["managers"], actor=ADMIN)
    assert first.ok and first.version == 1
    before = facade.audit_log.count()
    report = facade.ingest_bytes("第一条 年终奖取消。\n".encode(), BONUS, audience=["hr"], actor=HR)
    assert not report.ok and "没有权限" in report.error and "不面向你的受众" in report.error
    versions = facade.document_versions(first.doc_id, actor=ADMIN)
    assert [(v.version, v.status, v.audience) for v in versions] == [(1, "current", ("managers",))]
    assert facade.search("部门经理年终奖", actor=MANAGER).hit_count >= 1  # the managers still find it
    rows = facade.audit_log.entries()[: facade.audit_log.count() - before]
    assert [(r.action, r.outcome, r.actor) for r in rows] == [("refused", "refused", "hr1")]
    assert facade.estimate_ingest(b"x" + BONUS_TEXT.encode(), BONUS, actor=HR).error  # the estimate says so too


def test_hr_who_reads_the_audience_may_replace_it(facade) -> None:
    facade.ingest_bytes(BONUS_TEXT.encode(), BONUS, audience=["managers"], actor=ADMIN)
    report = facade.ingest_bytes("第一条 部门经理年终奖为年薪的百分之三十。\n".encode(), BONUS, audience=["managers"],
                                 actor=HR_FOR_MANAGERS)
    assert report.ok and report.version == 2


# ------------------------------------------------------------------ chunk cap


def test_a_file_over_the_chunk_cap_is_refused_with_the_count_and_the_cap(tmp_path: Path) -> None:
    """Guard: the exact count check after chunking in prepare()."""
    facade = fake_assistant(tmp_path / "store", max_chunks_per_file=20)
    data = policy(30)
    count = len(prepare_module.prepare(data, "big.txt", Settings(max_chunks_per_file=10_000)).chunks)
    assert count > 20 and min_chunks([data.decode()], 240) <= 20  # only the exact count refuses it
    report = facade.ingest_bytes(data, "big.txt")
    assert not report.ok and f"{count} 块" in report.error and "20 块的上限" in report.error
    assert facade.list_documents() == [] and facade.vectors.count() == 0


def test_a_huge_text_is_refused_before_it_is_masked_or_chunked(tmp_path: Path, monkeypatch) -> None:
    """Guard: the lower bound from the parsed text, before redaction and chunking."""
    facade = fake_assistant(tmp_path / "store")
    monkeypatch.setattr(prepare_module, "chunk_document", lambda *a, **k: pytest.fail("chunked a refused file"))
    data = "员工应遵守公司规章制度。".encode() * 100_000  # 3.6 MB, 1.2M characters
    report = facade.ingest_bytes(data, "huge.txt")
    assert not report.ok and "至少 5,000 块" in report.error and "2,000 块的上限" in report.error
    assert "小时" in report.error or "分钟" in report.error


def test_the_largest_real_policy_fits_the_default_cap_many_times() -> None:
    """The default is measured: 路达员工手册.md (66 KB) makes 151 chunks; the cap is ~13x that."""
    counts = {
        Path(p).name: len(prepare_module.prepare(Path(p).read_bytes(), Path(p).name, Settings()).chunks)
        for p in glob.glob(str(ROOT / "tests/data/real/*/policies/*"))
    }
    assert max(counts.values()) * 10 <= Settings().max_chunks_per_file, max(counts.items(), key=lambda kv: kv[1])


@pytest.mark.parametrize("path", sorted(glob.glob(str(ROOT / "tests/data/real/*/policies/*")))[:12] + [
    str(ROOT / "data/samples")])
def test_the_lower_bound_never_exceeds_the_real_count(path: str) -> None:
    files = [Path(path)] if Path(path).is_file() else sorted(Path(path).glob("*.md"))
    for file in files:
        parsed = parse_bytes(file.read_bytes(), file.name, max_bytes=20 << 20)
        real = len(prepare_module.prepare(file.read_bytes(), file.name, Settings()).chunks)
        assert min_chunks((s.text for s in parsed.sections), 240) <= real


# ------------------------------------------------------------------ estimate


def test_estimate_counts_the_chunks_the_ingest_makes_and_writes_nothing(tmp_path: Path, monkeypatch) -> None:
    facade = fake_assistant(tmp_path / "store", ingest_seconds_per_chunk=0.5, ingest_confirm_seconds=10)
    data = policy(30)
    estimate = facade.estimate_ingest(data, "leave.txt")
    assert estimate.ok and estimate.chunk_count > 20
    assert estimate.seconds == pytest.approx(estimate.chunk_count * 0.5) and estimate.needs_confirmation
    assert facade.catalog.versions("leave") == [] and facade.vectors.count() == 0
    calls = []
    monkeypatch.setattr(prepare_module, "chunk_document", lambda *a, **k: calls.append(1))
    report = facade.ingest_bytes(data, "leave.txt")  # the estimate's prepared document is reused
    assert report.ok and report.chunk_count == estimate.chunk_count and calls == []
    monkeypatch.undo()
    again = facade.estimate_ingest(data, "leave.txt")
    assert again.unchanged and again.seconds == 0 and not again.needs_confirmation


def test_estimate_below_the_threshold_needs_no_confirmation(facade) -> None:
    estimate = facade.estimate_ingest(policy(3), "short.txt")
    assert estimate.ok and not estimate.needs_confirmation and "秒" in estimate.duration


def test_estimate_reports_the_refusal(tmp_path: Path) -> None:
    facade = fake_assistant(tmp_path / "store", max_chunks_per_file=5)
    estimate = facade.estimate_ingest(policy(30), "big.txt")
    assert not estimate.ok and "5 块的上限" in estimate.error


# ------------------------------------------------------------------ cancel


def _stores(facade) -> tuple:
    return (
        [(v.doc_id, v.version, v.status) for d in ("leave",) for v in facade.catalog.versions(d)],
        facade.catalog.chunk_count(), facade.vectors.count(), facade.sentences.count(), facade.catalog.pending(),
    )


def test_cancel_between_batches_leaves_nothing_written(facade) -> None:
    """Guard: check() in the embedding progress callback (indexer)."""
    assert facade.ingest_bytes(policy(3), "leave.txt").ok
    before = _stores(facade)
    cancel = threading.Event()
    batches = []

    def progress(stage: str, fraction: float) -> None:
        if stage.startswith("向量化 "):
            batches.append(fraction)
            cancel.set()  # the person clicks 取消 after the first batch

    report = facade.ingest_bytes(policy(40, "病假"), "leave.txt", progress=progress, cancel=cancel)
    assert not report.ok and "导入已取消" in report.error
    assert len(batches) == 1  # stopped at the first check, not at the end
    assert _stores(facade) == before
    assert not any("病假" in c.text for c in facade.catalog.all_chunks())
    assert facade.search("年假第 2 项规定").hit_count >= 1  # the old version still answers


def test_cancel_while_waiting_for_another_writer(facade) -> None:
    """A writer in another process holds the data dir: the wait can be cancelled too."""
    from rag_core.documents.write_lock import WriterLock

    other = WriterLock(facade.catalog.writer.path)  # another process's lock on the same file
    stages, box = [], {}
    with other.hold():
        waiter = threading.Thread(target=lambda: box.setdefault("report", facade.ingest_bytes(
            policy(3), "leave.txt", progress=lambda s, f: stages.append(s), cancel=lambda: WAITING in stages,
        )), daemon=True)
        waiter.start()
        waiter.join(10)
        assert not waiter.is_alive(), "the cancelled ingest kept waiting"
    report = box["report"]
    assert not report.ok and "导入已取消" in report.error and facade.catalog.versions("leave") == []


# ------------------------------------------------------------------ regular files only


def test_symlink_to_a_readable_file_outside_is_refused(tmp_path: Path, facade) -> None:
    """Guard: O_NOFOLLOW in read_regular_file (a symlink to /etc/passwd was indexed for everyone)."""
    secret = tmp_path / "outside" / "passwd.txt"
    secret.parent.mkdir()
    secret.write_text("root:x:0:0:root:/root:/bin/bash\n第一条 这是不该被索引的文件。\n", encoding="utf-8")
    link = tmp_path / "policy.txt"
    link.symlink_to(secret)
    report = facade.ingest_file(link)
    assert not report.ok and "符号链接" in report.error
    assert facade.list_documents() == []
    assert facade.ingest_file(secret).ok  # the file itself is fine


# ------------------------------------------------------------------ the command line


@pytest.fixture()
def cli_facade(tmp_path: Path, monkeypatch):
    import rag_core.cli

    facade = fake_assistant(tmp_path / "store", ingest_confirm_seconds=5)
    monkeypatch.setattr(rag_core.cli, "open_assistant", lambda args: facade)
    return facade


def test_cli_estimate_writes_nothing(cli_facade, tmp_path: Path, capsys) -> None:
    from cli_support import invoke

    (tmp_path / "leave.txt").write_bytes(policy(30))
    result = invoke(capsys, "ingest", str(tmp_path / "leave.txt"), "--estimate", "--json")
    (estimate,) = result.json()["estimates"]
    assert estimate["ok"] and estimate["chunk_count"] > 20 and estimate["seconds"] > 0
    assert cli_facade.list_documents() == []


def test_cli_announces_a_long_ingest_and_ctrl_c_leaves_nothing_half_written(cli_facade, tmp_path: Path, capsys) -> None:
    from cli_support import invoke

    (tmp_path / "leave.txt").write_bytes(policy(30))

    def interrupt(name: str) -> None:
        raise KeyboardInterrupt

    cli_facade.indexer.fail_point = interrupt  # Ctrl-C after the vectors were written, before the switch
    result = invoke(capsys, "ingest", str(tmp_path / "leave.txt"))
    assert result.exit_code == 130 and "Ctrl-C" in result.stderr and "没有写入任何内容" in result.stderr
    assert "向量化 " in result.stderr and " 段" in result.stderr  # the progress line: chunks done, rate, time left
    assert cli_facade.catalog.versions("leave") == [] and cli_facade.vectors.count() == 0
    assert cli_facade.sentences.count() == 0
