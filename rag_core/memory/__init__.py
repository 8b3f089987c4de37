"""Long-term memory about the person asking: recalled to fit answers, never a policy source.

Public surface: ``MemoryStore`` (SQLite, per-user) and the pure scoring functions.

May import: `rag_core.text` and the top-level `types`, `errors`, `settings`; the embedder
is passed in, so memory never imports search, answer or the facade.
"""

from .db import MemoryRecord
from .extraction import Fact, extract_facts, parse_llm_facts, rule_facts
from .scoring import (
    DEFAULT_IMPORTANCE,
    KINDS,
    default_importance,
    freshness,
    memory_score,
    relevance,
    retention_score,
)
from .store import MemoryStore

__all__ = [
    "DEFAULT_IMPORTANCE",
    "KINDS",
    "Fact",
    "MemoryRecord",
    "MemoryStore",
    "default_importance",
    "extract_facts",
    "freshness",
    "memory_score",
    "parse_llm_facts",
    "relevance",
    "retention_score",
    "rule_facts",
]
