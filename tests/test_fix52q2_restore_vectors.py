"""A restore over a Chroma server rebuilds the restored vectors (review 52q2 #1).

With a Chroma server the backup holds no vectors, and the start only compared counts: a policy
edited after the backup into a version of the same chunk count, then restored, left the restored
v1 with no vector while the server kept v2's. Restore now marks the store for a rebuild, a server
store compares the chunk ids at start, and a backup says its vectors are not in it.

The "server" is a Chroma directory outside the data dir (chromadb.HttpClient opened as a
PersistentClient there): it outlives a restore exactly as a server does. Fake embedder.
"""

from __future__ import annotations

import gc
from pathlib import Path

import chromadb
import pytest
from fakes import fake_assistant

from rag_core.assistant import Assistant

V1 = "# 差旅制度\n\n第一条 国内出差住宿凭发票实报实销，一线城市每晚上限 600 元。\n\n第二条 网约车须上传平台电子行程单。\n"
V2 = "# 差旅制度\n\n第一条 国内出差住宿凭发票实报实销，一线城市每晚上限 900 元。\n\n第二条 网约车须上传平台电子行程单。\n"


@pytest.fixture()
def server(tmp_path: Path, monkeypatch) -> Path:
    """A Chroma "server": one directory every assistant of the test reaches through HttpClient."""
    where = tmp_path / "chroma-server"

    def http_client(host: str, port: int, settings=None):
        return chromadb.PersistentClient(path=str(where), settings=settings)

    monkeypatch.setattr(chromadb, "HttpClient", http_client)
    return where


def on_server(data_dir: Path) -> Assistant:
    return fake_assistant(data_dir, chroma_host="chroma.test", chroma_port=8000)


def close(assistant: Assistant) -> None:
    assistant.release_data_dir()
    assistant.catalog.close()
    gc.collect()


def chunk_ids(assistant: Assistant) -> set[str]:
    return {c.chunk_id for c in assistant.catalog.all_chunks()}


def test_a_restore_over_a_server_rebuilds_the_restored_vectors(server, tmp_path: Path) -> None:
    data_dir = tmp_path / "store"
    first = on_server(data_dir)
    assert first.ingest_bytes(V1.encode(), "travel.md").ok
    v1_ids = chunk_ids(first)
    report = first.backup(tmp_path / "backup")
    assert any("向量在 Chroma 服务器上，未包含在备份中；恢复后会从嵌入缓存重建" in n for n in report.notices)
    assert first.ingest_bytes(V2.encode(), "travel.md").ok  # an edit of the same size after the backup
    assert first.catalog.chunk_count() == len(v1_ids) and chunk_ids(first) != v1_ids
    close(first)

    Assistant.restore_data_dir(tmp_path / "backup", data_dir)
    restored = on_server(data_dir)
    assert chunk_ids(restored) == v1_ids
    assert set(restored.vectors.ids()) == v1_ids  # the server no longer holds v2's vectors for this store
    assert set(restored.vectors.get_vectors(sorted(v1_ids))) == v1_ids  # every restored chunk has its vector
    nearest = restored.vectors.query(restored.embedder.embed_query("一线城市每晚上限 600 元"), 1)
    assert nearest and nearest[0].chunk_id in v1_ids


def test_a_server_holding_other_ids_of_the_same_count_is_rebuilt_at_start(server, tmp_path: Path) -> None:
    data_dir = tmp_path / "store"
    first = on_server(data_dir)
    assert first.ingest_bytes(V1.encode(), "travel.md").ok
    ids = sorted(chunk_ids(first))
    collection = first.vectors._collection
    vector = first.vectors.get_vectors([ids[0]])[ids[0]]
    collection.delete(ids=[ids[0]])  # the server lost one chunk and holds a stranger: the count still matches
    collection.upsert(ids=["stranger@v1#0"], embeddings=[vector.tolist()], metadatas=[{"doc_id": "stranger"}])
    assert first.vectors.count() == len(ids)
    close(first)

    again = on_server(data_dir)
    assert set(again.vectors.ids()) == set(ids)


def test_an_embedded_backup_says_nothing_about_a_server(tmp_path: Path) -> None:
    assistant = fake_assistant(tmp_path / "store")
    assert assistant.ingest_bytes(V1.encode(), "travel.md").ok
    assert not assistant.backup(tmp_path / "backup").notices
