"""CLI `ingest` with a file whose name is not UTF-8 (review of s49's changes, defect 1).

The name reaches the facade with a lone surrogate (Python's surrogateescape of the
non-UTF-8 byte); it must be made displayable before it becomes a doc id, a title or
an audit target, and one bad file must not end the run for the others.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cli_support import invoke
from fakes import fake_assistant

import rag_core.cli as cli
from rag_core.types import Principal

POLICY = "# 年假制度\n\n员工工作满一年后，每年享有五天带薪年假。年假须提前三天申请。\n".encode()
OTHER = "# 病假制度\n\n员工因病不能上班，可以申请病假，需提供医院证明。\n".encode()


@pytest.fixture()
def store(monkeypatch, tmp_path) -> Path:
    monkeypatch.chdir(tmp_path)
    assistants: list = []

    def opened(args):
        assistants.append(fake_assistant(Path(args.data_dir)))
        return assistants[-1]

    monkeypatch.setattr(cli, "open_assistant", opened)
    return tmp_path / "store"


def _bad_name(folder: Path) -> str:
    """A real file named b'b_nian\\xffjia.md', as sys.argv hands it over (a lone surrogate)."""
    raw = os.fsencode(folder) + b"/b_nian\xffjia.md"
    with open(raw, "wb") as handle:
        handle.write(POLICY)
    return os.fsdecode(raw)


def test_a_file_name_that_is_not_utf8_is_ingested_shown_and_audited(capsys, store, tmp_path):
    bad = _bad_name(tmp_path)
    good = tmp_path / "bingjia.md"
    good.write_bytes(OTHER)
    result = invoke(capsys, "--data-dir", str(store), "ingest", bad, str(good))
    assert "Traceback" not in result.stderr
    assert "无法识别的字符" not in result.stderr, result.stderr
    assert result.exit_code == 0, result.stderr
    assert "b_nian\ufffdjia.md: 已索引" in result.stdout, result.stdout
    assert "bingjia.md: 已索引" in result.stdout, result.stdout
    a = fake_assistant(store)
    docs = a.list_documents(actor=Principal("admin", "admin"))
    assert len(docs) == 2
    for doc in docs:  # everything stored is valid UTF-8
        doc.doc_id.encode("utf-8")
        doc.title.encode("utf-8")
        doc.source.encode("utf-8")
    targets = [row.target for row in a.audit_entries(actor=Principal("admin", "admin"))]
    assert any("b_nian\ufffdjia.md" in t for t in targets), targets


def test_the_estimate_shows_the_name_too(capsys, store, tmp_path):
    bad = _bad_name(tmp_path)
    result = invoke(capsys, "--data-dir", str(store), "ingest", "--estimate", bad)
    assert result.exit_code == 0, result.stderr
    assert "b_nian\ufffdjia.md:" in result.stdout


def test_one_file_that_fails_unexpectedly_does_not_end_the_run(capsys, store, tmp_path, monkeypatch):
    """Whatever stops one file (here an OS error on the first), the others are still tried and reported."""
    first, second = tmp_path / "a.md", tmp_path / "b.md"
    first.write_bytes(POLICY)
    second.write_bytes(OTHER)
    from rag_core.facade.documents import DocumentActions

    real = DocumentActions.ingest_file

    def flaky(self, path, **kwargs):
        if Path(path).name == "a.md":
            raise UnicodeEncodeError("utf-8", "\udcff", 0, 1, "surrogates not allowed")
        return real(self, path, **kwargs)

    monkeypatch.setattr(DocumentActions, "ingest_file", flaky)
    result = invoke(capsys, "--data-dir", str(store), "ingest", str(first), str(second))
    assert result.exit_code == 1
    assert "b.md: 已索引" in result.stdout, result.stdout
    assert "a.md" in result.stderr, result.stderr
