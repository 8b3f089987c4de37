"""A server-mode backup's note that the vectors stay on the server is not counted as a damaged cache left out."""

from __future__ import annotations

from rag_core.facade.maintenance import _summary
from rag_core.storage.backup import VECTORS_ELSEWHERE, BackupReport


def test_the_server_note_is_no_damaged_cache():
    report = BackupReport(path="/b", files=["catalog.sqlite3"], documents=1, chunks=2, memories=0,
                          notices=[f"{VECTORS_ELSEWHERE}（127.0.0.1:8000）"])
    assert "损坏" not in _summary(report)
    report.notices.append("embedding_cache.sqlite3 已损坏，未放进备份")
    assert "1 个损坏的缓存" in _summary(report)
