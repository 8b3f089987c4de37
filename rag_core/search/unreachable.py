"""The upload report's warning for chunks vector search still cannot find after repair (the indexer is at its size limit)."""

from __future__ import annotations

from collections.abc import Sequence

from .vector_store import REPAIR_ATTEMPTS


def unreachable_warning(chunk_ids: Sequence[str]) -> list[str]:
    """A write the vector index still cannot find after repair: the chunks stay findable by keywords only."""
    if not chunk_ids:
        return []
    shown = "、".join(chunk_ids[:3]) + ("等" if len(chunk_ids) > 3 else "")
    return [
        f"{len(chunk_ids)} 个块写入向量库后仍无法被向量检索找到（已自动重写 {REPAIR_ATTEMPTS} 次；"
        f"块很多的库里也可能是近似检索本身的局限）：{shown}。"
        "这些块目前只能通过关键词命中，请把这条提示转给系统管理员"
    ]
