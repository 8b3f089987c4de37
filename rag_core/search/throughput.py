"""How fast a long upload goes, said on its progress bar (its own module: the indexer is at its size limit)."""

from __future__ import annotations


def throughput_label(stage: str, done: int, total: int, elapsed: float, unit: str) -> str:
    """向量化 120/400 段 · 每秒 8.3 段 · 本步约剩 34 秒: how fast a long upload goes and how long this step has left.

    The rate is measured on this upload so far (no estimate until one batch is done). The time left is this step's
    only (the sentences and the second model follow the chunks), so it says so: a label that read 约剩 7 秒 while
    63 s of the upload remained misled (review 195)."""
    label = f"{stage} {done:,}/{total:,} {unit}"
    if done <= 0 or elapsed <= 0 or done >= total:
        return label
    rate = done / elapsed
    left = (total - done) / rate
    remaining = f"本步约剩 {left:.0f} 秒" if left < 90 else f"本步约剩 {left / 60:.0f} 分钟"
    return f"{label} · 每秒 {rate:.1f} {unit} · {remaining}"
