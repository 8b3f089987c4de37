"""Restored standard answers are served (review 63, defect 2).

With a Chroma server the wordings' collection outlives the data dir: a restore brought back a table of other
entries with as many wordings as the collection held, the count check saw nothing to rebuild, and the restored
answers were never matched (the collection still held the replaced ones). The (id, wording) pairs are compared now.
A persistent client shared by two table files stands in for the server here (the same collection, another table).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import chromadb
import numpy as np
from chromadb.config import Settings as ChromaSettings
from fakes import BigramEmbedder

from rag_core.insights.standard import StandardAnswers

BEFORE = [("公司有班车吗？", "有，每天早8点从地铁站发车。"), ("食堂几点开饭？", "中午十一点半。")]
RESTORED = [("工牌丢了怎么办？", "找行政补办。"), ("停车位怎么申请？", "向行政部提交申请表。")]


def everyone(_audience) -> bool:
    return True


def _open(path: Path, client, embedder: BigramEmbedder) -> StandardAnswers:
    return StandardAnswers(path, client, "sa_restore", embedder.model_id,
                           lambda texts: np.vstack([embedder.vector(t) for t in texts]))


def test_a_restored_table_of_as_many_wordings_is_served(tmp_path: Path):
    client = chromadb.PersistentClient(path=str(tmp_path / "chroma"), settings=ChromaSettings(anonymized_telemetry=False))
    embedder = BigramEmbedder()
    backup = tmp_path / "backup.sqlite3"
    taken = _open(backup, client, embedder)  # the backup's table (written to the same collection, then replaced)
    for question, answer in RESTORED:
        taken.add(question, answer, author="hr", created_at="2026-03-01")
    live = tmp_path / "standard_answers.sqlite3"
    answers = _open(live, client, embedder)  # the live table: the collection now holds its wordings, as many
    for question, answer in BEFORE:
        answers.add(question, answer, author="hr", created_at="2026-03-01")
    assert answers.match("公司有班车吗？", embedder.vector("公司有班车吗？"), everyone) is not None
    answers._db.close()
    taken._db.close()
    shutil.copyfile(backup, live)  # the restore
    restored = _open(live, client, embedder)
    question = RESTORED[0][0]
    match = restored.match(question, embedder.vector(question), everyone)
    assert match is not None and RESTORED[0][1] in str(match)
    assert restored.match("公司有班车吗？", embedder.vector("公司有班车吗？"), everyone) is None
