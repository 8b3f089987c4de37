"""`doctor`'s line for the Chroma server (CHROMA_HOST): can it be reached, and does it hold this store's collections.

In server mode the vectors are not in the data dir, so the file checks said nine times 正常 and exit 0 while the
server was down: questions were answered by keywords only and uploads failed. This line asks the server itself.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ..search.chroma_server import server_lost
from ..storage.health import CATALOG, StoreCheck
from ..storage.sqlite_access import connect_ro

SERVER = "Chroma 服务器"
COLLECTION = "policy_chunks_"  # + the catalog's store_id (Assistant._store_id); partitions add _a + 10 hex
PROBE_SECONDS = 5.0  # a host that drops packets must not hold doctor for minutes
START_IT = ("请在服务器上启动 chroma run（见 docs/deploy.md），并核对 CHROMA_HOST 和 CHROMA_PORT；"
            "在它恢复之前，提问只按关键词检索，导入、删除和重新切块都会失败")


def server_check(data_dir: Path, host: str, port: int) -> StoreCheck:
    """Reachable or not (with what to do), then this store's collections there and their vectors against the catalog."""
    name = f"{SERVER} {host}:{port}"
    try:
        found = _collections(host, port)
    except Exception as exc:  # noqa: BLE001 - whatever the client raises, the line says the server is not usable
        reason = "连不上" if server_lost(exc) else f"没有正常应答（{type(exc).__name__}）"
        return StoreCheck(name, "unreachable", reason, START_IT)
    store_id, chunks = _catalog_facts(Path(data_dir) / CATALOG)
    if not store_id:
        return StoreCheck(name, "ok", "可以连接；这个数据目录还没有向量集合，首次启动时在服务器上新建")
    base = COLLECTION + store_id
    mine = {n: c for n, c in found.items() if n == base or (n.startswith(base + "_a") and len(n) == len(base) + 12)}
    vectors = sum(mine.values())
    if base not in mine and chunks:
        return StoreCheck(name, "lost", f"可以连接，但服务器上没有这个数据目录的向量集合（{base}），文档目录有 {chunks} 块",
                          "请确认 chroma run 的 --path 是原来的存储目录；确实换了新服务器，就重启应用，会按文档目录自动重建向量")
    if chunks is not None and vectors != chunks:
        return StoreCheck(name, "inconsistent", f"可以连接；这个数据目录的集合共 {vectors} 条向量，文档目录有 {chunks} 块",
                          "重启应用时会按文档目录自动重建向量")
    return StoreCheck(name, "ok", f"可以连接；这个数据目录的 {len(mine)} 个向量集合共 {vectors} 条向量")


def _collections(host: str, port: int) -> dict[str, int]:
    """Every collection on the server and its record count; a heartbeat with a short timeout first."""
    import chromadb
    import httpx
    from chromadb.config import Settings as ChromaSettings

    httpx.get(f"http://{host}:{port}/api/v2/heartbeat", timeout=PROBE_SECONDS).raise_for_status()
    client = chromadb.HttpClient(host=host, port=port, settings=ChromaSettings(anonymized_telemetry=False))
    out: dict[str, int] = {}
    for col in client.list_collections():
        named = col if isinstance(col, str) else col.name
        if named.startswith(COLLECTION):
            out[named] = client.get_collection(named, embedding_function=None).count()
    return out


def _catalog_facts(catalog: Path) -> tuple[str, int | None]:
    """The catalog's store_id ("" none yet) and its chunk count (None: no catalog to compare with)."""
    if not catalog.exists():
        return "", None
    try:
        con = connect_ro(catalog)
        try:
            row = con.execute("SELECT value FROM meta WHERE key='store_id'").fetchone()
            chunks = int(con.execute("SELECT count(*) FROM chunks").fetchone()[0])
        finally:
            con.close()
    except sqlite3.Error:  # the catalog's own line says it is damaged
        return "", None
    return (row[0] if row else ""), chunks
