"""`ingest --doc-id X a.md b.md` is refused: each file would have become a version of X, only the last left."""

from __future__ import annotations

from cli_support import invoke
from fakes import fake_assistant

import rag_core.cli as cli


def test_doc_id_with_several_files_is_refused(tmp_path, monkeypatch, capsys):
    a = fake_assistant(tmp_path / "s")
    monkeypatch.setattr(cli, "open_assistant", lambda args: a)
    paths = []
    for name, tag in (("报销.md", "报销"), ("福利.md", "福利")):
        (path := tmp_path / name).write_text(f"第一条 {tag}规定，须提前三天申请。\n\n第二条 {tag}另一项。", encoding="utf-8")
        paths.append(str(path))
    result = invoke(capsys, "ingest", "--doc-id", "报销制度", *paths)
    assert result.exit_code == 1 and "--doc-id 只能用于导入单个文件" in result.stderr
    assert a.list_documents() == []
    assert invoke(capsys, "ingest", "--doc-id", "报销制度", paths[0]).exit_code == 0
