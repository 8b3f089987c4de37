"""Review 53i: a clause an older version indexed with a phone its masker missed (Chinese digits) reaches the
prompt, the sources and so the answer masked by today's masker."""

from __future__ import annotations

from rag_core.answer.prompt import build_prompt
from rag_core.types import Chunk, Hit, HitScores

RAW = "一三八一二三四五六七八"


def old_hit() -> Hit:
    """A hit on a chunk as stop 41's masker stored it: text, section and file name hold the raw phone."""
    chunk = Chunk(chunk_id="d@v1#1", doc_id="d", version=1, index=1, text=f"年假由人事专员受理，手机：{RAW}。",
                  source=f"联系手机：{RAW}.md", title="制度", section=f"第一章 手机：{RAW}")
    return Hit(chunk, HitScores(bm25=1.0, fused=0.1))


def test_fix53i_prompt_and_sources_mask_an_old_chunk() -> None:
    built = build_prompt("年假找谁？", [old_hit()], [], budget=2000)
    assert RAW not in built.text and "[手机号]" in built.text and "人事专员" in built.text
    source = built.sources[0]
    assert "[手机号]" in source.text and "[手机号]" in source.section
    assert all(RAW not in text for text in (source.text, source.source, source.section))
